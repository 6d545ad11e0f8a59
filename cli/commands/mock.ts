/**
 * `parley mock new`, `parley mock check` and `parley mock serve`: the app's mock engine without the
 * app. `new` is the app's New Mock on a project's imported API; `check` loads mocks and lists load
 * problems and stubs the contract does not allow (the same function the checker child runs);
 * `serve` runs one mock in a mock-host child, exactly as Start does: a project's mock, or a mock
 * made on the spot from an OpenAPI document (a file or a URL), with no project at all.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ParleyError } from '../../protocol/errors.js';
import type { Problem } from '../../protocol/model/common.js';
import type { ContractCheckMode, Mock, MockFinding } from '../../protocol/model/mock.js';
import { loadMockFolder, mockFolderOf } from '../../protocol/project/mock-files.js';
import type { OpenApiDocuments } from '../../processes/mock-host/engine/openapi-documents.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { mockDocuments } from '../../processes/supervisor/mocks/mock-documents.js';
import { MockRunner } from '../../processes/supervisor/mocks/mock-runner.js';
import { mockFindings } from '../../processes/checker/mock-findings.js';
import { isDocumentUrl, mockFromDocument } from '../mock/document-mock.js';
import { formatLogBatch } from '../mock/log-lines.js';
import { newMockInProject, printNewMock } from '../mock/new-mock.js';

export const MOCK_HELP = `parley mock new <project-folder> --api <name> [--name <mock>] [--json]
    New Mock from an imported API, as the app makes it: one operation per contract operation,
    each with a Default response (the contract's example, or a sample of its schema), written
    to mocks/<mock>/. --name defaults to the API's name. Exit 0 written; 2 unknown API (the
    names are listed), no cached definition, name taken, not a project.

parley mock check <project-folder> [--mock <name>] [--json]
    Load the project's mocks (or one) and list load problems and responses the contract
    does not allow. Exit 0 clean, 1 findings, 2 load problems, no cached definition or bad input.

parley mock serve <project-folder> --mock <name> [--port <n>] [--check refuse|log|off]
parley mock serve <openapi-file-or-url> [--port <n>] [--check refuse|log|off]
    Serve one mock on 127.0.0.1 until Ctrl+C, printing its URL and one line per request
    (time, method and path, status, operation and response, duration; contract problems below).
    Given an OpenAPI document (3.x or Swagger 2.0; YAML or JSON; a file or an http(s) URL;
    external $refs followed), it serves a mock made from it in memory, no project needed:
    every operation answers its Default response.
    --port <n>       serve on this port (0: any free one; default: the mock's own port, or 0
                     for a document)
    --check <mode>   contract check of requests: refuse (a request that breaks the contract
                     gets 400), log (answered, problems logged; a document's default), off
`;

export async function runMock(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'new') return newMock(rest);
  if (sub === 'check') return check(rest);
  if (sub === 'serve') return serve(rest);
  process.stdout.write(MOCK_HELP);
  return sub === '--help' || sub === '-h' ? 0 : 2;
}

// --- new -------------------------------------------------------------------------------------

async function newMock(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { api: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1 || !values.api) throw new ParleyError('bad-input', 'Usage: parley mock new <project-folder> --api <name> [--name <mock>] [--json].');
  const report = await newMockInProject(resolve(positionals[0]!), values.api, values.name);
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printNewMock(report, positionals[0]!, (text) => process.stdout.write(text));
  return 0;
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

// --- serve ---------------------------------------------------------------------------------

const CHECK_MODES: readonly ContractCheckMode[] = ['refuse', 'log', 'off'];
/** Operations listed when a document's mock starts; past it, a count. */
const OPERATIONS_LISTED = 50;

interface ServeTarget {
  mock: Mock;
  documents: OpenApiDocuments;
  /** The first line printed, before the URL: "Mock Pets" or "Mock of Museum API (museum.yaml)". */
  label: string;
  /** List the routes once serving (a document's mock has no files to look them up in). */
  listOperations: boolean;
  warnings: string[];
}

async function serve(args: string[]): Promise<number> {
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

  let target: ServeTarget;
  if (await isProjectFolder(where)) {
    if (!values.mock) throw new ParleyError('bad-input', `${where} is a folder: name the project's mock to serve with --mock <name>. ${usage}`);
    target = await projectTarget(resolve(where), values.mock, port, check as ContractCheckMode | undefined);
  } else {
    if (values.mock) throw new ParleyError('bad-input', `--mock names a mock of a project folder; ${where} is not a folder. ${usage}`);
    const made = await mockFromDocument(where, { contractCheck: (check as ContractCheckMode | undefined) ?? 'log', port: port ?? 0 });
    target = {
      mock: made.mock,
      documents: made.documents,
      label: `Mock of ${made.title ? `${made.title} (${made.source})` : made.source}`,
      listOperations: true,
      warnings: made.warnings.map((w) => `a referenced document was not read: ${w}`),
    };
  }
  return runServer(target);
}

/** A folder (or a path that is not a document's URL and does not exist as a file) is a project. */
async function isProjectFolder(where: string): Promise<boolean> {
  if (isDocumentUrl(where)) return false;
  const found = await stat(where).catch(() => null);
  if (!found) throw new ParleyError('not-found', `${where} does not exist: give a project folder, an OpenAPI file or an http(s) URL.`);
  return found.isDirectory();
}

async function projectTarget(root: string, name: string, port: number | undefined, check: ContractCheckMode | undefined): Promise<ServeTarget> {
  const store = await ProjectStore.open(root);
  try {
    const [found] = mockNames(store, name);
    const loaded = await loadMockFolder(mockFolderOf(store.root, found!));
    if (!loaded.mock) {
      for (const p of loaded.problems) process.stderr.write(`${p.file}${p.line ? `:${p.line}` : ''}  ${p.rule}  ${p.message}\n`);
      throw new ParleyError('mock-invalid', `The mock ${found} does not load; fix the files above.`);
    }
    const mock = { ...loaded.mock, ...(port === undefined ? {} : { port }), ...(check === undefined ? {} : { contractCheck: check }) };
    return { mock, documents: await documentsOf(store, mock), label: `Mock ${mock.name}`, listOperations: false, warnings: [] };
  } finally {
    await store.close();
  }
}

async function runServer(target: ServeTarget): Promise<number> {
  const { mock, documents } = target;
  let died: (message: string) => void = () => {};
  const ended = new Promise<string>((resolveEnd) => (died = resolveEnd));
  const runner = new MockRunner({ name: mock.name, onLogged: (entries) => process.stdout.write(formatLogBatch(entries)), onDied: (message) => died(message) });
  // Ctrl+C while the host is still starting stops it too, rather than leaving it behind.
  const signalled = new Promise<null>((done) => {
    process.once('SIGINT', () => done(null));
    process.once('SIGTERM', () => done(null));
  });
  const starting = runner.start({ mock, documents, listenAllInterfaces: false });
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
  process.stdout.write(`${target.label} is serving at ${address.url} (contract check: ${mock.contractCheck}). Ctrl+C stops it.\n`);
  if (target.listOperations) process.stdout.write(routes(mock, address.url));
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
