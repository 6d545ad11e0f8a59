/**
 * `parley run`: runs a project's requests headless, for CI, through the app's own send path
 * (the supervisor, its sender and checker processes), and reports each request's status, time,
 * size, assertions and contract verdict. Exit 0 all passed, 1 any failure, 2 bad usage or a
 * project that does not load; 130/143 interrupted by Ctrl+C/SIGTERM.
 */
import { isHttp } from '../../protocol/kinds/index.js';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { isWireError } from '../../protocol/errors.js';
import { needsWorker } from '../../processes/checker/engine/assertions.js';
import { readsBody } from '../../processes/checker/engine/captures.js';
import { CliSession } from '../import/session.js';
import type { ProgressStream } from '../import/progress.js';
import { openDataFile, type DataSource } from '../../processes/supervisor/run/data-file.js';
import { envSecrets } from '../run/env-secrets.js';
import { selectRequests } from '../run/select.js';
import { runRequests, type RunPlan } from '../../processes/supervisor/run/runner.js';
import { ConsoleReporter } from '../run/console-reporter.js';
import { JsonReporter, JunitReporter } from '../../processes/supervisor/run/file-reporters.js';
import { report, type RunReporter } from '../../processes/supervisor/run/report.js';

export const RUN_HELP = `parley run: run a project's requests headless, for CI

Usage:
  parley run <project-folder> [--api <name>] [--folder <path>] [--request <name or path>]...
             [--env <name>] [--iterations <n>] [--data <file.csv|file.json>] [--timeout <ms>]
             [--delay <ms>] [--bail] [--insecure] [--fail-on-contract]
             [--reporter console|json|junit[:<file>]]... [--out <file>]

  Sends the project's requests one after another in the project's order (the sidebar's: APIs by
  name, a folder's subfolders before its requests, each by name) and reports each one's status,
  time, size, assertions, captures and contract verdict.

Selecting:
  --api <name>            only the requests of this API (its name, or its id)
  --folder <path>         only the requests under this folder (folder names joined by /)
  --request <name|path>   only this request: its name, or folder/name or API/folder/name
                          (repeat it for several; they still run in the project's order)

Running:
  --env <name>            the workspace environment for \${name} (default: the active one)
  --iterations <n>        run the selection n times (default 1, or one per data row)
  --data <file>           one iteration per row of a CSV file (a header line names the columns)
                          or a JSON array of objects; each row's columns are properties for its
                          iteration, over the project's; with --iterations, rows are taken in turn.
                          Read as the run goes (a FIFO works); a row that does not read stops the
                          run there, after the rows before it (exit 2)
  --timeout <ms>          wait at most this long for each response's headers (default: each
                          request's own timeout setting)
  --delay <ms>            wait this long between requests
  --bail                  stop at the first failed request
  --insecure              accept any TLS certificate (self-signed, expired, another host's):
                          for test servers only, never against a server you do not control
  --fail-on-contract      a response with contract problems or an unexpected status fails

Reporting:
  --reporter <name>[:<file>]
                          console (default), json (the whole report as JSON) or junit (JUnit
                          XML: a testcase per request, failures with their messages). Repeat it
                          for several: --reporter junit:results.xml --reporter json:run.json.
                          A json or junit reporter without a file writes to --out <file>, or to
                          standard output when there is no --out; the console report is shown
                          unless another reporter writes to standard output. Reports are written
                          as the run goes: memory stays flat however many requests.
  --verbose               show what Parley's processes log
  --help                  this text

Secrets:
  \${secret:<name>} reads the environment variable PARLEY_SECRET_<NAME> first: the name upper-
  cased, each run of characters other than A-Z and 0-9 made one _ (\${secret:staging-eu/apiToken}
  reads PARLEY_SECRET_STAGING_EU_APITOKEN); otherwise the workspace's secret store, as the app
  does: the system keychain, or the vault (docs/secrets.md), which PARLEY_VAULT_PASSPHRASE unlocks.
  A secret found nowhere is reported with the PARLEY_SECRET_<NAME> variable that would supply it.
  Secret values and credentials never appear in the console output or the reports.

Captures: a value a request captures from its response (a token from Login's body) is \${name}
  for the requests after it, for the rest of the run; nothing is written to the workspace, and
  a credential's value is never shown (docs/captures.md).

Cookies: each request sends the workspace jar's cookies when its Send cookies setting is on;
  every response's cookies go into the jar, as in the app. Sends are not kept in History.

Exit codes: 0 every request passed; 1 a request failed (not sent, no response, a failed
            assertion or capture, or contract problems with --fail-on-contract); 2 bad usage, a project that
            does not load (or has files that do not load), an unknown environment, an unreadable
            data file or data row; 130/143 interrupted by Ctrl+C/SIGTERM.
`;

