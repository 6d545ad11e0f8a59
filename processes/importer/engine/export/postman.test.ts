/**
 * The Postman export (docs/export.md): import(export(x)) gives x back, order included, for a
 * scope covering every field a collection holds (round-trip-fixture.ts); what it writes for what
 * Postman has no place for; credentials only as references.
 */
import { describe, expect, it } from 'vitest';
import type { ExportFolder, ExportScope } from '../../../../protocol/export/scope.js';
import type { ImportResult } from '../../../../protocol/model/import.js';
import { requestForFile, type Request } from '../../../../protocol/model/request.js';
import { compareSiblings } from '../../../../protocol/project/order-keys.js';
import { importSource } from '../test-support.js';
import { exportPostman } from './postman.js';
import { roundTripScope } from './round-trip-fixture.js';

/** Every item of the scope as `path kind`, depth first in Parley's order, and each request as its file has it (no id, no order key). */
export function scopeOutline(scope: ExportScope): { outline: string[]; requests: Map<string, Request>; folders: Map<string, ExportFolder['settings']> } {
  const outline: string[] = [];
  const requests = new Map<string, Request>();
  const folders = new Map<string, ExportFolder['settings']>();
  const walk = (folder: ExportFolder, path: string) => {
    for (const item of folder.items) {
      if (item.kind === 'folder') {
        const sub = path ? `${path}/${item.name}` : item.name;
        outline.push(`${sub}/`);
        folders.set(sub, item.settings);
        walk(item, sub);
      } else {
        const at = path ? `${path}/${item.request.name}` : item.request.name;
        outline.push(at);
        requests.set(at, comparable(item.request as Request));
      }
    }
  };
  walk(scope.root, '');
  return { outline, requests, folders };
}

/** The same of an import's one API, its items placed by their order keys as the sidebar places them. */
export function importOutline(result: ImportResult): { outline: string[]; requests: Map<string, Request>; folders: Map<string, { auth?: unknown; variables?: unknown }> } {
  const api = result.apis[0]!;
  type Node = { kind: 'folder' | 'request'; id: string; name: string; order?: string; path: string };
  const children = new Map<string, Node[]>();
  const add = (parent: string, node: Node) => children.set(parent, [...(children.get(parent) ?? []), node]);
  const folders = new Map<string, { auth?: unknown; variables?: unknown }>();
  for (const f of api.folders) {
    const slash = f.path.lastIndexOf('/');
    add(slash < 0 ? '' : f.path.slice(0, slash), { kind: 'folder', id: f.path, name: f.path.slice(slash + 1), order: f.order, path: f.path });
    folders.set(f.path, { ...(f.auth ? { auth: f.auth } : {}), ...(f.variables ? { variables: f.variables } : {}) });
  }
  const requests = new Map<string, Request>();
  for (const p of api.requests) {
    const at = p.folder ? `${p.folder}/${p.request.name}` : p.request.name;
    add(p.folder, { kind: 'request', id: p.request.id, name: p.request.name, ...(p.request.order ? { order: p.request.order } : {}), path: at });
    requests.set(at, comparable(p.request as Request));
  }
  const outline: string[] = [];
  const walk = (parent: string) => {
    for (const node of [...(children.get(parent) ?? [])].sort(compareSiblings)) {
      outline.push(node.kind === 'folder' ? `${node.path}/` : node.path);
      if (node.kind === 'folder') walk(node.path);
    }
  };
  walk('');
  return { outline, requests, folders };
}

function comparable(request: Request): Request {
  const { id: _id, order: _order, ...rest } = requestForFile(request);
  return rest as Request;
}

async function importText(text: string): Promise<ImportResult> {
  return (await importSource({ kind: 'paste', text })).result;
}

describe('Postman export', () => {
  it('round trip: importing the exported collection gives every request, folder and property back, in order', async () => {
    const scope = roundTripScope();
    const exported = exportPostman(scope);
    const result = await importText(exported.text);
    const before = scopeOutline(scope);
    const after = importOutline(result);
    expect(after.outline).toEqual(before.outline);
    for (const [path, request] of before.requests) expect(after.requests.get(path), path).toEqual(request);
    // Folder auth and variables come back on their folders; a folder without settings has none.
    expect(after.folders.get('Pets')).toEqual({ auth: before.folders.get('Pets')!.auth, variables: before.folders.get('Pets')!.variables });
    expect(after.folders.get('Pets/Admin')).toEqual({ auth: { type: 'none' } });
    expect(after.folders.get('Empty')).toEqual({});
    expect(result.apis[0]!.api.auth).toEqual(scope.api.auth);
    expect(result.properties).toEqual(scope.properties);
  });

  it('writes secrets as {{secret:name}} references and never a credential typed into a row', () => {
    const scope = roundTripScope();
    const first = scope.root.items[0]!;
    if (first.kind !== 'request' || first.request.kind === 'websocket' || first.request.kind === 'grpc') throw new Error('fixture changed');
    first.request.headers.push({ name: 'Authorization', value: 'Bearer typed-secret-value', enabled: true });
    scope.properties.push({ name: 'apiToken', value: 'typed-token-value', enabled: true });
    const { text, notes } = exportPostman(scope);
    expect(text).not.toContain('typed-secret-value');
    expect(text).not.toContain('typed-token-value');
    expect(text).toContain('"value": "{{secret:api/a_1/password}}"');
    expect(text).toContain('"value": "{{Authorization}}"');
    expect(notes).toContain('The header Authorization of Zeta first holds a credential: exported as {{Authorization}}, not its value.');
    expect(notes).toContain('The variable apiToken of the project holds a credential: exported empty, not its value.');
  });

  it('puts folder headers on the requests under them and joins an API base URL to a path, as a send does', () => {
    const scope = roundTripScope();
    scope.api.baseUrl = 'https://api.example.com/v1/';
    const pets = scope.root.items[1] as ExportFolder;
    pets.settings.headers = [{ name: 'X-Team', value: 'pets', enabled: true }, { name: 'X-Off', value: 'no', enabled: false }];
    const list = pets.items[0]!;
    if (list.kind !== 'request') throw new Error('fixture changed');
    list.request.url = '/pets/{id}';
    (list.request as Request).pathParams = [{ name: 'id', value: '7' }];
    const collection = JSON.parse(exportPostman(scope).text) as { item: { item?: { request?: { header: unknown[]; url: { raw: string; variable: unknown[] } } }[] }[] };
    const request = collection.item[1]!.item![0]!.request!;
    expect(request.header).toEqual([{ key: 'X-Team', value: 'pets' }]);
    expect(request.url.raw).toBe('https://api.example.com/v1/pets/:id');
    expect(request.url.variable).toEqual([{ key: 'id', value: '7' }]);
  });
});
