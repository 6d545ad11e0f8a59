/** A response that never ends: headers at once, then one byte every 50 ms until the client gives up. */
import type { ServerResponse } from 'node:http';

/** Starts trickling on `res`; it is in `open` until its connection closes (a client that gave up). */
export function trickle(res: ServerResponse, open: Set<ServerResponse>): void {
  res.writeHead(200, { 'content-type': 'application/yaml' });
  res.write('openapi: 3.0.3\n');
  open.add(res);
  // A YAML comment, byte by byte: each one resets a gap timeout, none ever completes the document.
  const timer = setInterval(() => res.write('#'), 50);
  res.once('close', () => {
    clearInterval(timer);
    open.delete(res);
  });
}