export interface RunIo {
  stdout: Writable;
  stderr: Writable & ProgressStream;
  env: NodeJS.ProcessEnv;
}

const processIo = (): RunIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

interface Options {
  api?: string;
  folder?: string;
  request?: string[];
  env?: string;
  iterations?: string;
  data?: string;
  timeout?: string;
  delay?: string;
  bail: boolean;
  insecure: boolean;
  'fail-on-contract': boolean;
  reporter?: string[];
  out?: string;
  verbose: boolean;
  help: boolean;
}

interface ReporterChoice {
  kind: 'console' | 'json' | 'junit';
  /** Where a json or junit report goes; undefined: standard output. */
  file?: string;
}

const USAGE = 'parley run <project-folder> [--api <name>] [--folder <path>] [--request <name>] [--env <name>] [--reporter console|json|junit[:<file>]]';

export async function runRun(args: string[], io: RunIo = processIo()): Promise<number> {
  let options: Options;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        api: { type: 'string' },
        folder: { type: 'string' },
        request: { type: 'string', multiple: true },
        env: { type: 'string' },
        iterations: { type: 'string' },
        data: { type: 'string' },
        timeout: { type: 'string' },
        delay: { type: 'string' },
        bail: { type: 'boolean', default: false },
        insecure: { type: 'boolean', default: false },
        'fail-on-contract': { type: 'boolean', default: false },
        reporter: { type: 'string', multiple: true },
        out: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    options = parsed.values as Options;
    positionals = parsed.positionals;
  } catch (err) {
    return usageError(io, (err as Error).message);
  }
  if (options.help) {
    io.stdout.write(RUN_HELP);
    return 0;
  }
  const numbers = readNumbers(options);
  if (typeof numbers === 'string') return usageError(io, numbers);
  if (positionals.length !== 1) return usageError(io, 'give one project folder.');
  const reporters = readReporters(options);
  if (typeof reporters === 'string') return usageError(io, reporters);

  let data: DataSource | undefined;
  if (options.data !== undefined) {
    try {
      // Only checked here: its rows are read as the run reaches them.
      data = await openDataFile(options.data);
    } catch (err) {
      return failed(io, err);
    }
  }

  const session = new CliSession();
  try {
    const sup = await session.supervisor(options.verbose ? (line) => void io.stderr.write(`${line}\n`) : undefined);
    // The sender starts while the project loads; the checker only when a request needs it
    // (an API with an imported definition, or assertions that read the body): each process
    // start is a large part of a short run.
    const senderStarted = sup.sender.start();
    senderStarted.catch(() => undefined);
    const store = await sup.openProject(resolve(positionals[0]!), { remember: false });
    const tree = store.tree();
    if (tree.problems.length > 0) {
      io.stderr.write(`parley run: ${store.root} has files that do not load:\n${tree.problems.map((p) => `  ${p.message}${p.line ? ` (line ${p.line})` : ''}`).join('\n')}\n`);
      return 2;
    }
    const requests = selectRequests(tree, { ...(options.api !== undefined ? { api: options.api } : {}), ...(options.folder !== undefined ? { folder: options.folder } : {}), ...(options.request ? { requests: options.request } : {}) });
    if (requests.length === 0) return failed(io, new Error(`${store.root} has no requests to run.`));
    const ws = sup.workspace.get();
    let environment: RunPlan['environment'];
    if (options.env !== undefined) {
      const wanted = options.env.toLowerCase();
      const found = ws.environments.find((e) => e.name === options.env) ?? ws.environments.find((e) => e.name.toLowerCase() === wanted);
      if (!found) return failed(io, new Error(`the workspace has no environment named ${options.env}. Its environments: ${ws.environments.map((e) => e.name).join(', ') || 'none'}.`));
      environment = { name: found.name, variables: found.variables };
    } else {
      const active = ws.environments.find((e) => e.id === ws.activeEnvironment);
      if (active) environment = { name: active.name, variables: active.variables };
    }
    const plan: RunPlan = {
      requests,
      ...(environment ? { environment } : {}),
      ...(numbers.iterations !== undefined || !data ? { iterations: numbers.iterations ?? 1 } : {}),
      ...(data ? { data } : {}),
      ...(numbers.timeout !== undefined ? { timeoutMs: numbers.timeout } : {}),
      delayMs: numbers.delay ?? 0,
      bail: options.bail,
      insecure: options.insecure,
      failOnContract: options['fail-on-contract'],
      secret: envSecrets(io.env),
    };
    const needsChecker = requests.some((r) => {
      const request = store.getRequest(r.id);
      const captures = isHttp(request) ? (request.captures ?? []) : [];
      return store.getApi(r.apiId).definition !== undefined || needsWorker(request.assertions ?? []) || captures.some((c) => c.enabled && readsBody(c));
    });
    const listeners = reportersFor(reporters, io);
    await Promise.all([senderStarted, needsChecker ? sup.checker.start() : undefined, ...listeners.map((l) => l.open?.())]);
    const summary = await report(runRequests(sup, store, plan, session.signal), listeners);
    for (const r of reporters) if (r.kind !== 'console' && r.file !== undefined) io.stderr.write(`parley run: ${r.kind} report written to ${r.file}\n`);
    if (summary.error) {
      io.stderr.write(`parley run: ${summary.error.message}\n`);
      return session.exitCode(2);
    }
    return session.exitCode(summary.failed > 0 ? 1 : 0);
  } catch (err) {
    if (session.wasInterrupted(err)) return session.cancelled('run', io.stderr);
    return failed(io, err);
  } finally {
    await session.close();
  }
}

