/**
 * The mock's HTTP listener: node:http on 127.0.0.1 (0.0.0.0 with Listen on all interfaces),
 * Host checked, bodies capped, delays honoured, every exchange logged with credentials masked.
 * An edit swaps the engine in place on the same port; Stop resets scenarios and turns.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { ParleyError } from '../../../protocol/errors.js';
import type { BodyPreview, Mock, MockLogEntry } from '../../../protocol/model/mock.js';
import { MockEngine, type EngineReply, type IncomingRequest } from './mock-engine.js';
import { MockState } from './mock-state.js';
import { ScriptSandbox } from './script-sandbox.js';
import { LogRing, bodyPreview, maskHeaders, maskTarget } from './mock-log.js';
import { problemReply } from './problem-reply.js';
import type { ContractChecker } from './contract.js';

/** Request bodies over this are answered 413 (documented in docs/mock-files.md). */
export const MAX_REQUEST_BODY = 10 * 1024 * 1024;

export interface MockServerOptions {
  mock: Mock;
  /** Preferences > Mock services > Listen on all interfaces. */
  listenAllInterfaces?: boolean;
  /** The contract checker; without one, a mock whose check is not off logs "not checked". */
  checker?: ContractChecker;
  /** Listen here when the mock's Port is 0: the port picked by an earlier run, kept across a host restart. */
  keepPort?: number;
  onLog?: (entry: MockLogEntry) => void;
  logCapacity?: number;
  maxBodyBytes?: number;
  random?: () => number;
  now?: () => Date;
  newId?: () => string;
  scriptTimeoutMs?: number;
  checkTimeoutMs?: number;
}

export interface MockAddress {
  port: number;
  /** e.g. http://127.0.0.1:4010/museum */
  url: string;
}

export interface MockReconfiguration {
  mock: Mock;
  listenAllInterfaces?: boolean;
  checker?: ContractChecker;
}

export class MockServer {
  private server: Server | null = null;
  private engine: MockEngine;
  private options: MockServerOptions;
  private boundPort = 0;
  private boundHost = '';
  private readonly state = new MockState();
  private sandbox: ScriptSandbox | null = null;
  private readonly ring: LogRing;
  /** Log ids: a random prefix per server and a counter, cheaper than a UUID per request. */
  private readonly idPrefix = randomBytes(6).toString('hex');
  private sequence = 0;
  /** Previews of static response bodies, made once per body. */
  private readonly previews = new WeakMap<Buffer, BodyPreview>();

  constructor(options: MockServerOptions) {
    this.options = options;
    this.ring = new LogRing(options.logCapacity ?? 500);
    this.engine = this.makeEngine(options.mock, options.checker);
  }

  get address(): MockAddress {
    const path = this.options.mock.path.replace(/\/+$/, '');
    return { port: this.boundPort, url: `http://127.0.0.1:${this.boundPort}${path}` };
  }

  async start(): Promise<MockAddress> {
    if (this.server) return this.address;
    const port = this.options.mock.port || this.options.keepPort || 0;
    await this.listen(this.hostToBind(), port);
    return this.address;
  }

  /**
   * Applies an edit at once. Scenario states and In order turns are kept; the port is kept unless
   * the mock names another one; the listener is re-bound only when port or interface changed.
   */
  async reconfigure(next: MockReconfiguration): Promise<MockAddress> {
    this.options = {
      ...this.options,
      mock: next.mock,
      ...(next.listenAllInterfaces === undefined ? {} : { listenAllInterfaces: next.listenAllInterfaces }),
      ...(next.checker === undefined ? {} : { checker: next.checker }),
    };
    this.engine = this.makeEngine(next.mock, this.options.checker);
    if (!this.server) return this.address;
    const port = next.mock.port || this.boundPort;
    const host = this.hostToBind();
    if (port !== this.boundPort || host !== this.boundHost) {
      await this.close();
      await this.listen(host, port);
    }
    return this.address;
  }

  /** Reset state: every scenario back to Started, every In order turn back to the first response. */
  resetState(): void {
    this.state.reset();
  }

  /** Stops listening; scenarios and turns return to the start. The log is kept. */
  async stop(): Promise<void> {
    await this.close();
    this.state.reset();
    this.sandbox?.dispose();
    this.sandbox = null;
  }

  logEntries(): MockLogEntry[] {
    return this.ring.entries();
  }

  clearLog(): void {
    this.ring.clear();
  }

  private makeEngine(mock: Mock, checker: ContractChecker | undefined): MockEngine {
    return new MockEngine(mock, {
      state: this.state,
      sandbox: () => (this.sandbox ??= new ScriptSandbox({ timeoutMs: this.options.scriptTimeoutMs ?? 1000 })),
      random: this.options.random ?? Math.random,
      checkTimeoutMs: this.options.checkTimeoutMs ?? 1000,
      ...(checker ? { checker } : {}),
    });
  }

  private hostToBind(): string {
    return this.options.listenAllInterfaces ? '0.0.0.0' : '127.0.0.1';
  }

