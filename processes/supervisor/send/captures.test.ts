/**
 * A request's captures after its send, in the supervisor: where each value goes (the session's
 * values, or the active environment: a credential to the keychain as a `${secret:...}` reference),
 * what a result shows (a credential's value never), and how a captured value expands afterwards
 * (over the environment, and literally: a response's `${secret:...}` is never read).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MASK } from '../../../protocol/credentials/index.js';
import type { Capture, CaptureJob } from '../../../protocol/model/capture.js';
import type { SendResult } from '../../../protocol/model/exchange.js';
import { evaluateBodyCaptures } from '../../checker/engine/captures.js';
import type { ChildProcessHandle } from '../children/child-process.js';
import { MapSecrets } from '../cookies/test-support/map-secrets.js';
import { WorkspaceStore } from '../store/workspace-store.js';
import { appCaptureSink } from './capture-environment.js';
import { CapturedValues } from './captured-values.js';
import { prepareCaptures, runCaptures, type CaptureDeps, type CaptureSink } from './captures.js';
import { Expander, secretNamesIn } from './expand.js';
import { specToCurl } from '../curl/copy.js';
import { recordSent } from './record.js';

const TOKEN = 'eyJhbGciOi.secret-token-4417';

/** The checker's query thread, run in this process: the same engine. */
const checker = { call: async (_type: string, job: CaptureJob) => ({ values: evaluateBodyCaptures(job) }) } as unknown as ChildProcessHandle;
const deps = (jar = ''): CaptureDeps => ({ checker, jarCookieHeader: async () => jar });

function response(body: unknown, headers: [string, string][] = [], status = 200): SendResult {
  const bytes = new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
  return {
    status,
    statusText: 'OK',
    httpVersion: '1.1',
    headers,
    hops: [],
    raw: { request: '', response: '' },
    url: 'http://127.0.0.1/login',
    remoteAddress: '',
    body: { bytes, size: bytes.length, wireSize: bytes.length },
    timing: { dns: 0, connect: 0, tls: 0, send: 0, wait: 0, download: 0, total: 1 },
  };
}

const capture = (fields: Partial<Capture>): Capture => ({ enabled: true, name: 'x', source: 'jsonpath', expression: '$.x', scope: 'session', ...fields });
const scope = { environment: [], project: [], globals: [], secrets: new Map<string, string>() };

async function run(captures: Capture[], res: SendResult, sink: CaptureSink = { values: new CapturedValues() }, jar = '') {
  const prepared = prepareCaptures(captures, scope, sink)!;
  const { results, credentials } = await runCaptures(deps(jar), prepared, res, new Map(), []);
  return { results, credentials, sink };
}