function readNumbers(options: Options): { iterations?: number; timeout?: number; delay?: number } | string {
  const out: { iterations?: number; timeout?: number; delay?: number } = {};
  const whole = (flag: string, text: string | undefined, min: number, max: number): number | string | undefined => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (text.trim() === '' || !Number.isInteger(n) || n < min || n > max) return `--${flag} must be a whole number from ${min} to ${max}.`;
    return n;
  };
  for (const [flag, key, min, max] of [
    ['iterations', 'iterations', 1, 1_000_000],
    ['timeout', 'timeout', 0, 3_600_000],
    ['delay', 'delay', 0, 3_600_000],
  ] as const) {
    const value = whole(flag, options[key], min, max);
    if (typeof value === 'string') return value;
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function readReporters(options: Pick<Options, 'reporter' | 'out'>): ReporterChoice[] | string {
  const given = options.reporter ?? [];
  const choices: ReporterChoice[] = [];
  for (const text of given) {
    for (const part of text.split(',')) {
      const colon = part.indexOf(':');
      const kind = colon < 0 ? part : part.slice(0, colon);
      const file = colon < 0 ? undefined : part.slice(colon + 1);
      if (kind !== 'console' && kind !== 'json' && kind !== 'junit') return `--reporter ${kind}: choose console, json or junit.`;
      if (kind === 'console' && file !== undefined) return '--reporter console writes to the terminal; it takes no file.';
      if (file === '') return `--reporter ${kind}: give a file after the colon.`;
      choices.push({ kind, ...(file !== undefined ? { file } : {}) });
    }
  }
  const unfiled = choices.filter((c) => c.kind !== 'console' && c.file === undefined);
  if (options.out !== undefined) {
    if (unfiled.length !== 1) return unfiled.length === 0 ? '--out goes with one --reporter json or junit that names no file of its own.' : '--out names one file, and several reporters have none: use --reporter <name>:<file> for each.';
    unfiled[0]!.file = options.out;
  } else if (unfiled.length > 1) return 'only one reporter can write to standard output: give the others a file (--reporter junit:results.xml).';
  const toStdout = choices.some((c) => c.kind !== 'console' && c.file === undefined);
  if (toStdout && choices.some((c) => c.kind === 'console')) return 'the console report and a json or junit report cannot both write to standard output: give it a file.';
  if (!toStdout && !choices.some((c) => c.kind === 'console')) choices.unshift({ kind: 'console' });
  const files = choices.flatMap((c) => (c.file ? [resolve(c.file)] : []));
  if (new Set(files).size !== files.length) return 'two reporters write to the same file.';
  return choices;
}

function reportersFor(reporters: ReporterChoice[], io: RunIo): (RunReporter & { open?(): Promise<void> })[] {
  return reporters.map((r) => {
    if (r.kind === 'console') return new ConsoleReporter(io.stdout, io.stderr);
    const target = r.file === undefined ? { stream: io.stdout } : { file: r.file };
    return r.kind === 'json' ? new JsonReporter(target) : new JunitReporter(target);
  });
}

function usageError(io: RunIo, message: string): number {
  io.stderr.write(`parley run: ${message}\nUsage: ${USAGE}\nRun parley run --help for every option.\n`);
  return 2;
}

function failed(io: RunIo, err: unknown): number {
  io.stderr.write(`parley run: ${isWireError(err) ? err.message : (err as Error).message}\n`);
  return 2;
}
