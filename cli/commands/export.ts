/**
 * `parley export`: an API, or a folder of it, as a file another tool reads (docs/export.md),
 * with the same reader and converters as the app's Export… dialog. Exit 0 written; 2 bad usage,
 * a project that does not load, an unknown API or folder, a file that cannot be written.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ParleyError } from '../../protocol/errors.js';
import { EXPORT_FORMATS, isExportFormat } from '../../protocol/export/scope.js';
import { apiNamed, folderAt } from '../../processes/supervisor/export/read-scope.js';
import { exportToFile } from '../../processes/supervisor/export/export-file.js';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';

export const EXPORT_HELP = `parley export: an API or a folder as a file other tools read

Usage:
  parley export <project-folder> [--api <name>] [--folder <path>] --format ${EXPORT_FORMATS.join('|')} --out <file> [--json]

  --api <name>      the API to export (its name, or its id); may be left out when the project has one API
  --folder <path>   only this folder of the API (folder names joined by /)
  --format <name>   postman: a Postman collection v2.1 (newman runs it)
                    openapi: an OpenAPI 3.1 document of an API without a definition (paths from
                    the requests, schemas inferred from saved examples and JSON bodies)
  --out <file>      the file to write (replaced when it exists)
  --json            print what was written as JSON: { file, requests, notes }

Credentials are exported only as references: a secret \${secret:name} as the variable
{{secret:name}}, a credential typed into a header, query or form row as {{<row name>}}.
What the format cannot hold is listed after the export (docs/export.md).
Exit 0 written; 2 bad usage, a project that does not load, an unknown API or folder, or a file
that cannot be written.
`;

export async function runExport(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { api: { type: 'string' }, folder: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  } catch (err) {
    process.stderr.write(`parley export: ${(err as Error).message}\n${EXPORT_HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(EXPORT_HELP);
    return 0;
  }
  if (positionals.length !== 1 || !values.format || !values.out) {
    process.stderr.write(`parley export: give one project folder, --format and --out.\n${EXPORT_HELP}`);
    return 2;
  }
  if (!isExportFormat(values.format)) throw new ParleyError('bad-input', `there is no export format "${values.format}"; the formats: ${EXPORT_FORMATS.join(', ')}.`);
  const store = await ProjectStore.open(resolve(positionals[0]!));
  try {
    const problems = store.tree().problems;
    if (problems.length > 0) {
      for (const p of problems) process.stderr.write(`${p.file}${p.line ? `:${p.line}` : ''}  ${p.rule}  ${p.message}\n`);
      throw new ParleyError('load-failed', 'the project has files that do not load (above): fix them first, so the export leaves nothing out.');
    }
    let apiId: string;
    if (values.api !== undefined) apiId = apiNamed(store, values.api);
    else {
      const apis = store.listApis();
      if (apis.length !== 1) throw new ParleyError('bad-input', `the project has ${apis.length} APIs: choose one with --api (${apis.map((a) => a.name).join(', ') || 'none'}).`);
      apiId = apis[0]!.id;
    }
    const target = values.folder !== undefined ? { kind: 'folder' as const, id: folderAt(store, apiId, values.folder) } : { kind: 'api' as const, id: apiId };
    const done = await exportToFile(store, target, values.format, resolve(values.out), { replace: true });
    if (values.json) process.stdout.write(`${JSON.stringify(done)}\n`);
    else {
      process.stdout.write(`Exported ${done.requests} request${done.requests === 1 ? '' : 's'} to ${done.file}\n`);
      for (const note of done.notes) process.stdout.write(`  note: ${note}\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}