describe('runCaptures', () => {
  it('keeps with each value the request that captured it, into the session or an environment that is not there', async () => {
    const sink: CaptureSink = { values: new CapturedValues(), toEnvironment: async (name, value, credential, from) => void sink.values.set(name, value, credential, undefined, from) };
    const prepared = prepareCaptures([capture({ name: 'orderId', expression: '$.order.id' }), capture({ name: 'token', expression: '$.token', scope: 'environment' })], scope, sink, 'Create order')!;
    await runCaptures(deps(), prepared, response({ token: TOKEN, order: { id: 42 } }), new Map(), []);
    expect(sink.values.shown()).toEqual([
      { name: 'orderId', value: '42', from: 'Create order' },
      { name: 'token', value: MASK, credential: true, from: 'Create order' },
    ]);
  });

  it('sets each variable from the body, a header, the status and a cookie, in order', async () => {
    const res = response({ token: TOKEN, order: { id: 42 } }, [
      ['Location', '/orders/42'],
      ['Set-Cookie', 'sid=cookie-value-991; HttpOnly'],
    ], 201);
    const { results, credentials, sink } = await run(
      [
        capture({ name: 'token', expression: '$.token' }),
        capture({ name: 'orderId', expression: '$.order.id' }),
        capture({ name: 'where', source: 'header', expression: 'location' }),
        capture({ name: 'code', source: 'status', expression: '' }),
        capture({ name: 'sid', source: 'cookie', expression: 'sid' }),
        capture({ name: 'fromJar', source: 'cookie', expression: 'lang' }),
      ],
      res,
      undefined,
      'lang=en-GB-long',
    );
    expect(results.map((r) => [r.name, r.ok, r.value])).toEqual([
      ['token', true, MASK],
      ['orderId', true, '42'],
      ['where', true, '/orders/42'],
      ['code', true, '201'],
      ['sid', true, MASK],
      ['fromJar', true, MASK],
    ]);
    expect(results[0]).toEqual({ index: 0, name: 'token', label: '$.token (JSON body)', scope: 'session', ok: true, value: MASK, credential: true, message: '' });
    expect(sink.values.rows()).toEqual([
      { name: 'token', value: TOKEN, enabled: true },
      { name: 'orderId', value: '42', enabled: true },
      { name: 'where', value: '/orders/42', enabled: true },
      { name: 'code', value: '201', enabled: true },
      { name: 'sid', value: 'cookie-value-991', enabled: true },
      { name: 'fromJar', value: 'en-GB-long', enabled: true },
    ]);
    // The credentials among them, to be masked by value in whatever records this send and a later one.
    expect(credentials).toEqual([TOKEN, 'cookie-value-991', 'en-GB-long']);
    expect(sink.values.credentialValues()).toEqual([TOKEN, 'cookie-value-991', 'en-GB-long']);
    expect(JSON.stringify(results)).not.toContain(TOKEN);
  });

  it('a path matching nothing fails and leaves the variable as it was', async () => {
    const values = new CapturedValues();
    values.set('orderId', '41', false);
    const { results } = await run([capture({ name: 'orderId', expression: '$.order.id' })], response({ other: 1 }), { values });
    expect(results).toEqual([{ index: 0, name: 'orderId', label: '$.order.id (JSON body)', scope: 'session', ok: false, message: 'nothing found at $.order.id' }]);
    expect(values.get('orderId')).toBe('41');
  });

  it('refuses a name ${...} cannot hold, says which ${name} of an expression is not defined, and skips a disabled capture', async () => {
    const { results, sink } = await run(
      [capture({ name: ' ' }), capture({ name: 'a{b}' }), capture({ name: 'secret:x' }), capture({ name: 'y', expression: '$.${field}' }), capture({ name: 'off', enabled: false })],
      response({ x: 1 }),
    );
    expect(results.map((r) => r.message)).toEqual(['no variable name', 'the variable name a{b} holds { or }, which ${...} cannot name', '${secret:x} names a secret in the secret store, not a variable', '${field} not defined']);
    expect(results.every((r) => !r.ok)).toBe(true);
    expect(sink.values.size).toBe(0);
  });

  it("a later capture of one name wins, and a shown value has the send's secret values taken out", async () => {
    const prepared = prepareCaptures([capture({ name: 'echo', expression: '$.a' }), capture({ name: 'echo', expression: '$.b' })], scope, { values: new CapturedValues() })!;
    const { results } = await runCaptures(deps(), prepared, response({ a: 'first', b: 'key is s3cr3t-value!' }), new Map([['api', 's3cr3t-value!']]), []);
    expect(results.map((r) => r.value)).toEqual(['first', 'key is ${secret:api}']);
    expect(prepared.sink.values.get('echo')).toBe('key is s3cr3t-value!');
  });

  it('an environment capture in a run stays in the run, and says so', async () => {
    const { results, sink } = await run([capture({ name: 'orderId', expression: '$.id', scope: 'environment' })], response({ id: 3 }));
    expect(results[0]).toMatchObject({ ok: true, value: '3', scope: 'environment', message: "kept in memory: a run does not change the workspace's environments" });
    expect(sink.values.get('orderId')).toBe('3');
  });
});

describe('a capture into the active environment (the app)', () => {
  let dir: string;
  let workspace: WorkspaceStore;
  let secrets: MapSecrets;
  const broadcasts: unknown[] = [];
  let sink: CaptureSink;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parley-captures-'));
    workspace = await WorkspaceStore.open(dir);
    await workspace.update((w) => {
      w.environments.push({ id: 'env_1', name: 'Staging EU', variables: [{ name: 'orderId', value: 'old', enabled: false }] });
      w.activeEnvironment = 'env_1';
    });
    secrets = new MapSecrets();
    broadcasts.length = 0;
    sink = appCaptureSink({ workspace, secrets, broadcast: ((_type: string, payload: unknown) => void broadcasts.push(payload)) as never }, new CapturedValues());
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes a value into the environment, and a credential into the keychain with its reference in the environment', async () => {
    sink.values.set('orderId', 'stale', false);
    const { results } = await run([capture({ name: 'orderId', expression: '$.id', scope: 'environment' }), capture({ name: 'authToken', expression: '$.token', scope: 'environment' })], response({ id: 9, token: TOKEN }), sink);
    expect(results.map((r) => [r.ok, r.value, r.message])).toEqual([
      [true, '9', ''],
      [true, MASK, 'in Staging EU as ${secret:staging-eu/authToken} (the value is in the secret store)'],
    ]);
    expect(workspace.get().environments[0]!.variables).toEqual([
      { name: 'orderId', value: '9', enabled: true },
      { name: 'authToken', value: '${secret:staging-eu/authToken}', enabled: true },
    ]);
    expect(workspace.get().secrets).toEqual(['staging-eu/authToken']);
    expect(secrets.map.get('staging-eu/authToken')).toBe(TOKEN);
    // The session's older value would hide the environment's: it is gone.
    expect(sink.values.get('orderId')).toBeUndefined();
    expect(broadcasts).toHaveLength(2);
    const file = await readFile(join(dir, 'workspace.yaml'), 'utf8');
    expect(file).toContain('value: "9"');
    expect(file).not.toContain(TOKEN);
  });

  it('without an active environment, without secure storage, or with a value that would expand, keeps it for the session and says why', async () => {
    secrets.unavailable = 'no Secret Service';
    const { results } = await run([capture({ name: 'authToken', expression: '$.token', scope: 'environment' }), capture({ name: 'note', expression: '$.note', scope: 'environment' })], response({ token: TOKEN, note: 'see ${secret:github/pat}' }), sink);
    expect(results.map((r) => r.message)).toEqual([
      'a credential is kept only in the secret store, which is not usable now: kept in memory for this session',
      'the value holds ${...}, which an environment would expand: kept for this session',
    ]);
    expect(sink.values.get('authToken')).toBe(TOKEN);
    expect(sink.values.get('note')).toBe('see ${secret:github/pat}');
    await workspace.update((w) => void (w.activeEnvironment = undefined));
    const again = await run([capture({ name: 'orderId', expression: '$.id', scope: 'environment' })], response({ id: 1 }), sink);
    expect(again.results[0]!.message).toBe('no environment is active: kept for this session');
    expect(await readFile(join(dir, 'workspace.yaml'), 'utf8')).not.toContain(TOKEN);
  });
});

