/**
 * The jar across restarts. With a real Secret Service (gnome-keyring under dbus-run-session, via
 * scripts/with-keyring): cookies with an expiry survive a restart of the supervisor, sealed in the
 * workspace under a key the keychain holds, and session cookies do not; each workspace has its own
 * jar. Without secure storage (a real `parley ui` whose D-Bus session does not exist): nothing is
 * written, and the jar says so.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { KeychainSecrets } from '../../processes/supervisor/store/secrets.js';
import { JAR_FILE, JAR_KEY_NAME } from '../../processes/supervisor/cookies/jar-file.js';
import { keyringMissing } from '../support/keyring.js';
import { startApp } from '../support/app.js';
import { busCaller, handlerCaller, type UiCall } from '../support/ui-calls.js';

const missingKeyring = await keyringMissing();
if (missingKeyring) console.warn(`Skipping the cookie jar's keychain tests: ${missingKeyring}`);

const KEEP = 'kept-across-restarts-5c1e';
const SESSION = 'session-only-93ab';
let server: Server;
let base: string;
const seenCookies: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenCookies.push(req.headers.cookie);
    res.writeHead(200, { 'Set-Cookie': req.url === '/set' ? [`keep=${KEEP}; Path=/; Max-Age=86400`, `sess=${SESSION}; Path=/`] : [], 'Content-Type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

/** Opens (or makes) a project with one API on the test server and sends `path` with Send cookies on. */
async function sendFrom(call: UiCall, projectDir: string, path: string) {
  await call('project.open', { path: projectDir });
  const tree = await call('project.tree', { project: projectDir });
  const api = tree.items.find((i) => i.kind === 'api')?.id ?? (await call('api.create', { project: projectDir, name: 'Jar', baseUrl: base })).id;
  const request = await call('request.create', { project: projectDir, parent: api, name: `r${Math.random()}`, method: 'GET', url: path });
  return call('request.send', { project: projectDir, request: { ...request, settings: { ...request.settings, sendCookies: true } } });
}

async function filesHolding(dir: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && (await readFile(join(entry.parentPath, entry.name))).includes(Buffer.from(text))) found.push(entry.name);
  }
  return found;
}

describe.skipIf(missingKeyring !== null)('cookie jar with a real Secret Service', () => {
  it('keeps cookies with an expiry across a restart of the supervisor, sealed under a keychain key; session cookies do not survive', async () => {
    const home = await mkdtemp(join(tmpdir(), 'parley-jar-restart-'));
    const projectDir = join(home, 'project');
    const first = await Supervisor.start({ dataDir: home, log: () => {} });
    try {
      const call = handlerCaller(uiHandlers(first));
      await first.openProject(projectDir, { create: true });
      const exchange = await sendFrom(call, projectDir, '/set');
      expect(exchange.response.cookies!.map((o) => [o.name, o.outcome, o.persisted])).toEqual([
        ['keep', 'stored', true],
        ['sess', 'stored', undefined],
      ]);
      expect((await call('cookies.list', {})).status).toEqual({ persistent: true });
    } finally {
      await first.shutdown();
    }
    const sealed = await readFile(join(home, JAR_FILE));
    expect(sealed.subarray(0, 10).toString('latin1')).toBe('PARLEY-JAR');
    expect(await filesHolding(home, KEEP)).toEqual([]);
    expect(await filesHolding(home, SESSION)).toEqual([]);
    const key = await new KeychainSecrets(home).get(JAR_KEY_NAME);
    expect(Buffer.from(key!, 'base64')).toHaveLength(32);

    const second = await Supervisor.start({ dataDir: home, log: () => {} });
    try {
      const call = handlerCaller(uiHandlers(second));
      const { cookies, status } = await call('cookies.list', { values: true });
      expect(status).toEqual({ persistent: true });
      expect(cookies.map((c) => [c.name, c.value])).toEqual([['keep', KEEP]]);
      seenCookies.length = 0;
      await sendFrom(call, projectDir, '/echo');
      expect(seenCookies).toEqual([`keep=${KEEP}`]);
    } finally {
      await second.shutdown();
    }
  }, 90_000);

  it('gives each workspace its own jar and its own key: opening another workspace switches jars', async () => {
    const homeA = await mkdtemp(join(tmpdir(), 'parley-jar-a-'));
    const homeB = await mkdtemp(join(tmpdir(), 'parley-jar-b-'));
    const a = await Supervisor.start({ dataDir: homeA, log: () => {} });
    try {
      await a.openProject(join(homeA, 'p'), { create: true });
      await sendFrom(handlerCaller(uiHandlers(a)), join(homeA, 'p'), '/set');
    } finally {
      await a.shutdown();
    }
    const b = await Supervisor.start({ dataDir: homeB, log: () => {} });
    try {
      expect((await handlerCaller(uiHandlers(b))('cookies.list', {})).cookies).toEqual([]);
    } finally {
      await b.shutdown();
    }
    const keyA = await new KeychainSecrets(homeA).get(JAR_KEY_NAME);
    const keyB = await new KeychainSecrets(homeB).get(JAR_KEY_NAME);
    expect(keyA).not.toBeNull();
    expect(keyB).toBeNull();
  }, 90_000);
});

describe('cookie jar without secure storage', () => {
  it('writes nothing to disk or keychain, keeps cookies until quit, and the jar says why', async () => {
    const home = await mkdtemp(join(tmpdir(), 'parley-jar-nokeychain-'));
    const projectDir = join(home, 'project');
    const app = await startApp([projectDir], { PARLEY_HOME: home, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/parley-test-bus' });
    try {
      const bus = await busCaller(app.url);
      try {
        const exchange = await sendFrom(bus.call, projectDir, '/set');
        expect(exchange.response.cookies!.map((o) => [o.name, o.outcome, o.persisted])).toEqual([
          ['keep', 'stored', false],
          ['sess', 'stored', undefined],
        ]);
        const { cookies, status } = await bus.call('cookies.list', {});
        expect(cookies.map((c) => c.name)).toEqual(['keep', 'sess']);
        expect(status.persistent).toBe(false);
        expect(status.message).toMatch(/^No secure storage on this system: .*Cookies are kept only until Parley quits; nothing is written to disk\.$/);
      } finally {
        bus.close();
      }
    } finally {
      await app.stop();
    }
    expect(await readdir(home)).not.toContain(JAR_FILE);
    expect(await filesHolding(home, KEEP)).toEqual([]);
    expect(await filesHolding(home, SESSION)).toEqual([]);
    expect(app.output()).not.toContain(KEEP);
  }, 90_000);
});
