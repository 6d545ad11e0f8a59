/**
 * Copy as cURL and the cURL import read each other back: a command imported, the request copied as
 * cURL (through the same resolve step a send uses) and that command imported again gives the same
 * request: method, URL, header rows, auth, body kind and body, and the same request on the wire.
 */
import { describe, expect, it } from 'vitest';
import type { Api } from '../../../protocol/model/api.js';
import type { Request } from '../../../protocol/model/request.js';
import { convertCurlCommand } from '../../importer/engine/curl/convert-command.js';
import { Expander } from '../send/expand.js';
import { resolveRequest } from '../send/resolve.js';
import { specToCurl } from './copy.js';

const root = '/tmp/parley-round-trip-project';
const api: Api = { version: 1, id: 'a1', name: 'API', baseUrl: 'https://api.example.com', auth: { type: 'none' } };

function resolve(request: Request) {
  const expander = new Expander({ environment: [], project: [], globals: [], secrets: new Map() });
  return resolveRequest(request, api, { expander, projectRoot: root, proxy: '', caPem: '', inlineLimit: 1 << 20, oauthToken: async () => 'token' });
}

export const ROUND_TRIP_COMMANDS = [
  `curl https://api.example.com/pets`,
  `curl 'https://api.example.com/pets?limit=20&tag=cat'`,
  `curl -X DELETE https://api.example.com/pets/7`,
  `curl -I https://api.example.com/health`,
  `curl -X OPTIONS https://api.example.com/pets -H 'Origin: https://app.example.com'`,
  `curl -X PATCH https://api.example.com/pets/1 -H 'Content-Type: application/json' -d '{"name":"Rex"}'`,
  `curl https://api.example.com/pets -H 'Content-Type: application/json' --data-raw '{"name": "O'"'"'Brien", "tags": ["a b", "c"]}'`,
  `curl https://api.example.com/pets -H "Content-Type: application/json" -d "{\\"name\\": \\"Biscuit\\", \\"price\\": 12.5}"`,
  `curl https://api.example.com/pets --json '{"name":"Comet"}'`,
  `curl https://api.example.com/login -d 'user=bob&password=hunter2'`,
  `curl https://api.example.com/form -d 'name=hello world&x=1'`,
  `curl https://api.example.com/form --data-urlencode 'q=a b&c' --data-urlencode 'lang=en'`,
  `curl -G https://api.example.com/search -d 'q=parley' -d 'page=2'`,
  `curl -G 'https://api.example.com/search?x=1' --data-urlencode 'q=hello world'`,
  `curl https://api.example.com/upload --data-binary @data/payload.bin -H 'Content-Type: application/octet-stream'`,
  `curl https://api.example.com/upload --data-binary @body.json -H 'Content-Type: application/json'`,
  `curl -X PUT https://api.example.com/upload --data-binary @notes.txt`,
  `curl https://api.example.com/files -F 'title=Holiday' -F 'photo=@pics/beach.png'`,
  `curl https://api.example.com/files -F 'doc=@report.pdf;type=application/pdf' -F 'note=see attached'`,
  `curl https://api.example.com/files --form-string 'literal=@not-a-file' -F 'raw=@data.bin'`,
  `curl -u bob:s3cret https://api.example.com/private`,
  `curl -u 'alice:p@ss word:with colon' https://api.example.com/private -X POST -d 'x=1'`,
  `curl https://api.example.com/me -H 'Authorization: Bearer eyJhbGciOi.eyJzdWIi.sig'`,
  `curl https://api.example.com/me --oauth2-bearer abc123`,
  `curl --negotiate -u : https://api.example.com/intranet`,
  `curl https://api.example.com/data -H 'X-Api-Key: k-123' -H 'Accept: application/json'`,
  `curl https://api.example.com/pets --compressed`,
  `curl https://api.example.com/pets -H 'Accept-Encoding: gzip' --compressed`,
  `curl https://api.example.com/events -H 'Accept: text/event-stream' -N`,
  `curl 'https://api.example.com/a%20b/c' -H 'X-Quote: it'"'"'s "quoted" $HOME \\back'`,
  `curl https://api.example.com/keys -H 'X-Request-Token: t1' -H 'X-Api-Key: k2'`,
  `curl https://api.example.com/text -H 'Content-Type: text/plain' --data-raw $'line 1\\nline 2\\ttabbed'`,
  `curl https://api.example.com/xml -H 'Content-Type: application/xml' -d '<pet><name>Rex</name></pet>'`,
  `curl https://api.example.com/soap -H 'Content-Type: text/xml; charset=utf-8' -H 'SOAPAction: "urn:get"' -d '<Envelope/>'`,
  `curl -X POST https://api.example.com/empty`,
  `curl https://api.example.com/odd -d '{"not":"form"}'`,
  `curl https://api.example.com/headers -H 'X-Empty;' -H 'X-Many: a' -H 'X-Many: b' -A 'agent/1.0' -e https://ref.example.com/`,
  `curl -g 'https://api.example.com/filter?ids[]=1&ids[]=2&q={x}'`,
  `curl -X GET https://api.example.com/get-with-body -H 'Content-Type: application/json' -d '{"query":"x"}'`,
  `curl https://api.example.com/unicode -H 'Content-Type: application/json' -d '{"name":"Ünïcødé 😀"}'`,
  `curl https://api.example.com/vendor -H 'Content-Type: application/vnd.api+json' -d '{"data":{}}'`,
];

describe('Copy as cURL and cURL import read each other back', () => {
  it('has at least 30 commands', () => expect(ROUND_TRIP_COMMANDS.length).toBeGreaterThanOrEqual(30));

  it.each(ROUND_TRIP_COMMANDS)('%s', async (command) => {
    const first = (await convertCurlCommand(command, { id: 'r1', name: 'Round trip' })).request;
    const spec = await resolve(first);
    const copied = specToCurl(spec, null);
    const second = (await convertCurlCommand(copied, { id: 'r1', name: 'Round trip' })).request;
    expect({ command: copied, method: second.method }).toEqual({ command: copied, method: first.method });
    expect({ url: second.url, query: second.query }).toEqual({ url: first.url, query: first.query });
    expect(second.headers).toEqual(first.headers);
    expect(second.auth).toEqual(first.auth);
    expect(second.body.kind).toBe(first.body.kind);
    const content = (r: Request) => (r.body.kind === 'none' ? null : r.body.kind === 'raw' ? r.body.raw : r.body[r.body.kind]);
    expect(content(second)).toEqual(content(first));
    expect(await resolve(second)).toEqual(spec);
  });
});
