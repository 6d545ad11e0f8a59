/**
 * A real server-sent events server on 127.0.0.1 for tests: events with names, ids and multi-line
 * data, comments and `retry:` fields, keep-alive comments, a gzip-encoded stream, Set-Cookie on
 * a stream, a stream that drops its connection mid-way, one of 20,000 events, one of large
 * events, and one that runs until the client goes (and says when it went).
 *
 *   /events?count=N&every=MS     N events (a comment and a retry field first), one every MS ms, then the end
 *   /keepalive?pings=N&every=MS  N keep-alive comments MS ms apart, then one event and the end
 *   /drop?after=N                N events, then the socket is destroyed (no end of the chunked body)
 *   /many?count=N                N small events written as fast as the client reads them
 *   /many?count=N&rate=R         the same events offered at R a second (in 10 ms steps), never faster
 *   /big?count=N&bytes=B         N events whose data is B bytes each
 *   /endless?every=MS&cookie=1   an event every MS ms until the client goes (with Set-Cookie when asked)
 *   /gzip?count=N                N events, gzip-encoded
 *   /cookie                      Set-Cookie: stream-session=...; then events
 *   /json                        a plain JSON body (not a stream)
 *   /xml                         a plain XML body
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createGzip } from 'node:zlib';

export interface SseServer {
  url: string;
  /** Every request's path and query, in order. */
  hits: string[];
  /** How many `/endless` streams the client closed. */
  endlessClosed: () => number;
  close(): Promise<void>;
}

export const STREAM_COOKIE = 'stream-session=c00k1e-v4lue';

/** The text of event `i` of `/events`, `/drop` and `/many`: JSON data, so queries can read it. */
export function eventText(i: number, name = i % 2 === 0 ? 'tick' : 'tock'): string {
  return `event: ${name}\nid: ${i}\ndata: {"n":${i},"even":${i % 2 === 0},"label":"item ${i}"}\n\n`;
}

export async function startSseServer(): Promise<SseServer> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  let endlessClosed = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    hits.push(req.url ?? '/');
    const url = new URL(req.url ?? '/', 'http://x');
    const num = (name: string, fallback: number) => Number(url.searchParams.get(name) ?? fallback);
    const head = (extra: Record<string, string | string[]> = {}) => res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', ...extra });
    switch (url.pathname) {
      case '/events': {
        head();
        res.write(': stream starts\nretry: 3000\n\n');
        const count = num('count', 5);
        const every = num('every', 0);
        let i = 0;
        const next = () => {
          if (res.destroyed) return;
          if (i >= count) return void res.end();
          i++;
          res.write(i === 3 ? 'data: first line\ndata: second line\nid: 3\n\n' : eventText(i));
          if (every > 0) setTimeout(next, every);
          else next();
        };
        next();
        return;
      }
      case '/keepalive': {
        head();
        let left = num('pings', 3);
        const every = num('every', 100);
        const ping = () => {
          if (res.destroyed) return;
          if (left-- > 0) {
            res.write(': keep-alive\n\n');
            setTimeout(ping, every);
          } else res.end('event: done\ndata: after the pings\n\n');
        };
        ping();
        return;
      }
      case '/drop': {
        head();
        const after = num('after', 3);
        for (let i = 1; i <= after; i++) res.write(eventText(i));
        // Give the written events time to leave, then cut the connection without ending the body.
        setTimeout(() => req.socket.destroy(), 100);
        return;
      }
      case '/many': {
        head();
        writeMany(res, num('count', 20_000), num('rate', 0));
        return;
      }
      case '/big': {
        head();
        const count = num('count', 1);
        const data = 'x'.repeat(num('bytes', 1024));
        let i = 0;
        const write = () => {
          while (i < count) {
            i++;
            if (!res.write(`id: ${i}\ndata: ${data}\n\n`)) return void res.once('drain', write);
          }
          res.end();
        };
        write();
        return;
      }
      case '/endless': {
        head(url.searchParams.has('cookie') ? { 'Set-Cookie': [`${STREAM_COOKIE}; Path=/`] } : {});
        const every = num('every', 50);
        let i = 0;
        const timer = setInterval(() => res.write(eventText(++i)), every);
        res.on('close', () => {
          clearInterval(timer);
          endlessClosed++;
        });
        return;
      }
      case '/gzip': {
        head({ 'Content-Encoding': 'gzip' });
        const gzip = createGzip();
        gzip.pipe(res);
        for (let i = 1; i <= num('count', 5); i++) gzip.write(eventText(i));
        gzip.end();
        return;
      }
      case '/cookie': {
        head({ 'Set-Cookie': [`${STREAM_COOKIE}; Path=/; HttpOnly`] });
        // The cookie must be in the jar before this event: the client says so by asking for it next.
        res.end(eventText(1));
        return;
      }
      case '/json':
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ store: { book: [{ title: 'A', price: 8 }, { title: 'B', price: 22 }] } }));
        return;
      case '/xml':
        res.writeHead(200, { 'Content-Type': 'application/xml' }).end('<store><book price="8">A</book></store>');
        return;
      default:
        res.writeHead(404).end();
    }
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    endlessClosed: () => endlessClosed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `count` events as fast as the socket takes them (respecting back-pressure), then the end. */
/**
 * `/many`: `count` events, as fast as the client reads them or, with a `rate`, offered at that many
 * a second: each 10 ms step writes the events due by then (a slow reader still holds the writer
 * back, so the rate is an upper bound the client can meet, never exceed).
 */
function writeMany(res: ServerResponse, count: number, rate: number): void {
  let i = 0;
  const started = performance.now();
  const due = () => (rate > 0 ? Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000)) : count);
  const write = () => {
    if (res.destroyed) return;
    // What is due is read once a turn: the clock is not asked once per event.
    const until = due();
    while (i < until) {
      let chunk = '';
      for (let k = 0; k < 200 && i < until; k++) chunk += eventText(++i);
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    if (i >= count) return void res.end();
    setTimeout(write, 10);
  };
  write();
}
