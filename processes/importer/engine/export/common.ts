/**
 * What every export format does alike (docs/export.md): walk the scope in Parley's order with
 * what each request inherits, join an API's base URL to a request's path as a send does, write
 * `${name}` as the `{{name}}` the other tools read, and keep credentials out: a secret's
 * reference (`${secret:name}`) becomes the variable `{{secret:name}}`, and a value typed into a
 * credential-named row becomes a reference to a variable of the row's name, never the value.
 */
import { isCredentialHeader, isCredentialName, isReferenceOnly } from '../../../../protocol/credentials/index.js';
import type { ExportFolder, ExportRequest, ExportScope } from '../../../../protocol/export/scope.js';
import { inheritedSettings, type FolderScope } from '../../../../protocol/inheritance.js';
import type { InheritedSettings } from '../../../../protocol/model/project.js';
import type { Row } from '../../../../protocol/model/common.js';
import { isHttp } from '../../../../protocol/kinds/index.js';
import type { Request } from '../../../../protocol/model/request.js';
import { joinUrlText, splitUrlText } from '../../../../protocol/request-url.js';

/** `${name}` (and `${secret:name}`) as `{{name}}`: the placeholders Postman, httpyac and Bruno read. */
export function doubleBraces(text: string): string {
  return text.includes('${') ? text.replace(/\$\{([^{}]+)\}/g, '{{$1}}') : text;
}

/** The URL a send puts on the wire, before expansion: a path joined to the API's base URL, as resolve.ts does; a full URL (or one starting with a variable) as typed. */
export function joinedUrl(baseUrl: string, url: string): string {
  const typed = url.trim();
  const base = baseUrl.trim();
  if (base === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) || typed.startsWith('${')) return typed;
  const parts = splitUrlText(typed);
  return joinUrlText({ ...parts, base: `${base.replace(/\/+$/, '')}/${parts.base.replace(/^\/+/, '')}` });
}

/**
 * Collects what an export changed or left out, one line each, and says what stands for each
 * credential typed into a row (the value itself is never written).
 */
export class ExportNotes {
  readonly lines: string[] = [];
  private readonly seen = new Set<string>();

  add(line: string): void {
    if (this.seen.has(line) || this.lines.length >= 200) return;
    this.seen.add(line);
    this.lines.push(line);
  }

  /**
   * A row's value as exported: a typed credential (by the row's name, SPEC's credential rule)
   * becomes `${<name>}`, so the file names the variable to supply and never holds the value.
   */
  rowValue(row: Row, kind: 'header' | 'query' | 'form' | 'variable', where: string): string {
    const credential = kind === 'header' ? isCredentialHeader(row.name) : isCredentialName(row.name);
    if (!credential || row.value === '' || isReferenceOnly(row.value)) return row.value;
    const name = row.name.trim().replace(/[{}$\s]+/g, '_') || 'credential';
    if (kind === 'variable') {
      this.add(`The variable ${row.name} of ${where} holds a credential: exported empty, not its value.`);
      return '';
    }
    this.add(`The ${kind} ${row.name} of ${where} holds a credential: exported as {{${name}}}, not its value.`);
    return `\${${name}}`;
  }
}

export interface RequestVisit {
  request: ExportRequest;
  /** What it inherits from the folders above it (and those above the exported folder) and its API. */
  inherited: InheritedSettings;
  /** Folder names from the exported root down ([] at the root). */
  folders: string[];
}

/** Every HTTP request under the root in order, with what it inherits; other kinds are noted and left out. */
export function httpRequests(scope: ExportScope, notes: ExportNotes): RequestVisit[] {
  const out: RequestVisit[] = [];
  const rootChain = rootFolderChain(scope);
  const walk = (folder: ExportFolder, chain: FolderScope[], folders: string[]) => {
    for (const item of folder.items) {
      if (item.kind === 'folder') walk(item, [...chain, folderScope(item, [...folders, item.name])], [...folders, item.name]);
      else if (!isHttp(item.request)) notes.add(`${item.request.name} is a ${item.request.kind} request, which this format does not hold: left out.`);
      else out.push({ request: item, inherited: inheritedSettings(scope.api, chain), folders });
    }
  };
  walk(scope.root, rootChain, []);
  return out;
}

/** The folders a folder export's root inherits through, the root included; none for an API. */
export function rootFolderChain(scope: ExportScope): FolderScope[] {
  return scope.of === 'api' ? [] : [...scope.above, folderScope(scope.root, [scope.root.name])];
}

export function folderScope(folder: ExportFolder, path: string[]): FolderScope {
  return { id: path.join('/'), name: folder.name, file: folder.settings };
}

export function httpOf(item: ExportRequest): Request {
  return item.request as Request;
}
