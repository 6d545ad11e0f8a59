/**
 * `parley mock check` and `parley mock serve`: the app's mock engine without the app. `check`
 * loads mocks and lists load problems and stubs the contract does not allow (the same function the
 * checker child runs); `serve` runs one mock in a mock-host child, exactly as Start does.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ParleyError } from '../../protocol/errors.js';
import type { Problem } from '../../protocol/model/common.js';
import type { Mock, MockFinding, MockLogEntry } from '../../protocol/model/mock.js';
import { loadMockFolder, mockFolderOf } from '../../protocol/project/mock-files.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { mockDocuments } from '../../processes/supervisor/mocks/mock-documents.js';
import { MockRunner } from '../../processes/supervisor/mocks/mock-runner.js';
import { mockFindings } from '../../processes/checker/mock-findings.js';

export const MOCK_HELP = `parley mock check <project-folder> [--mock <name>] [--json]
    Load the project's mocks (or one) and list load problems and responses the contract
    does not allow. Exit 0 clean, 1 findings, 2 load problems, no cached definition or bad input.

parley mock serve <project-folder> --mock <name> [--port <n>]
    Serve one mock on 127.0.0.1 until Ctrl+C, printing its URL and one line per request.
    --port <n>   serve on this port instead of the mock's own (0: any free port)
`;

export async function runMock(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'check') return check(rest);
  if (sub === 'serve') return serve(rest);
  process.stdout.write(MOCK_HELP);
  return sub === '--help' || sub === '-h' ? 0 : 2;
}

// --- check -----------------------------------------------------------------------------------

interface MockReport {
  name: string;
  /** Why the mock could not be checked at all: it does not load, or has no contract. */
  error?: string;
  problems: Problem[];
  findings: MockFinding[];
  warnings: string[];
}

