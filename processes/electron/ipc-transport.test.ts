import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { BUS_CHANNEL, ipcTransport } from './ipc-transport.js';
import { Peer } from '../../protocol/peer.js';
import { validateCompiled } from '../../protocol/validate-node.js';

vi.mock('electron', () => ({}));

/** A fake ipcMain + webContents pair standing in for Electron, wired back to back to a renderer Peer. */
function fakeElectron() {
  const ipcMain = new EventEmitter() as EventEmitter & { on: EventEmitter['on']; removeAllListeners: EventEmitter['removeAllListeners'] };
  const renderer = new EventEmitter();
  const contents = Object.assign(new EventEmitter(), {
    destroyed: false,
    isDestroyed() {
      return this.destroyed;
    },
    send(channel: string, bytes: Uint8Array) {
      renderer.emit(channel, bytes);
    },
  });
  const frame = { url: 'file:///app/dist/ui/index.html?x' };
  const fromRenderer = (bytes: Uint8Array, sender: unknown = contents, senderFrame = frame) => ipcMain.emit(BUS_CHANNEL, { sender, senderFrame }, bytes);
  return { ipcMain, contents, renderer, fromRenderer };
}

describe('Electron IPC transport', () => {
  it('carries the bus between the window and the main process', async () => {
    const { ipcMain, contents, renderer, fromRenderer } = fakeElectron();
    // The renderer side (what the preload bridge does), listening before the main side says hello.
    const rendererTransport = { onMessage: null as ((b: Uint8Array) => void) | null, onFrameError: null, onClose: null, send: (bytes: Uint8Array) => fromRenderer(bytes), close: () => {} };
    renderer.on(BUS_CHANNEL, (bytes: Uint8Array) => rendererTransport.onMessage?.(bytes));
    const ui = new Peer(rendererTransport, { role: 'ui', validate: validateCompiled });
    const main = new Peer(ipcTransport(ipcMain as never, contents as never, (url) => url.startsWith('file:///app/dist/ui/index.html')), {
      role: 'supervisor',
      validate: validateCompiled,
      handlers: { 'app.ping': ({ t }) => ({ t }) },
    });
    await expect(ui.call('app.ping', { t: 3 })).resolves.toEqual({ t: 3 });
    main.close();
  });

  it('ignores messages from other windows and foreign frames, and closes with the window', () => {
    const { ipcMain, contents, fromRenderer } = fakeElectron();
    const transport = ipcTransport(ipcMain as never, contents as never, (url) => url.startsWith('file:///app/'));
    const got: Uint8Array[] = [];
    let closed = '';
    transport.onMessage = (b) => got.push(b);
    transport.onClose = (why) => (closed = why);
    fromRenderer(new Uint8Array([1]), { other: true });
    fromRenderer(new Uint8Array([2]), contents, { url: 'https://evil.example/' } as never);
    fromRenderer(new Uint8Array([3]));
    expect(got.map((b) => b[0])).toEqual([3]);
    contents.emit('destroyed');
    expect(closed).toContain('window closed');
  });
});
