import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ParleyError } from '../../../protocol/errors.js';
import { oauthErrorCode } from './token-endpoint.js';

/** What the authorization server sent back to the loopback redirect. */
export interface CallbackResult {
  code: string;
}

export interface LoopbackCallback {
  /** http://127.0.0.1:<port>/callback */
  redirectUri: string;
  /** Settles once: the code, or why there is none (state mismatch, error, timeout, abort). */
  result: Promise<CallbackResult>;
  close(): void;
}

const DONE_PAGE = page('Signed in', 'Parley received the authorization. You can close this tab and return to Parley.');

/**
 * A one-shot listener on 127.0.0.1 (random port, path /callback) for the authorization-code
 * redirect (RFC 8252 loopback redirect). It checks `state`, answers the browser with a page
 * saying it can be closed, and closes after the first callback, the timeout, or an abort.
 */
export async function startLoopbackCallback(expectedState: string, timeoutMs: number, signal?: AbortSignal): Promise<LoopbackCallback> {
  let settle: { resolve: (r: CallbackResult) => void; reject: (e: ParleyError) => void } | undefined;
  const result = new Promise<CallbackResult>((resolve, reject) => (settle = { resolve, reject }));
  // The flow may end before anyone awaits the result.
  result.catch(() => undefined);

  const server = createServer((req, res) => {
    const outcome = readCallback(req, expectedState);
    if (outcome === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
      return;
    }
    respond(res, outcome);
    finish(outcome);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  let closed = false;
  const shutDown = (): void => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    server.close();
    // Let the page reach the browser, then drop any idle keep-alive connection.
    setTimeout(() => sockets.forEach((s) => s.destroy()), 100).unref();
  };
  const finish = (outcome: CallbackResult | ParleyError): void => {
    shutDown();
    if (settle === undefined) return;
    const { resolve, reject } = settle;
    settle = undefined;
    if (outcome instanceof ParleyError) reject(outcome);
    else resolve(outcome);
  };
  const onAbort = (): void => finish(new ParleyError('cancelled', 'The sign-in was cancelled.'));
  const close = (): void => finish(new ParleyError('cancelled', 'The sign-in was cancelled.'));

  // Counted from now: the listener opens at once.
  const timer = setTimeout(
    () => finish(new ParleyError('oauth-callback-timeout', `No sign-in came back within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}; the browser flow was abandoned.`, { timeoutMs })),
    timeoutMs,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  return { redirectUri: `http://127.0.0.1:${port}/callback`, result, close };
}

/** undefined for a request that is not the callback (a favicon, a probe): it is ignored. */
function readCallback(req: IncomingMessage, expectedState: string): CallbackResult | ParleyError | undefined {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method !== 'GET' || url.pathname !== '/callback') return undefined;
  const params = url.searchParams;
  if (params.get('state') !== expectedState) {
    return new ParleyError('oauth-state-mismatch', 'The sign-in callback carried a state that does not match this request; it was refused.');
  }
  const error = params.get('error');
  if (error !== null) {
    const code = oauthErrorCode({ error }) ?? 'unknown_error';
    return new ParleyError('oauth-authorization-failed', `The authorization server refused the sign-in: ${code}.`, { error: code });
  }
  const code = params.get('code');
  if (code === null || code === '') return new ParleyError('oauth-bad-response', 'The sign-in callback carried no authorization code.');
  return { code };
}

function respond(res: ServerResponse, outcome: CallbackResult | ParleyError): void {
  const html =
    outcome instanceof ParleyError
      ? page('Sign-in failed', outcome.code === 'oauth-state-mismatch' ? 'This sign-in did not match the request Parley made, so it was refused. You can close this tab.' : `Sign-in failed (${escapeHtml(String((outcome.data as { error?: string } | undefined)?.error ?? outcome.code))}). You can close this tab.`)
      : DONE_PAGE;
  res.writeHead(outcome instanceof ParleyError ? 400 : 200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // Nothing on this page needs to load or run.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    connection: 'close',
  });
  res.end(html);
}

function page(title: string, text: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
