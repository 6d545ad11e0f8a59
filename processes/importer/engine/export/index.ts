/** Every export format's converter (docs/export.md): pure code from an ExportScope to a file's text. */
import type { ExportFormat, ExportResult, ExportScope } from '../../../../protocol/export/scope.js';
import { exportOpenApi } from './openapi.js';
import { exportPostman } from './postman.js';

const CONVERTERS: Readonly<Record<ExportFormat, (scope: ExportScope) => ExportResult>> = {
  postman: exportPostman,
  openapi: exportOpenApi,
};

export function convertExport(scope: ExportScope, format: ExportFormat): ExportResult {
  return CONVERTERS[format](scope);
}
