/**
 * `parley mock serve`: runs one mock in a mock-host child until Ctrl+C, exactly as Start does, and
 * prints a line per request. The child is started first and boots while the project or document
 * is read (serve-target.ts, loaded only then): its start-up was most of the wait for the first answer.
 */
import { access, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { ParleyError } from '../../protocol/errors.js';
import { isSafeFileName } from '../../protocol/project/file-names.js';
import type { ContractCheckMode, Mock } from '../../protocol/model/mock.js';
import { MockRunner } from '../../processes/supervisor/mocks/mock-runner.js';
import { formatLogBatch } from './log-lines.js';
import type { ServeTarget } from './serve-target.js';

const CHECK_MODES: readonly ContractCheckMode[] = ['refuse', 'log', 'off'];
/** Operations listed when a document's mock starts; past it, a count. */
const OPERATIONS_LISTED = 50;

export async function serveMock(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { mock: { type: 'string' }, port: { type: 'string' }, check: { type: 'string' } },
  });
  const usage = 'Usage: parley mock serve <project-folder> --mock <name> [--port <n>] [--check refuse|log|off], or parley mock serve <openapi-file-or-url> [--port <n>] [--check refuse|log|off].';
  if (positionals.length !== 1) throw new ParleyError('bad-input', usage);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (values.port!.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)) throw new ParleyError('bad-input', `--port must be a port number, not ${values.port}.`);
  const check = values.check;
  if (check !== undefined && !(CHECK_MODES as readonly string[]).includes(check)) throw new ParleyError('bad-input', `--check must be refuse, log or off, not ${check}.`);
  const where = positionals[0]!;

  let died: (message: string) => void = () => {};
  const ended = new Promise<string>((resolveEnd) => (died = resolveEnd));
  const runner = new MockRunner({
    name: values.mock ?? basename(where),
    onLogged: (entries) => process.stdout.write(formatLogBatch(entries)),
    onDied: (message) => died(message),
  });
  // The mock host boots while the document or project is read: its start-up was most of the wait.
  // Script support costs the host about 100 ms of start-up: a document's mock (no --mock) never
  // has a dispatch.ts, and a project's mock is looked at for one. (A wrong guess is safe: start
  // moves a mock that turns out to need it to a host that has it.)
  runner.boot({ scripts: values.mock !== undefined && (await hasDispatchScript(where, values.mock)) });
  let target: ServeTarget;
  try {
    target = await (await import('./serve-target.js')).serveTarget(where, values.mock, port, check as ContractCheckMode | undefined, usage);
  } catch (err) {
    await runner.stop();
    throw err;
  }
  return runServer(runner, ended, target);
}

/** Whether a project's mock has an operation with a dispatch.ts, before its files are read. */
async function hasDispatchScript(project: string, mockName: string): Promise<boolean> {
  // A name that cannot be a folder name is refused when the mock is read.
  if (!isSafeFileName(mockName)) return false;
  const operations = join(project, 'mocks', mockName, 'operations');
  const names = await readdir(operations).catch(() => []);
  const found = await Promise.all(names.map((name) => access(join(operations, name, 'dispatch.ts')).then(() => true, () => false)));
  return found.includes(true);
}

async function runServer(runner: MockRunner, ended: Promise<string>, target: ServeTarget): Promise<number> {
  const { mock, documents, definitionKey } = target;
  // Ctrl+C while the host is still starting stops it too, rather than leaving it behind.
  const signalled = new Promise<null>((done) => {
    process.once('SIGINT', () => done(null));
    process.once('SIGTERM', () => done(null));
  });
  const starting = runner.start({ mock, documents, definitionKey, listenAllInterfaces: false });
  // Left behind when Ctrl+C comes first: its failure then is of no interest.
  starting.catch(() => {});
  let address;
  try {
    address = await Promise.race([starting, signalled]);
  } catch (err) {
    await runner.stop();
    throw err;
  }
  if (address === null) {
    await runner.stop();
    return 130;
  }
  // One write: a reader that acts on the URL line has the routes with it.
  const serving = `${target.label} is serving at ${address.url} (contract check: ${mock.contractCheck}). Ctrl+C stops it.\n`;
  process.stdout.write(serving + (target.listOperations ? routes(mock, address.url) : ''));
  for (const warning of [...target.warnings, ...address.warnings]) process.stderr.write(`warning: ${warning}\n`);

  const death = await Promise.race([signalled, ended]);
  if (death !== null) {
    process.stderr.write(`${death}\n`);
    return 1;
  }
  await runner.stop();
  process.stdout.write('Mock stopped.\n');
  return 0;
}

function routes(mock: Mock, url: string): string {
  const methodWidth = Math.max(...mock.operations.map((op) => op.method.length), 3);
  let out = '';
  for (const op of mock.operations.slice(0, OPERATIONS_LISTED)) {
    const first = op.responses[0];
    out += `  ${op.method.padEnd(methodWidth)} ${url}${op.path}  ${op.name}${first ? ` → ${first.status}` : ''}\n`;
  }
  if (mock.operations.length > OPERATIONS_LISTED) out += `  … and ${mock.operations.length - OPERATIONS_LISTED} more operations\n`;
  return out;
}
