/** What the request pane lists under the URL before Send: every unresolved `${name}` of what would be sent, and nothing of what would not. */
import { describe, expect, it } from 'vitest';
import { blankRequest, type Request } from '../../../../../protocol/model/request.js';
import type { Api } from '../../../../../protocol/model/api.js';
import type { Row } from '../../../../../protocol/model/common.js';
import { emptyWorkspace } from '../../../../../protocol/model/workspace.js';
import { editorScope } from '../../state/variable-scope.js';
import { sendProblems, sentTexts } from './send-problems.js';

const row = (name: string, value: string, enabled = true): Row => ({ name, value, enabled });
const api: Api = { version: 1, id: 'a_1', name: 'Pets', baseUrl: '${baseUrl}', auth: { type: 'bearer', token: '${apiToken}' } };
const ws = { ...emptyWorkspace(), environments: [{ id: 'e_1', name: 'Staging', variables: [row('baseUrl', 'https://stg.example.com'), row('apiToken', '${secret:stg/token}')] }], activeEnvironment: 'e_1', secrets: ['stg/token'] };
const scope = editorScope(ws, [row('petId', '7')]);

function request(patch: Partial<Request>): Request {
  return { ...blankRequest({ id: 'r_1', name: 'Get a pet', method: 'GET', url: '/pets' }), ...patch };
}

describe('sendProblems', () => {
  it('names the unresolved variables of the URL, headers, query, body and auth, each once', () => {
    const draft = request({
      url: '/pets/${petId}?q=${query}#${fragmentOnly}',
      headers: [row('X-Trace', '${trace}'), row('X-Off', '${switchedOff}', false)],
      query: [row('kept', '${keptOff}', false)],
      body: { ...request({}).body, kind: 'form', form: [row('who', '${who}'), row('trace', '${trace}')], raw: { language: 'json', text: '{"not": "${sentAsForm}"}' } },
      auth: { type: 'basic', username: '${user}', password: '${secret:gone}' },
    });
    expect(sendProblems(draft, api, scope).map((p) => p.text)).toEqual([
      "${query}, ${trace}, ${who} and ${user} are not defined in environment Staging, the project's properties or the globals.",
      '${secret:gone} names no secret stored by this workspace (Add secret… under Environments).',
    ]);
  });

  it("follows the API's base URL and inherited auth, and says nothing when all resolve", () => {
    const draft = request({ url: '/pets/${petId}' });
    expect(sendProblems(draft, api, scope)).toEqual([]);
    const bare = editorScope({ ...ws, activeEnvironment: undefined }, []);
    expect(sendProblems(draft, api, bare).map((p) => p.text)).toEqual([
      "${petId}, ${baseUrl} and ${apiToken} are not defined in the project's properties or the globals (no environment is active).",
    ]);
  });

  it('a full URL does not use the base URL; one name is "is"', () => {
    const draft = request({ url: 'https://example.com/${nope}', auth: { type: 'none' } });
    expect(sendProblems(draft, api, editorScope(null, [])).map((p) => p.text)).toEqual(["${nope} is not defined in the project's properties or the globals (no environment is active)."]);
  });

  it('keeps the other problems: an empty path parameter, a URL that is not one, an auth without its values', () => {
    const draft = request({ url: 'ht!tp://x/{id}', pathParams: [{ name: 'id', value: '' }], auth: { type: 'bearer', token: '' } });
    expect(sendProblems(draft, api, scope)).toEqual([
      { text: 'Path parameter {id} has no value.', section: 'params' },
      { text: 'The URL is not valid: "ht!tp" is not a URL scheme: start with http:// or https://.' },
      { text: 'Bearer auth has no Token: it is not sent that way.', section: 'auth' },
    ]);
  });
});

describe('sentTexts', () => {
  it('takes the multipart parts switched on, text values and file names, and a binary body its file', () => {
    const body = request({}).body;
    const multipart = request({
      body: {
        ...body,
        kind: 'multipart',
        multipart: [
          { kind: 'text', name: 'note', value: '${note}', enabled: true },
          { kind: 'file', name: 'photo', file: 'files/${photo}.png', contentType: 'image/png', enabled: true },
          { kind: 'text', name: 'off', value: '${off}', enabled: false },
        ],
      },
      auth: { type: 'none' },
    });
    expect(sentTexts(multipart, null)).toEqual(['/pets', 'note', '${note}', 'photo', 'files/${photo}.png']);
    const binary = request({ body: { ...body, kind: 'binary', binary: { file: '${file}', contentType: 'application/octet-stream' } }, auth: { type: 'none' } });
    expect(sentTexts(binary, null)).toEqual(['/pets', '${file}']);
  });
});
