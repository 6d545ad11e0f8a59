import { mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blankRequest } from '../../../protocol/model/request.js';
import { blankWebSocketRequest } from '../../../protocol/model/websocket.js';
import type { Mock } from '../../../protocol/model/mock.js';
import type { SessionTab } from '../../../protocol/model/session.js';
import { PROTOTYPE_NAMES, withKey } from '../../../test/support/prototype-names.js';
import { nodeFs, type FsOps } from './atomic.js';
import { SESSION_FILE, SessionStore, UNREADABLE_SESSION_FILE } from './session-store.js';
import { Supervisor } from '../supervisor.js';

const home = () => mkdtemp(join(tmpdir(), 'parley-session-'));
const quiet = { log: () => {}, writeDelayMs: 5 };

function requestTab(draft?: SessionTab['draft']): SessionTab {
  return { kind: 'request', project: '/p', itemId: 'r1', title: 'Log in', method: 'POST', ...(draft ? { draft } : {}) };
}

describe('the session file', () => {
  it('starts empty, without a notice, when there is none', async () => {
    const store = await SessionStore.open(await home(), quiet);
    expect(store.projects).toEqual([]);
    expect(store.tabs()).toEqual({ tabs: [] });
    expect(store.takeNotices()).toEqual([]);
  });

  it('keeps projects, tabs, the active one and drafts across an open, in a file only its user may read', async () => {
    const dir = await home();
    const store = await SessionStore.open(dir, quiet);
    store.projectOpened('/p');
    store.projectOpened('/q');
    const draft = { ...blankRequest({ id: 'r1', name: 'Log in', method: 'POST', url: 'http://h/login' }), method: 'PUT' };
    store.setTabs({ tabs: [requestTab({ value: draft, leftOut: [] }), { kind: 'environments', project: '', itemId: '@environments', title: 'Environments' }], active: 1 });
    await store.flush();
    expect((await stat(join(dir, SESSION_FILE))).mode & 0o777).toBe(0o600);
    const again = await SessionStore.open(dir, quiet);
    expect(again.projects).toEqual(['/p', '/q']);
    expect(again.tabs().active).toBe(1);
    expect(again.tabs().tabs[0]!.draft!.value).toEqual(draft);
    expect(again.takeNotices()).toEqual([]);
  });

  it("keeps a WebSocket tab's kind and its unsaved draft (a request of any kind, not only HTTP's shape)", async () => {
    const dir = await home();
    const store = await SessionStore.open(dir, quiet);
    const draft = { ...blankWebSocketRequest({ id: 'r2', name: 'Echo', url: 'ws://h/echo' }), subprotocols: ['echo.v1'] };
    const tab: SessionTab = { kind: 'request', project: '/p', itemId: 'r2', title: 'Echo', method: 'WS', requestKind: 'websocket', draft: { value: draft, leftOut: [] } };
    store.setTabs({ tabs: [tab] });
    await store.flush();
    const again = await SessionStore.open(dir, quiet);
    expect(again.tabs().tabs).toEqual([tab]);
    expect(again.takeNotices()).toEqual([]);
  });

  it.each([
    ['not JSON', '{"version": 1, "projects": [', /it is not JSON/],
    ['not a session', '{"version": 1, "projects": "nope", "tabs": []}', /projects/],
    ['from a newer release', '{"version": 9, "projects": [], "tabs": []}', /newer release of Parley \(session version 9/],
    ['with a draft of the wrong shape', JSON.stringify({ version: 1, projects: [], tabs: [{ ...requestTab(), draft: { value: { url: 3 }, leftOut: [] } }] }), /the draft of the tab "Log in"/],
    ['empty', '', /it is not JSON/],
  ])('a file %s is moved aside and said once; start-up goes on', async (_, text, why) => {
    const dir = await home();
    await writeFile(join(dir, SESSION_FILE), text);
    const lines: string[] = [];
    const store = await SessionStore.open(dir, { ...quiet, log: (line) => lines.push(line) });
    expect(store.tabs()).toEqual({ tabs: [] });
    const notices = store.takeNotices();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(why);
    expect(notices[0]).toContain(UNREADABLE_SESSION_FILE);
    expect(lines).toEqual(notices);
    expect(store.takeNotices()).toEqual([]);
    expect(await readFile(join(dir, UNREADABLE_SESSION_FILE), 'utf8')).toBe(text);
    // The next start finds nothing to complain about.
    expect((await SessionStore.open(dir, quiet)).takeNotices()).toEqual([]);
  });

  it('a corrupt file never stops the app: the supervisor starts and tells the first page', async () => {
    const dir = await home();
    await writeFile(join(dir, SESSION_FILE), '\u0000\u0001 garbage');
    const sup = await Supervisor.start({ dataDir: dir, session: true, services: false, log: () => {} });
    try {
      expect(sup.session!.takeNotices()[0]).toMatch(/could not be read: it is not JSON/);
    } finally {
      await sup.shutdown();
    }
  });

  it('leaves typed secrets out of what lands on disk, whatever the page sent, and names them', async () => {
    const dir = await home();
    const store = await SessionStore.open(dir, quiet);
    const draft = {
      ...blankRequest({ id: 'r1', name: 'Log in', method: 'POST', url: 'http://h/login?access_token=url-secret-1' }),
      auth: { type: 'bearer' as const, token: 'typed-token-2' },
      headers: [{ name: 'Cookie', value: 'sid=cookie-secret-3', enabled: true }],
    };
    store.setTabs({ tabs: [requestTab({ value: draft, leftOut: ['from the page'] })] });
    await store.flush();
    const text = await readFile(join(dir, SESSION_FILE), 'utf8');
    for (const secret of ['url-secret-1', 'typed-token-2', 'cookie-secret-3']) expect(text).not.toContain(secret);
    expect(store.tabs().tabs[0]!.draft!.leftOut).toEqual(['from the page', 'URL parameter "access_token"', 'header "Cookie"', 'auth token']);
  });

  it('keeps no draft of a kind that has none, or one too big, and keeps the tab', async () => {
    const dir = await home();
    const store = await SessionStore.open(dir, quiet);
    const huge = blankRequest({ id: 'r1', name: 'Big', method: 'POST', url: 'http://h/' });
    huge.body.raw.text = 'x'.repeat(4 * 1024 * 1024 + 1);
    store.setTabs({
      tabs: [
        { kind: 'history', project: '/p', itemId: '@history', title: 'History', draft: { value: {}, leftOut: [] } },
        requestTab({ value: huge, leftOut: [] }),
      ],
    });
    expect(store.tabs().tabs.map((t) => [t.kind, t.draft])).toEqual([
      ['history', undefined],
      ['request', undefined],
    ]);
  });

  it('takes names from outside as names: kinds, projects and draft keys like __proto__ index nothing', async () => {
    const dir = await home();
    const store = await SessionStore.open(dir, quiet);
    for (const name of PROTOTYPE_NAMES) store.projectOpened(name);
    const mock = {
      version: 2,
      id: 'm1',
      name: 'Mock',
      kind: 'rest',
      api: 'a1',
      port: 0,
      path: '/',
      contractCheck: 'log',
      operations: [
        {
          id: 'o1',
          name: 'op',
          method: 'GET',
          path: '/x',
          dispatch: 'in-order',
          defaultResponse: 'Default',
          responses: [{ id: 'r', name: 'Default', status: 200, delayMs: 0, headers: [], body: { kind: 'json', text: '{}' }, values: withKey('__proto__', { from: 'query', name: 'q' }), match: [] }],
        },
      ],
    } as unknown as Mock;
    store.setTabs({
      tabs: [
        ...PROTOTYPE_NAMES.map((name): SessionTab => ({ kind: name, project: name, itemId: name, title: name, draft: { value: {}, leftOut: [] } })),
        { kind: 'mock', project: '/p', itemId: 'm1', title: 'Mock', draft: { value: mock, leftOut: [] } },
      ],
    });
    await store.flush();
    const again = await SessionStore.open(dir, quiet);
    expect(again.takeNotices()).toEqual([]);
    expect(again.projects).toEqual(PROTOTYPE_NAMES);
    const tabs = again.tabs().tabs;
    expect(tabs.slice(0, -1).every((t) => t.draft === undefined)).toBe(true);
    const values = (tabs.at(-1)!.draft!.value as Mock).operations[0]!.responses[0]!.values;
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(Object.hasOwn(values, '__proto__')).toBe(true);
  });

  it('a project that is gone leaves with its tabs, said once', async () => {
    const dir = await home();
    const store = await SessionStore.open(dir, quiet);
    store.projectOpened('/gone');
    store.projectOpened('/here');
    store.setTabs({
      tabs: [
        { ...requestTab({ value: blankRequest({ id: 'r1', name: 'Log in', method: 'GET', url: 'http://h/' }), leftOut: [] }), project: '/gone' },
        { kind: 'history', project: '/here', itemId: '@history', title: 'History' },
      ],
      active: 1,
    });
    store.projectGone('/gone', '/gone is not a Parley project (no parley.yaml).');
    expect(store.projects).toEqual(['/here']);
    expect(store.tabs()).toEqual({ tabs: [{ kind: 'history', project: '/here', itemId: '@history', title: 'History' }], active: 0 });
    const notices = store.takeNotices();
    expect(notices).toEqual(['The project "/gone" from the last session could not be opened, so it was left out: /gone is not a Parley project (no parley.yaml). Its unsaved edits in "Log in" could not be restored.']);
    expect(store.takeNotices()).toEqual([]);
  });

  it('writes a burst of changes once, atomically, and a failed write is logged, not thrown', async () => {
    const dir = await home();
    let writes = 0;
    const counting: FsOps = { ...nodeFs, writeSynced: (path, data, mode) => (path.includes(SESSION_FILE) && writes++, nodeFs.writeSynced(path, data, mode)) };
    const store = await SessionStore.open(dir, { ...quiet, fs: counting, writeDelayMs: 60_000 });
    for (let i = 0; i < 50; i++) store.setTabs({ tabs: [{ kind: 'history', project: '/p', itemId: '@history', title: `History ${i}` }] });
    await store.flush();
    expect(writes).toBe(1);
    expect(JSON.parse(await readFile(join(dir, SESSION_FILE), 'utf8')).tabs[0].title).toBe('History 49');

    const lines: string[] = [];
    const broken: FsOps = { ...nodeFs, rename: () => Promise.reject(Object.assign(new Error('injected'), { code: 'EIO' })) };
    const failing = await SessionStore.open(dir, { ...quiet, fs: broken, log: (line) => lines.push(line) });
    failing.setTabs({ tabs: [] });
    await failing.flush();
    expect(lines.join('\n')).toMatch(/session not saved: Saving failed \(EIO\)/);
    expect(JSON.parse(await readFile(join(dir, SESSION_FILE), 'utf8')).tabs[0].title).toBe('History 49');
    expect((await readdir(dir)).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
