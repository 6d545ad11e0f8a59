/**
 * Reads a cached definition file's text into its value without holding the supervisor's loop.
 * `yaml` reads about 1 MB of YAML a second (a 3.3 MB definition took 5.9 s at load 8, a 20 MB one
 * 26 s on a quiet machine, bench/README.md), and the first contract verdict, New Mock or mock start
 * after an import would wait that long with every UI call behind it. A YAML text over
 * OFF_LOOP_CHARS is parsed on a thread of its own, within a budget; the value comes back by
 * structured clone (about 0.4 s for 20 MB of YAML). JSON stays on the loop: JSON.parse is about as
 * quick as taking the value back from a thread. Running from source (unit tests), where no built
 * worker exists, every text is parsed in place.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ParleyError } from '../../../protocol/errors.js';
import { BudgetedPool } from '../../runtime/budgeted-pool.js';
import { parseDefinitionText } from './definition-text.js';

/** YAML texts longer than this are parsed off the loop (about a quarter of a second of `yaml`'s work). */
export const OFF_LOOP_CHARS = 256 * 1024;
/** How long one file's parse may take on its thread before it is given up. */
const PARSE_BUDGET_MS = 120_000;

export interface DefinitionParserOptions {
  /** The built worker; default `definition-parse-worker.js` beside this module (dist/). */
  workerFile?: string | URL;
  budgetMs?: number;
}

type ParseTask = { text: string; name: string };

export class DefinitionParser {
  private pool: BudgetedPool<ParseTask, unknown> | undefined;

  private readonly workerFile: string | URL;
  private readonly budgetMs: number;

  constructor(options: DefinitionParserOptions = {}) {
    this.workerFile = options.workerFile ?? new URL('./definition-parse-worker.js', import.meta.url);
    this.budgetMs = options.budgetMs ?? PARSE_BUDGET_MS;
  }

  async parse(text: string, name: string): Promise<unknown> {
    if (name.endsWith('.json') || text.length <= OFF_LOOP_CHARS || !existsSync(this.workerFile instanceof URL ? fileURLToPath(this.workerFile) : this.workerFile)) return parseDefinitionText(text, name);
    this.pool ??= new BudgetedPool<ParseTask, unknown>({ filename: this.workerFile, threads: 1, maxQueue: 64, budgetMs: this.budgetMs });
    const outcome = await this.pool.run({ text, name });
    if (outcome.ok) return outcome.value;
    switch (outcome.reason) {
      case 'budget':
        throw new ParleyError('no-definition', `The cached definition file ${name} took longer than ${this.budgetMs / 1000} s to read and was given up.`);
      case 'failed':
        // The thread's own refusal (`does not parse: ...`) says it best; a thread that died says how.
        throw new ParleyError('no-definition', outcome.error?.startsWith('The cached definition file') ? outcome.error : `The cached definition file ${name} could not be read: ${outcome.error ?? 'its thread stopped'}.`);
      default:
        throw new ParleyError('no-definition', `The cached definition file ${name} could not be read now (${outcome.reason === 'queue-full' ? 'too many are being read' : 'cancelled'}).`);
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }
}

/** The supervisor's one parser (definitions.ts). */
export const definitionParser = new DefinitionParser();
