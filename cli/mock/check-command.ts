/**
 * `parley mock check`: loads a project's mocks and lists load problems and the responses the
 * contract does not allow (the same function the checker child runs).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ParleyError } from '../../protocol/errors.js';
import type { Problem } from '../../protocol/model/common.js';
import type { MockFinding } from '../../protocol/model/mock.js';
import { loadMockFolder, mockFolderOf } from '../../protocol/project/mock-files.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';
import { mockFindings } from '../../processes/mock-host/engine/mock-findings.js';
import { documentsOf, mockNames } from './project-mocks.js';

interface MockReport {
  name: string;
  /** Why the mock could not be checked at all: it does not load, or has no contract. */
  error?: string;
  problems: Problem[];
  findings: MockFinding[];
  warnings: string[];
}

export async function checkMocks(args: string[]): Promise<number> {
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

async function checkOne(store: ProjectStore, name: string): Promise<MockReport> {
  const loaded = await loadMockFolder(mockFolderOf(store.root, name));
  const report: MockReport = { name, problems: loaded.problems, findings: [], warnings: [] };
  if (!loaded.mock) return { ...report, error: 'The mock does not load.' };
  try {
    const { documents, definitionKey } = await documentsOf(store, loaded.mock);
    const { findings, warnings } = await mockFindings(loaded.mock, documents, definitionKey);
    return { ...report, findings, warnings };
  } catch (err) {
    return { ...report, error: err instanceof Error ? err.message : String(err) };
  }
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
