/**
 * The real supervisor (`parley ui`) against a page that sends what no page of ours would: calls
 * and events named after Object.prototype's members. Each is refused as unknown, and the
 * supervisor and its children keep running.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Peer } from '../../protocol/peer.js';
import { validateInterpreted } from '../../protocol/validate-browser.js';
import { webSocketTransport } from '../../processes/supervisor/ui-server.js';
import { startApp, type RunningApp } from '../support/app.js';
import { PROTOTYPE_NAMES } from '../support/prototype-names.js';

let app: RunningApp;
let page: Peer;

beforeAll(async () => {
  app = await startApp([]);
  const url = new URL(app.url);
  const ws = new WebSocket(`ws://${url.host}/bus?token=${url.searchParams.get('token')}`, { headers: { origin: `http://${url.host}` } });
  page = new Peer(webSocketTransport(ws), { role: 'ui', validate: validateInterpreted });
  await page.ready;
}, 60_000);

afterAll(async () => {
  page?.close();
  await app?.stop();
});

describe('the supervisor on the UI bus', () => {
  it('answers a call or event named after any Object.prototype member as unknown, and stays up', async () => {
    for (const name of PROTOTYPE_NAMES) {
      await expect(page.call(name as 'app.ping', { t: 1 }), name).rejects.toMatchObject({ code: 'unknown-method' });
      page.emit(name as 'notice', { level: 'info', message: name });
    }
    await expect(page.call('app.ping', { t: 7 })).resolves.toEqual({ t: 7 });
    const info = await page.call('app.info', {});
    expect(info.version).toMatch(/\d+\.\d+\.\d+/);
    expect(app.child.exitCode).toBeNull();
    expect(app.output()).not.toMatch(/TypeCompilerTypeGuardError|unhandled rejection|uncaught exception/);
  });
});