async function check(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { mock: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new ParleyError('bad-input', 'Give one project folder: parley mock check <project-folder>.');
  const store = await ProjectStore.open(resolve(positionals[0]!));
  const reports: MockReport[] = [];
  try {
    const names = mockNames(store, values.mock);
    for (const name of names) reports.push(await checkOne(store, name));
  } finally {
    await store.close();
  }
  const code = reports.some((r) => r.error) ? 2 : reports.some((r) => r.findings.length > 0) ? 1 : 0;
  if (values.json) process.stdout.write(`${JSON.stringify({ exitCode: code, mocks: reports }, null, 2)}\n`);
  else printReports(reports);
  return code;
}

function mockNames(store: ProjectStore, only: string | undefined): string[] {
  const names = store
    .tree()
    .items.filter((i) => i.kind === 'mock')
    .map((i) => i.name);
  if (only === undefined) {
    if (names.length === 0) throw new ParleyError('not-found', `${store.root} has no mocks (no folders under mocks/).`);
    return names;
  }
  if (!names.includes(only)) throw new ParleyError('not-found', `${store.root} has no mock named ${only} (mocks: ${names.join(', ') || 'none'}).`);
  return [only];
}

async function checkOne(store: ProjectStore, name: string): Promise<MockReport> {
  const loaded = await loadMockFolder(mockFolderOf(store.root, name));
  const report: MockReport = { name, problems: loaded.problems, findings: [], warnings: [] };
  if (!loaded.mock) return { ...report, error: 'The mock does not load.' };
  try {
    const { findings, warnings } = await mockFindings(loaded.mock, await documentsOf(store, loaded.mock));
    return { ...report, findings, warnings };
  } catch (err) {
    return { ...report, error: err instanceof Error ? err.message : String(err) };
  }
}

async function documentsOf(store: ProjectStore, mock: Mock) {
  const api = store.listApis().find((a) => a.id === mock.api);
  if (!api) throw new ParleyError('not-found', `The API this mock answers for (${mock.api}) is not in the project.`);
  return mockDocuments(store.apiDir(api.id), api);
}

function printReports(reports: MockReport[]): void {
  for (const r of reports) {
    if (r.error) {
      process.stdout.write(`mocks/${r.name}: ${r.error}\n`);
      for (const p of r.problems) process.stdout.write(`  ${p.file}${p.line ? `:${p.line}` : ''}  ${p.rule}  ${p.message}\n`);
      continue;
    }
    if (r.findings.length === 0) {
      process.stdout.write(`mocks/${r.name}: clean\n`);
      continue;
    }
    const errors = r.findings.filter((f) => f.severity === 'error').length;
    process.stdout.write(`mocks/${r.name}: ${errors} error(s), ${r.findings.length - errors} warning(s)\n`);
    for (const f of r.findings) {
      const where = f.response ? `${f.operation} › ${f.response}` : f.operation;
      process.stdout.write(`  ${f.severity.padEnd(7)} ${where}  ${f.rule}${f.pointer ? ` ${f.pointer}` : ''}  ${f.message}\n`);
    }
  }
}

// --- serve -----------------------------------------------------------------------------------

/** Log lines printed per batch; past it, a count, so a load test does not flood the terminal. */
const LINES_PER_BATCH = 20;

async function serve(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { mock: { type: 'string' }, port: { type: 'string' } },
  });
  if (positionals.length !== 1 || !values.mock) throw new ParleyError('bad-input', 'Usage: parley mock serve <project-folder> --mock <name> [--port <n>].');
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new ParleyError('bad-input', `--port must be a port number, not ${values.port}.`);

  const store = await ProjectStore.open(resolve(positionals[0]!));
  let mock: Mock;
  let documents;
  try {
    const [name] = mockNames(store, values.mock);
    const loaded = await loadMockFolder(mockFolderOf(store.root, name!));
    if (!loaded.mock) {
      for (const p of loaded.problems) process.stderr.write(`${p.file}${p.line ? `:${p.line}` : ''}  ${p.rule}  ${p.message}\n`);
      throw new ParleyError('mock-invalid', `The mock ${name} does not load; fix the files above.`);
    }
    mock = port === undefined ? loaded.mock : { ...loaded.mock, port };
    documents = await documentsOf(store, mock);
  } finally {
    await store.close();
  }

  let died: (message: string) => void = () => {};
  const ended = new Promise<string>((resolveEnd) => (died = resolveEnd));
  const runner = new MockRunner({ name: mock.name, onLogged: printLog, onDied: (message) => died(message) });
  let address;
  try {
    address = await runner.start({ mock, documents, listenAllInterfaces: false });
  } catch (err) {
    await runner.stop();
    throw err;
  }
  process.stdout.write(`Mock ${mock.name} is serving at ${address.url} (contract check: ${mock.contractCheck}). Ctrl+C stops it.\n`);
  for (const warning of address.warnings) process.stderr.write(`warning: ${warning}\n`);

  const signalled = new Promise<null>((done) => {
    process.once('SIGINT', () => done(null));
    process.once('SIGTERM', () => done(null));
  });
  const death = await Promise.race([signalled, ended]);
  if (death !== null) {
    process.stderr.write(`${death}\n`);
    return 1;
  }
  await runner.stop();
  process.stdout.write('Mock stopped.\n');
  return 0;
}

function printLog(entries: MockLogEntry[]): void {
  const shown = entries.slice(0, LINES_PER_BATCH);
  let out = '';
  for (const e of shown) {
    const time = e.time.slice(11, 23);
    const answer = e.operation ? `${e.operation}${e.responseName ? ` › ${e.responseName}` : ''}` : '-';
    const problems = e.problems.length > 0 ? `  ${e.problems.length} contract problem(s)` : '';
    out += `${time}  ${e.method} ${e.path}  → ${e.status}  ${answer}  ${e.durationMs} ms${problems}\n`;
  }
  if (entries.length > shown.length) out += `… and ${entries.length - shown.length} more requests\n`;
  process.stdout.write(out);
}