  private listen(host: string, port: number): Promise<void> {
    const server = createServer((req, res) => {
      // Nothing one request does may take the host down: a failure here (a throwing onLog) ends
      // that exchange only.
      this.serve(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else if (!res.writableEnded) res.destroy();
      });
    });
    server.keepAliveTimeout = 5000;
    return new Promise((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        const code = err.code === 'EADDRINUSE' ? 'mock-port-in-use' : 'mock-listen-failed';
        const message = err.code === 'EADDRINUSE' ? `Port ${port} is already in use.` : `The mock could not listen on ${host}:${port} (${err.code ?? err.message}).`;
        reject(new ParleyError(code, message, { port }));
      });
      server.listen({ host, port }, () => {
        this.server = server;
        this.boundHost = host;
        this.boundPort = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** A Host other than 127.0.0.1 or localhost (on this port) is refused, unless listening on all interfaces. */
  private hostAllowed(host: string | undefined): boolean {
    if (this.options.listenAllInterfaces) return true;
    const m = host ? /^(127\.0\.0\.1|localhost)(?::(\d{1,5}))?$/i.exec(host) : null;
    return !!m && (m[2] === undefined || Number(m[2]) === this.boundPort);
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const time = (this.options.now?.() ?? new Date()).toISOString();
    const method = req.method ?? 'GET';
    const target = originForm(req.url ?? '/');
    const headers: Array<[string, string]> = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
    const engine = this.engine;

    let reply: EngineReply;
    let body: Buffer = Buffer.alloc(0);
    let closeAfter = false;
    if (!this.hostAllowed(req.headers.host)) {
      reply = bare(problemReply(421, 'mock-host-refused', 'Host refused', 'This mock answers only requests for 127.0.0.1 or localhost.', { host: req.headers.host ?? '' }));
      closeAfter = true;
    } else {
      const read = await readBody(req, this.options.maxBodyBytes ?? MAX_REQUEST_BODY);
      if (read === null) {
        const limit = this.options.maxBodyBytes ?? MAX_REQUEST_BODY;
        reply = bare(problemReply(413, 'mock-body-too-large', 'Request body too large', `This mock reads request bodies up to ${limit} bytes.`, { limit }));
        closeAfter = true;
      } else {
        body = read;
        reply = await this.dispatch(engine, { method, target, headers, body });
      }
    }

    reply.commit?.();
    if (reply.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    // 1xx, 204 and 304 carry no body, so they get no Content-Length either.
    const bodyAllowed = reply.status >= 200 && reply.status !== 204 && reply.status !== 304;
    const sent: Array<[string, string]> = bodyAllowed ? [...reply.headers, ['Content-Length', String(reply.body.byteLength)]] : [...reply.headers];
    if (closeAfter) sent.push(['Connection', 'close']);
    try {
      res.writeHead(reply.status, sent.flat());
      res.end(method === 'HEAD' || !bodyAllowed ? undefined : reply.body);
    } catch (err) {
      // Headers are checked before this point; this is the last guard, not a path taken.
      reply.notes.push(`The response could not be written: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500).end();
    }

    this.record({
      id: this.options.newId?.() ?? `${this.idPrefix}-${++this.sequence}`,
      time,
      mock: engine.mock.id,
      method,
      path: maskTarget(target),
      operation: reply.operation,
      responseName: reply.responseName,
      status: reply.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      request: { method, path: maskTarget(target), headers: maskHeaders(headers), body: bodyPreview(body) },
      response: { status: reply.status, headers: maskHeaders(sent), body: this.previewOf(reply.body) },
      problems: reply.problems,
      notes: reply.notes,
    });
  }

  private async dispatch(engine: MockEngine, request: IncomingRequest): Promise<EngineReply> {
    try {
      return await engine.handle(request);
    } catch (err) {
      // The mock keeps serving whatever one request did; the log keeps the reason.
      const reply = bare(problemReply(500, 'mock-internal', 'Mock failed', 'The mock could not answer this request; the mock log says why.'));
      reply.notes.push(err instanceof Error ? err.message : String(err));
      return reply;
    }
  }

  private previewOf(body: Buffer): BodyPreview {
    let preview = this.previews.get(body);
    if (!preview) this.previews.set(body, (preview = bodyPreview(body)));
    return preview;
  }

  private record(entry: MockLogEntry): void {
    this.ring.push(entry);
    this.options.onLog?.(entry);
  }
}

function bare(reply: ReturnType<typeof problemReply>): EngineReply {
  return { ...reply, delayMs: 0, operation: '', responseName: '', problems: [], notes: [] };
}

/** Turns an absolute-form target (as a proxy would send) into path and query. */
function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return '/';
  }
}

const NO_BODY = Buffer.alloc(0);

/** The whole body, or null when it is over `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 6.3); node:http
  // discards the empty stream itself once the response ends.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return Promise.resolve(NO_BODY);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.byteLength;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    req.on('error', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
  });
}