describe('captured values in expansion', () => {
  it('win over the environment, and are taken as they are: a ${secret:...} or ${name} a response sent is never expanded', () => {
    const captured = [
      { name: 'token', value: 'captured', enabled: true },
      { name: 'evil', value: '${secret:github/pat}', enabled: true },
      { name: 'loop', value: '${token}', enabled: true },
    ];
    const rows = { captured, environment: [{ name: 'token', value: 'from-env', enabled: true }], project: [], globals: [] };
    const expander = new Expander({ ...rows, secrets: new Map([['github/pat', 'ghp_real']]) });
    expect(expander.expand('${token} ${evil} ${loop}')).toBe('captured ${secret:github/pat} ${token}');
    expect(expander.secretValues.size).toBe(0);
    expect(secretNamesIn(['${evil}'], rows)).toEqual([]);
  });
});

describe('a captured credential in what a later send records', () => {
  const spec = {
    method: 'GET',
    url: `http://127.0.0.1/me?t=${TOKEN}`,
    headers: [['X-Ref', TOKEN] as [string, string]],
    body: { type: 'none' as const },
    timeoutMs: 0,
    httpVersion: '1.1' as const,
    followRedirects: true,
    maxRedirects: 5,
    proxy: '',
    caPem: '',
    inlineLimit: 1024,
  };

  it('is masked by value in History and in Copy as cURL (unless show secrets), under names that are no credential', () => {
    const sent = recordSent(spec, new Map(), [TOKEN]);
    expect(JSON.stringify(sent.request)).not.toContain(TOKEN);
    expect(sent.request.url).toBe(`http://127.0.0.1/me?t=${MASK}`);
    expect(sent.masked).toBe(true);
    expect(specToCurl(spec, new Map(), [TOKEN])).not.toContain(TOKEN);
    expect(specToCurl(spec, null, [TOKEN])).toContain(TOKEN);
  });
});

describe('CapturedValues', () => {
  it('tells of each change, and shows a credential masked and a long value cut', () => {
    let changes = 0;
    const values = new CapturedValues(() => changes++);
    values.set('token', TOKEN, true);
    values.set('page', 'p'.repeat(600), false);
    values.set('echo', 'as sent', false, 'as shown');
    values.delete('nothing');
    values.delete('echo');
    expect(changes).toBe(4);
    expect(values.shown()).toEqual([
      { name: 'token', value: MASK, credential: true },
      { name: 'page', value: `${'p'.repeat(500)}…` },
    ]);
    expect(values.get('page')).toHaveLength(600);
  });

  it('keeps the request that set each value, and forgets one value or all of them, told once each', () => {
    let changes = 0;
    const values = new CapturedValues(() => changes++);
    values.set('token', TOKEN, true, undefined, 'Login');
    values.set('userId', '7', false, undefined, 'Login');
    values.set('page', '2', false);
    expect(values.shown()).toEqual([
      { name: 'token', value: MASK, credential: true, from: 'Login' },
      { name: 'userId', value: '7', from: 'Login' },
      { name: 'page', value: '2' },
    ]);
    changes = 0;
    values.clear(['userId', 'nothing']);
    expect(values.shown().map((v) => v.name)).toEqual(['token', 'page']);
    values.clear(['nothing']);
    values.clear();
    expect(values.size).toBe(0);
    expect(changes).toBe(2);
  });
});
