/**
 * The import formats SPEC lists ("Import operations"), in the dialog's order, with what each
 * takes and where it lands. `built` says whether this build has its importer: the dialog's
 * Format list and `parley import --format` name only built ones, and the importer registry
 * holds exactly these (a test keeps the two in step). The page reads this list; it cannot
 * reach the importer engine.
 */

/** `server`: a running gRPC server, by reflection (the dialog's fourth tab, Protocol Buffers only). */
export type ImportSourceKind = 'url' | 'file' | 'paste' | 'server';

export interface ImportFormatInfo {
  /** The importer id: `--format <id>`, `ImportJob.format`. */
  id: string;
  /** The Format list's label. */
  label: string;
  /** The dialog's source tabs this format takes. */
  sources: readonly ImportSourceKind[];
  /** A project (APIs, requests) or the workspace (environments, globals: no project is asked for). */
  lands: 'project' | 'workspace';
  built: boolean;
}

export const IMPORT_FORMATS: readonly ImportFormatInfo[] = [
  { id: 'openapi', label: 'OpenAPI (with its predecessor Swagger)', sources: ['url', 'file', 'paste'], lands: 'project', built: true },
  { id: 'postman-collection', label: 'Postman collection (v2.0, v2.1)', sources: ['file', 'paste'], lands: 'project', built: true },
  { id: 'postman-folder', label: 'Postman collection folder (v3)', sources: ['file'], lands: 'project', built: false },
  { id: 'postman-environment', label: 'Postman environment export', sources: ['file', 'paste'], lands: 'workspace', built: true },
  { id: 'postman-globals', label: 'Postman globals export', sources: ['file', 'paste'], lands: 'workspace', built: true },
  { id: 'har', label: 'HAR (recorded traffic)', sources: ['file', 'paste'], lands: 'project', built: true },
  { id: 'http', label: '.http file', sources: ['file', 'paste'], lands: 'project', built: true },
  { id: 'http-env', label: 'HTTP client environment file', sources: ['file', 'paste'], lands: 'workspace', built: true },
  { id: 'opencollection', label: 'OpenCollection', sources: ['file', 'paste'], lands: 'project', built: false },
  { id: 'wsdl', label: 'WSDL (SOAP)', sources: ['url', 'file', 'paste'], lands: 'project', built: true },
  { id: 'protobuf', label: 'Protocol Buffers (gRPC)', sources: ['url', 'file', 'paste', 'server'], lands: 'project', built: true },
  { id: 'soapui', label: 'Legacy SOAP project', sources: ['file'], lands: 'project', built: true },
];

/** The formats this build imports, in the dialog's order. */
export function builtFormats(): ImportFormatInfo[] {
  return IMPORT_FORMATS.filter((f) => f.built);
}

/** The format of this id when this build imports it. */
export function builtFormat(id: string): ImportFormatInfo | undefined {
  return IMPORT_FORMATS.find((f) => f.built && f.id === id);
}
