/**
 * Runs dispatch.ts in isolated-vm: types stripped by esbuild, one isolate reused (memory-capped),
 * a fresh context per request, and a one-second limit. The async run API executes the script on
 * isolated-vm's own thread, so the host's event loop keeps serving other requests meanwhile.
 * Inside there is nothing but JavaScript itself and the globals below: no properties, secrets,
 * network, files, timers or console.
 */
import ivm from 'isolated-vm';
import { boundText } from '../../../protocol/errors.js';
import { SCENARIOS_KEPT, SCENARIO_NAME_CHARS, SCENARIO_STATE_CHARS } from './mock-state.js';

export interface ScriptInput {
  request: {
    operation: string;
    method: string;
    path: string;
    query: Record<string, string[]>;
    headers: Array<{ name: string; value: string }>;
    pathParams: Record<string, string>;
    body: string;
  };
  responses: Array<{ id: string; name: string }>;
  scenarios: Record<string, string>;
}

export type ScriptFailure = 'mock-script-failed' | 'mock-script-timeout';

export interface ScriptOutcome {
  /** The name passed to respond(), if it was called. */
  picked?: string;
  /** What scenarios.set calls left: each scenario set, with its last state, in the order first set. */
  scenarioChanges: Array<[string, string]>;
  /** log(...) lines. */
  logs: string[];
  error?: { code: ScriptFailure; reason: string };
}

export interface SandboxOptions {
  timeoutMs?: number;
  memoryLimitMb?: number;
}

const MAX_LOG_LINES = 100;
const MAX_LOG_LINE = 2000;

// Builds the script's globals from `__input` and keeps what the script does in a closure only
// `__parleyResult` can read, so the script cannot forge its own outcome.
const PRELUDE = `(() => {
  const input = globalThis.__input;
  delete globalThis.__input;
  // V8 gives every context a console; a script writes to the mock log through log() instead.
  delete globalThis.console;
  const out = { picked: undefined, logs: [] };
  const states = Object.assign(Object.create(null), input.scenarios);
  // Each scenario's last state only: a loop of sets leaves one change per scenario.
  const changes = new Map();
  let scenarioCount = Object.keys(states).length;
  const names = new Set(input.responses.map((r) => r.name));
  const deepFreeze = (v) => { if (v && typeof v === 'object') { Object.values(v).forEach(deepFreeze); Object.freeze(v); } return v; };
  // A value the script got from the request can be megabytes: an error quotes its start, as quote() does.
  const quote = (s) => s.length <= 80 ? JSON.stringify(s) : JSON.stringify(s.slice(0, 79) + '\u2026') + ' (' + s.length + ' characters)';
  const text = (v) => { if (typeof v === 'string') return v; try { const j = JSON.stringify(v); return j === undefined ? String(v) : j; } catch { return String(v); } };
  const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: false, configurable: false, enumerable: false });
  define('request', deepFreeze(input.request));
  define('responses', deepFreeze(input.responses));
  define('respond', function respond(name) {
    name = String(name);
    if (!names.has(name)) throw new Error('respond(): this operation has no response named ' + quote(name));
    out.picked = name;
  });
  // The mock's bounds (mock-state.ts), said where the script breaks them; the host checks them again.
  define('scenarios', Object.freeze({
    get(name) { return states[String(name)] ?? 'Started'; },
    set(name, state) {
      name = String(name);
      state = String(state);
      if (name.length > ${SCENARIO_NAME_CHARS}) throw new Error("scenarios.set(): a scenario's name is at most ${SCENARIO_NAME_CHARS} characters: " + quote(name) + ' was not set.');
      if (state.length > ${SCENARIO_STATE_CHARS}) throw new Error("scenarios.set(): a scenario's state is at most ${SCENARIO_STATE_CHARS} characters: the state of " + quote(name) + ' (' + state.length + ' characters) was not set.');
      if (!(name in states)) {
        if (scenarioCount >= ${SCENARIOS_KEPT}) throw new Error('scenarios.set(): a mock keeps at most ${SCENARIOS_KEPT.toLocaleString('en')} scenarios: ' + quote(name) + ' would be one more, and was not set (Reset state starts them over).');
        scenarioCount++;
      }
      states[name] = state;
      changes.set(name, state);
    },
  }));
  define('log', function log(...args) {
    if (out.logs.length < ${MAX_LOG_LINES}) out.logs.push(args.map(text).join(' ').slice(0, ${MAX_LOG_LINE}));
  });
  define('__parleyResult', () => JSON.stringify({ picked: out.picked, logs: out.logs, changes: [...changes] }));
})();`;

export class ScriptSandbox {
  private isolate: ivm.Isolate | null = null;
  private prelude: ivm.Script | null = null;
  private readonly compiled = new Map<string, Promise<ivm.Script | string>>();
  private readonly timeoutMs: number;
  private readonly memoryLimitMb: number;

