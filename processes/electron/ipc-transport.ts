/**
 * The bus over Electron IPC: the renderer's preload bridge sends msgpack bytes on one
 * channel and receives on the same. Only messages from our own window's frame are accepted.
 */
import type { Transport } from '../../protocol/peer.js';

export const BUS_CHANNEL = 'parley:bus';

export interface IpcMainLike {
  on(channel: string, listener: (event: { sender: unknown; senderFrame?: { url: string } | null }, bytes: unknown) => void): void;
  removeAllListeners(channel: string): void;
}

export interface WebContentsLike {
  send(channel: string, bytes: Uint8Array): void;
  isDestroyed(): boolean;
  on(event: 'destroyed', listener: () => void): void;
}

export function ipcTransport(ipcMain: IpcMainLike, contents: WebContentsLike, isOwnFrame: (url: string) => boolean): Transport {
  const transport: Transport = {
    onMessage: null,
    onFrameError: null,
    onClose: null,
    send(bytes) {
      if (!contents.isDestroyed()) contents.send(BUS_CHANNEL, bytes);
    },
    close() {
      ipcMain.removeAllListeners(BUS_CHANNEL);
    },
  };
  ipcMain.on(BUS_CHANNEL, (event, bytes) => {
    if (event.sender !== contents) return;
    if (!event.senderFrame || !isOwnFrame(event.senderFrame.url)) return;
    if (!(bytes instanceof Uint8Array)) return;
    transport.onMessage?.(bytes);
  });
  contents.on('destroyed', () => transport.onClose?.('The window closed.'));
  return transport;
}
