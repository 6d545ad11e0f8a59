/**
 * Every importer keeps its source's order (issue 28; docs/importers.md "Order"): each folder and
 * request gets the key of its place in its parent (`SourceOrder`), so the tree shows and `parley
 * run` runs them as the source lists them. Each fixture's source order differs from name order,
 * so a test that passed on names alone could not pass here.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportedApi } from '../../../protocol/model/import.js';
import { compareSiblings, type Orderable } from '../../../protocol/project/order-keys.js';
import { importSource } from './test-support.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures');

/** The API's items under `folder` ('' its top) as the tree orders them: folders as `[name]`. */
function childrenOf(api: ImportedApi, folder: string): string[] {
  const items: Orderable[] = [];
  for (const f of api.folders) {
    const slash = f.path.lastIndexOf('/');
    if ((slash < 0 ? '' : f.path.slice(0, slash)) === folder) items.push({ kind: 'folder', id: f.path, name: `[${f.path.slice(slash + 1)}]`, order: f.order });
  }
  for (const p of api.requests) if (p.folder === folder) items.push({ kind: 'request', id: p.request.id, name: p.request.name, ...(p.request.order !== undefined ? { order: p.request.order } : {}) });
  return items.sort(compareSiblings).map((i) => i.name);
}

/** The same items in name order: what the tree showed before keys. */
function byName(names: string[]): string[] {
  const folders = names.filter((n) => n.startsWith('[')).sort();
  const requests = names.filter((n) => !n.startsWith('[')).sort((a, b) => a.localeCompare(b));
  return [...folders, ...requests];
}

async function imported(path: string): Promise<ImportedApi[]> {
  const { result } = await importSource({ kind: 'file', path: join(FIXTURES, path) });
  for (const api of result.apis) {
    for (const p of api.requests) expect(p.request.order, `${p.request.name} has a key`).toMatch(/^a[0-9A-Za-z]/);
  }
  return result.apis;
}

describe('imports keep the source order', () => {
  it('Postman: folders and requests interleaved as in the collection', async () => {
    const [api] = await imported('importers/postman/bruno/postman-with-max-redirects.json');
    const top = childrenOf(api!, '');
    expect(top).toEqual(['Ordinary Limit', 'Large Limit', 'Exponent Limit', 'Fifty Limit', 'No Redirects', 'Unset Limit', 'Null Limit', 'Negative Limit', 'Quoted Limit', 'Fractional Limit', 'Boolean Limit', '[Reporting]']);
    expect(top).not.toEqual(byName(top));
    expect(childrenOf(api!, 'Reporting')).toEqual(['Nested Large Limit']);
  });

  it('HAR: requests in the order they were recorded', async () => {
    const [api] = await imported('importers/har/harviewer-multiple-pages.har');
    const top = childrenOf(api!, '');
    expect(top).toEqual(['GET /firebug/tests/content/net/601/issue601.html', 'POST /firebug/tests/content/net/601/issue601.php', 'GET /firebug/tests/content/html/breakpoints/breakOnElement.html']);
    expect(top).not.toEqual(byName(top));
  });

  it('OpenAPI: paths in document order, then methods as written; each tag folder where its first operation is', async () => {
    const [api] = await imported('importers/openapi/redocly-museum/openapi.yaml');
    expect(childrenOf(api!, '')).toEqual(['[Operations]', '[Events]', '[Tickets]']);
    const events = childrenOf(api!, 'Events');
    expect(events).toEqual(['Create special events', 'List special events', 'Get special event', 'Update special event', 'Delete special event']);
    expect(events).not.toEqual(byName(events));
  });

  it('WSDL: operations in document order', async () => {
    const [api] = await imported('wsdl/parley/update/calc-v1.wsdl');
    const top = childrenOf(api!, '');
    expect(top).toEqual(['Add', 'Subtract', 'Divide', 'Negate']);
    expect(top).not.toEqual(byName(top));
  });

  it('SoapUI: operations and their requests in the project file\'s order', async () => {
    const [api] = await imported('soapui/soapui-installer/Tutorials/Sample-SOAP-Project-soapui-project.xml');
    const top = childrenOf(api!, '');
    expect(top).toEqual(['[login]', '[logout]', '[search]', '[buy]']);
    expect(top).not.toEqual(byName(top));
  });

  it('the same source gives the same keys every time', async () => {
    const once = await imported('importers/openapi/redocly-museum/openapi.yaml');
    const twice = await imported('importers/openapi/redocly-museum/openapi.yaml');
    expect(twice[0]!.folders).toEqual(once[0]!.folders);
    expect(twice[0]!.requests.map((p) => p.request.order)).toEqual(once[0]!.requests.map((p) => p.request.order));
  });
});
