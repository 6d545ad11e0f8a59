/**
 * The UI's connection to the supervisor: a WebSocket in the browser, the preload bridge in
 * Electron; the same msgpack envelopes either way. When a browser's bus closes, `askServer` tells
 * a dropped link (reconnect) from a restarted Parley, whose new token this page does not have.
 */
import { Peer, type Transport } from '../../../protocol/peer.js';
import { aotValidator } from '../../../protocol/validate-browser.js';
import { checks } from 'virtual:parley-checks';

interface Bridge {
  send(bytes: Uint8Array): void;
  onMessage(listener: (bytes: Uint8Array) => void): void;
  onClose(listener: () => void): void;
}

declare global {
  interface Window {
    parleyBridge?: Bridge;
  }
}

export function connect(onProtocolError: (message: string) => void): Promise<Peer> {
  const transport = window.parleyBridge ? bridgeTransport(window.parleyBridge) : webSocketTransport();
  const peer = new Peer(transport, {
    role: 'ui',
    validate: aotValidator(checks),
    onProtocolError: (err) => onProtocolError(`${err.code}: ${err.message}`),
  });
  return peer.ready.then(() => peer);
}

const pageToken = () => new URLSearchParams(location.search).get('token') ?? '';

/**
 * What the server at this page's address says of its token: `alive` (the same run: reconnect),
 * `restarted` (it refuses the token: a new run, with a new address), `gone` (nothing answers, or
 * not Parley: stopped, or started again elsewhere). Only for a browser page.
 */
export async function askServer(): Promise<'alive' | 'restarted' | 'gone'> {
  try {
    const res = await fetch(`/alive?token=${encodeURIComponent(pageToken())}`, { cache: 'no-store' });
    return res.status === 204 ? 'alive' : res.status === 403 ? 'restarted' : 'gone';
  } catch {
    return 'gone';
  }
}

export const inElectron = () => !!window.parleyBridge;

function webSocketTransport(): Transport {
  const token = pageToken();
  const ws = new WebSocket(`ws://${location.host}/bus?token=${encodeURIComponent(token)}`);
  ws.binaryType = 'arraybuffer';
  const outbox: Uint8Array[] = [];
  const transport: Transport = {
    onMessage: null,
    onFrameError: null,
    onClose: null,
    send(bytes) {
      if (ws.readyState === WebSocket.OPEN) ws.send(bytes);
      else if (ws.readyState === WebSocket.CONNECTING) outbox.push(bytes);
    },
    close() {
      ws.close();
    },
  };
  ws.onopen = () => {
    for (const bytes of outbox.splice(0)) ws.send(bytes);
  };
  ws.onmessage = (event) => transport.onMessage?.(new Uint8Array(event.data as ArrayBuffer));
  ws.onclose = () => transport.onClose?.('The connection to Parley closed.');
  return transport;
}

function bridgeTransport(bridge: Bridge): Transport {
  const transport: Transport = {
    onMessage: null,
    onFrameError: null,
    onClose: null,
    send: (bytes) => bridge.send(bytes),
    close: () => {},
  };
  bridge.onMessage((bytes) => transport.onMessage?.(bytes));
  bridge.onClose(() => transport.onClose?.('The connection to Parley closed.'));
  return transport;
}
