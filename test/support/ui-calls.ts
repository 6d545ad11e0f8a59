/**
 * Calling the supervisor as the UI does, from a test: straight into its handlers (in-process), or
 * over the real bus of a running `parley ui` (WebSocket, a msgpack Peer checked as the page checks).
 */
import WebSocket from 'ws';
import type { ReqOf, ResOf, MethodName } from '../../protocol/messages.js';
import { Peer, type Handlers } from '../../protocol/peer.js';
import { validateInterpreted } from '../../protocol/validate-browser.js';
import { webSocketTransport } from '../../processes/supervisor/ui-server.js';

export type UiCall = <M extends MethodName>(method: M, payload: ReqOf<M>) => Promise<ResOf<M>>;

/** Calls the supervisor's UI handlers directly. */
export function handlerCaller(handlers: Handlers): UiCall {
  return async (method, payload) => {
    const handler = handlers[method] as ((p: unknown, ctx: unknown) => unknown) | undefined;
    if (!handler) throw new Error(`No handler for ${method}`);
    return (await handler(payload, { signal: new AbortController().signal, chunk: () => {} })) as never;
  };
}

/** Connects to a running `parley ui` at the URL it printed, as its page would (`peer` for calls that stream chunks). */
export async function busCaller(appUrl: string): Promise<{ call: UiCall; peer: Peer; close(): void }> {
  const url = new URL(appUrl);
  const ws = new WebSocket(`ws://${url.host}/bus?token=${url.searchParams.get('token')}`, { headers: { origin: url.origin } });
  const peer = new Peer(webSocketTransport(ws), { role: 'ui', validate: validateInterpreted });
  await peer.ready;
  return { call: (method, payload) => peer.call(method, payload), peer, close: () => peer.close() };
}
