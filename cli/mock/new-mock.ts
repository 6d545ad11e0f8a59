/**
 * `parley mock new`: New Mock from the command line, through the same headless session as
 * `parley run` and `parley import` (cli/import/session.ts): the app's own supervisor runs
 * `mocks.create` (the same checks; the sampling in an importer child; the files written through
 * the project store in one atomic commit, so they are exactly the app's), and its checker child
 * works out the stubs-against-the-contract findings the mock's tab would show.
 */
import { ParleyError } from '../../protocol/errors.js';
import { whyNotMockable, type Api } from '../../protocol/model/api.js';
import type { MockFinding, MockOperation } from '../../protocol/model/mock.js';
import { mockFolderOf, readMockFolder, responseFileBase } from '../../protocol/project/mock-files.js';
import type { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import type { Supervisor } from '../../processes/supervisor/supervisor.js';

export interface NewMockReport {
  /** The mock's name, which is its folder's. */
  mock: string;
  api: { id: string; name: string };
  /** Absolute path of mocks/<name>/. */
  folder: string;
  /** The files written, relative to the folder, sorted. */
  files: string[];
  port: number;
  path: string;
  contractCheck: string;
  operations: Array<{
    name: string;
    method: string;
    path: string;
    responses: Array<{ name: string; status: number; body: string; contentType?: string }>;
  }>;
  /** Stubs against the contract (a fresh mock rarely has any: a sample the schema does not allow). */
  findings: MockFinding[];
  warnings: string[];
}

/** New Mock of `apiName` in the project in `projectDir`, on a supervisor the caller's session started. */
export async function newMockInProject(sup: Supervisor, projectDir: string, apiName: string, mockName: string | undefined): Promise<NewMockReport> {
  // The checker boots while the project loads and the mock is sampled: the new mock's findings
  // come from it, and a call waits for its start (one that fails becomes the report's warning).
  sup.checker.start().catch(() => undefined);
  const store = await sup.openProject(projectDir, { remember: false });
  const api = findApi(store, apiName);
  const blocked = whyNotMockable(api);
  if (blocked) throw new ParleyError('no-definition', `The API ${api.name} cannot be mocked. ${blocked}`, { api: api.id });
  const name = mockName ?? responseFileBase(api.name);
  let view;
  try {
    view = await sup.mocks.create(store.root, api.id, name);
  } catch (err) {
    if (err instanceof ParleyError && err.code === 'conflict' && mockName === undefined) {
      throw new ParleyError('conflict', `${err.message} Give another name with --name.`);
    }
    throw err;
  }
  const mock = view.mock;
  if (!mock) throw new ParleyError('internal', `The new mock ${name} was written but does not load: ${view.problems[0]?.message ?? 'unknown problem'}.`);
  const folder = mockFolderOf(store.root, mock.name);
  const files = [...(await readMockFolder(folder)).keys()].sort();
  return {
    mock: mock.name,
    api: { id: api.id, name: api.name },
    folder,
    files,
    port: mock.port,
    path: mock.path,
    contractCheck: mock.contractCheck,
    operations: mock.operations.map(describeOperation),
    findings: view.findings,
    warnings: view.warnings,
  };
}

/** By name as shown (exact, then ignoring case), else by id. Unknown: the error lists the names. */
function findApi(store: ProjectStore, wanted: string): Api {
  const apis = store.listApis();
  const exact = apis.filter((a) => a.name === wanted);
  if (exact.length === 1) return exact[0]!;
  const loose = exact.length > 1 ? exact : apis.filter((a) => a.name.toLowerCase() === wanted.toLowerCase());
  if (loose.length === 1) return loose[0]!;
  const byId = apis.find((a) => a.id === wanted);
  if (byId) return byId;
  const listed = apis.map((a) => `${a.name} (id ${a.id})`).join(', ') || 'none';
  if (loose.length > 1) throw new ParleyError('bad-input', `More than one API is named ${wanted}; give its id with --api. APIs: ${listed}.`);
  throw new ParleyError('not-found', `${store.name} has no API named ${wanted}. APIs: ${listed}.`);
}

function describeOperation(op: MockOperation): NewMockReport['operations'][number] {
  return {
    name: op.name,
    method: op.method,
    path: op.path,
    responses: op.responses.map((r) => {
      const contentType = r.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
      return { name: r.name, status: r.status, body: r.body.kind, ...(contentType ? { contentType } : {}) };
    }),
  };
}

export function printNewMock(report: NewMockReport, projectArg: string, out: (text: string) => void): void {
  const check = report.contractCheck;
  let text = `Mock ${report.mock} made from the API ${report.api.name}: ${report.files.length} files written to ${report.folder}\n`;
  text += `  port ${report.port === 0 ? '0 (a free one at start)' : report.port}, path ${report.path}, contract check ${check}\n`;
  const width = Math.min(40, Math.max(...report.operations.map((o) => o.name.length), 4));
  const methodWidth = Math.max(...report.operations.map((o) => o.method.length), 3);
  text += `${report.operations.length} operation(s), each with its ${report.operations[0]?.responses[0]?.name ?? 'Default'} response:\n`;
  for (const op of report.operations) {
    const first = op.responses[0];
    const answer = first ? `${first.status}${first.contentType ? ` ${first.contentType}` : first.body === 'none' ? ' (no body)' : ''}` : 'no response';
    text += `  ${op.name.padEnd(width)}  ${op.method.padEnd(methodWidth)} ${op.path}  → ${answer}\n`;
  }
  for (const f of report.findings) text += `  ${f.severity}: ${f.operation}${f.response ? ` › ${f.response}` : ''}  ${f.rule}  ${f.message}\n`;
  for (const w of report.warnings) text += `  warning: ${w}\n`;
  text += `Serve it: parley mock serve ${quoteArg(projectArg)} --mock ${quoteArg(report.mock)}\n`;
  out(text);
}

function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