  constructor(options: SandboxOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.memoryLimitMb = options.memoryLimitMb ?? 32;
  }

  async run(source: string, input: ScriptInput): Promise<ScriptOutcome> {
    const outcome: ScriptOutcome = { scenarioChanges: [], logs: [] };
    // On Node 20 an isolate in a process started with Node's own snapshot can crash the process
    // (isolated-vm's README); the runner starts hosts of script mocks without it.
    if (!process.execArgv.includes('--no-node-snapshot')) {
      return { ...outcome, error: { code: 'mock-script-failed', reason: 'This mock host was started without --no-node-snapshot, which dispatch scripts need; stop and start the mock.' } };
    }
    const isolate = this.currentIsolate();
    const script = await this.compile(isolate, source);
    if (typeof script === 'string') return { ...outcome, error: { code: 'mock-script-failed', reason: script } };

    let context: ivm.Context | null = null;
    const started = performance.now();
    try {
      context = await isolate.createContext();
      await context.global.set('__input', new ivm.ExternalCopy(input).copyInto());
      await this.prelude!.run(context, { timeout: this.timeoutMs });
      try {
        await script.run(context, { timeout: this.timeoutMs });
      } catch (err) {
        const elapsed = performance.now() - started;
        // isolated-vm gives no error code; a run that lasted the whole budget is the timeout.
        const timedOut = elapsed >= this.timeoutMs * 0.95 || /timed out/i.test(messageOf(err));
        outcome.error = timedOut
          ? { code: 'mock-script-timeout', reason: `The dispatch script ran past ${this.timeoutMs} ms and was stopped.` }
          : { code: 'mock-script-failed', reason: this.describeFailure(isolate, err) };
        if (isolate.isDisposed) return outcome;
      }
      // What the script did before it failed (its log lines) is still worth showing.
      const result = JSON.parse((await context.eval('__parleyResult()', { timeout: 200 })) as string) as {
        picked?: string;
        changes: Array<[string, string]>;
        logs: string[];
      };
      outcome.logs = result.logs;
      if (!outcome.error) {
        // Strings only, whatever the script did to the globals the prelude uses.
        outcome.scenarioChanges = result.changes.filter((c): c is [string, string] => Array.isArray(c) && typeof c[0] === 'string' && typeof c[1] === 'string');
        if (result.picked !== undefined) outcome.picked = result.picked;
      }
      return outcome;
    } catch (err) {
      return { ...outcome, error: outcome.error ?? { code: 'mock-script-failed', reason: this.describeFailure(isolate, err) } };
    } finally {
      if (context && !isolate.isDisposed) context.release();
    }
  }

  dispose(): void {
    if (this.isolate && !this.isolate.isDisposed) this.isolate.dispose();
    this.isolate = null;
    this.compiled.clear();
  }

  private describeFailure(isolate: ivm.Isolate, err: unknown): string {
    if (isolate.isDisposed) return `The dispatch script used more than ${this.memoryLimitMb} MB and was stopped.`;
    // What a script throws can quote the request whole: the log keeps a prefix (protocol/mock-log-bounds.ts).
    return `The dispatch script threw: ${boundText(messageOf(err))}`;
  }

  /** The isolate, made again after one was disposed (a script over the memory limit kills it). */
  private currentIsolate(): ivm.Isolate {
    if (!this.isolate || this.isolate.isDisposed) {
      this.isolate = new ivm.Isolate({ memoryLimit: this.memoryLimitMb });
      this.prelude = this.isolate.compileScriptSync(PRELUDE);
      this.compiled.clear();
    }
    return this.isolate;
  }

  /** The compiled script, or the reason it does not compile; cached by source per isolate. */
  private compile(isolate: ivm.Isolate, source: string): Promise<ivm.Script | string> {
    let pending = this.compiled.get(source);
    if (!pending) {
      pending = stripTypes(source).then(async (js) => {
        if (typeof js !== 'string') return js.reason;
        try {
          return await isolate.compileScript(js, { filename: 'dispatch.ts' });
        } catch (err) {
          return `The dispatch script does not compile: ${boundText(messageOf(err))}`;
        }
      });
      if (this.compiled.size > 200) this.compiled.clear();
      this.compiled.set(source, pending);
    }
    return pending;
  }
}

async function stripTypes(source: string): Promise<string | { reason: string }> {
  try {
    // esbuild is loaded with the first script: most mocks have none.
    const { transform } = await import('esbuild');
    return (await transform(source, { loader: 'ts', target: 'es2022', sourcefile: 'dispatch.ts' })).code;
  } catch (err) {
    const first = (err as { errors?: Array<{ text: string; location?: { line: number; column: number } }> }).errors?.[0];
    const where = first?.location ? ` (line ${first.location.line}, column ${first.location.column + 1})` : '';
    return { reason: `The dispatch script does not compile: ${boundText(first?.text ?? messageOf(err))}${where}` };
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
