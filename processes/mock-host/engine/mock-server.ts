/**
 * The mock's HTTP listener: node:http on 127.0.0.1 (0.0.0.0 with Listen on all interfaces),
 * targets that are not paths and repeated Host lines refused, Host checked, bodies capped, delays
 * honoured, every exchange logged with credentials masked and every value within the log's bounds.
 * An edit swaps the engine in place on the same port; Stop resets scenarios and turns.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { ParleyError } from '../../../protocol/errors.js';
import type { BodyPreview, Mock, MockHeader, MockLogEntry, MockProblem } from '../../../protocol/model/mock.js';
import { LOG_BYTES_KEPT, LOG_ENTRIES_KEPT, LOG_TEXT_CHARS, boundLogEntry, boundLogText, boundProblemsAndNotes } from '../../../protocol/mock-log-bounds.js';
import { MockEngine, type EngineReply } from './mock-engine.js';
import { MockState } from './mock-state.js';
import { preloadBodyQueries } from './request-values.js';
import { ScriptSandbox } from './script-sandbox.js';
import { LogRing, bodyPreview, headerPairs, maskHeaders, maskTarget } from './mock-log.js';
import type { RenderedResponse } from './render-response.js';
import type { ProblemReply } from './problem-reply.js';
import type { ContractChecker } from './contract.js';
import type { RegexRunner } from './match-conditions.js';
import type { SoapRoutingFactory } from './soap/soap-endpoint.js';

/** Request bodies over this are answered 413 (documented in docs/mock-files.md). */
export const MAX_REQUEST_BODY = 10 * 1024 * 1024;

export interface MockServerOptions {
  mock: Mock;
  /** Preferences > Mock services > Listen on all interfaces. */
  listenAllInterfaces?: boolean;
  /** The contract checker; without one, a mock whose check is not off logs "not checked". */
  checker?: ContractChecker;
  /** A SOAP mock's endpoint (routing, `?wsdl`, faults): soap/soap-endpoint.ts's `soapRouting`. */
  soap?: SoapRoutingFactory;
  /** Listen here when the mock's Port is 0: the port picked by an earlier run, kept across a host restart. */
  keepPort?: number;
  /** Every exchange's log entry, built at once. */
  onLog?: (entry: MockLogEntry) => void;
  /**
   * Every exchange as a record whose entry is built only when read (`record.entry()`): for a
   * caller that passes on only some of them (the host's batches keep the newest), so the rest
   * cost next to nothing.
   */
  onRecord?: (record: LogRecord) => void;
  logCapacity?: number;
  maxBodyBytes?: number;
  random?: () => number;
  now?: () => Date;
  newId?: () => string;
  scriptTimeoutMs?: number;
  checkTimeoutMs?: number;
  /** Runs match-condition patterns the linear engine cannot (the host's check pool); without one they do not hold. */
  regexRunner?: RegexRunner;
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
  soap?: SoapRoutingFactory;
}

/** Bodies up to this many bytes go out as text with the head, in one write; larger ones as bytes. */
const TEXT_PAYLOAD_MAX = 16 * 1024;

/** What the log keeps of what went on the wire: the headers and the body's preview, never the body. */
interface LoggedWire {
  /** The headers sent, as pairs. */
  sent: Array<[string, string]>;
  preview: BodyPreview;
  /** `sent` with credentials masked, made the first time a log entry needs it. */
  logged?: MockHeader[];
  /** The characters of `sent`, counted the first time a record is weighed. */
  sentChars?: number;
}

function pairChars(pairs: ReadonlyArray<readonly [string, string]>): number {
  let chars = 0;
  for (let i = 0; i < pairs.length; i++) chars += (pairs[i] as readonly [string, string])[0].length + (pairs[i] as readonly [string, string])[1].length;
  return chars;
}

/** What goes on the wire for a reply, worked out once per static response and per request otherwise. */
interface WireForm extends LoggedWire {
  /** writeHead's flat list: the reply's headers, Content-Length when a body is allowed, Connection: close when asked. */
  flat: string[];
  /** What `end` gets when a body goes out: text when it is small and UTF-8 (node:http then writes head and body at once), else the bytes. */
  payload: string | Buffer;
  bodyAllowed: boolean;
  /** Kept for every later request of a static response (its body is the response's own, held anyway). */
  shared: boolean;
}

/** What the log keeps of a reply: never its body, and its problems and notes within the log's bounds. */
type RecordedReply = Pick<EngineReply, 'status' | 'operation' | 'responseName' | 'problems' | 'notes'>;

/** `cached`: the form is kept for every later request, so turning a small body into text pays off. */
function wireForm(reply: ProblemReply, closeAfter: boolean, cached: boolean): WireForm {
  // 1xx, 204 and 304 carry no body, so they get no Content-Length either.
  const bodyAllowed = reply.status >= 200 && reply.status !== 204 && reply.status !== 304;
  const sent: Array<[string, string]> = bodyAllowed ? [...reply.headers, ['Content-Length', String(reply.body.byteLength)]] : [...reply.headers];
  if (closeAfter) sent.push(['Connection', 'close']);
  let payload: string | Buffer = reply.body;
  if (cached && reply.body.byteLength <= TEXT_PAYLOAD_MAX) {
    const text = reply.body.toString('utf8');
    if (Buffer.byteLength(text) === reply.body.byteLength && Buffer.from(text).equals(reply.body)) payload = text;
  }
  return { flat: sent.flat(), sent, payload, bodyAllowed, preview: bodyPreview(reply.body), shared: cached };
}

/**
 * The reply as a log record keeps it. A static reply is kept as it is (its body is shared, held
 * by the engine anyway); any other keeps only what the log shows, so a record never holds a body,
 * and a note or problem from outside (a script's error quoting a request value) only as a prefix.
 */
function recordedReply(reply: EngineReply): RecordedReply {
  if (reply.prepared && reply.notes.length === 0 && reply.problems.length === 0) return reply;
  const { problems, notes } = boundProblemsAndNotes(reply.problems, reply.notes);
  return { status: reply.status, operation: boundLogText(reply.operation), responseName: boundLogText(reply.responseName), problems, notes };
}

/** A wire form as a log record keeps it: a shared one as it is, any other without its payload and with its header values bounded. */
function loggedWire(wire: WireForm): LoggedWire {
  if (wire.shared) return wire;
  const long = wire.sent.some(([name, value]) => name.length > LOG_TEXT_CHARS || value.length > LOG_TEXT_CHARS);
  const sent = long ? wire.sent.map(([name, value]): [string, string] => [boundLogText(name), boundLogText(value)]) : wire.sent;
  return { sent, preview: wire.preview };
}

/** One exchange as it happened. Its log entry, credentials masked, is made on first read and kept. */
export class LogRecord {
  private built: MockLogEntry | undefined;
  private weighed: number | undefined;

  constructor(
    private readonly id: string | number,
    private readonly idPrefix: string,
    /** Milliseconds since the epoch, or the Date an injected clock gave. */
    private readonly arrived: number | Date,
    private readonly mockId: string,
    private readonly method: string,
    private readonly target: string,
    private readonly rawHeaders: readonly string[],
    private readonly requestBody: BodyPreview,
    private readonly reply: RecordedReply,
    private readonly wire: LoggedWire,
    private readonly durationMs: number,
  ) {}

  /**
   * About the bytes its entry comes to (characters of its text, a bounded prefix of each), counted
   * without building it: what the host's ring holds is bounded in bytes as well as in records.
   */
  get weight(): number {
    if (this.weighed !== undefined) return this.weighed;
    // Indexed loops: this runs for every request, and iterating pairs with destructuring costs more.
    let chars = 256 + this.target.length * 2 + this.requestBody.text.length + this.wire.preview.text.length;
    const raw = this.rawHeaders;
    for (let i = 0; i < raw.length; i++) chars += (raw[i] as string).length;
    chars += (this.wire.sentChars ??= pairChars(this.wire.sent));
    const { notes, problems } = this.reply;
    for (let i = 0; i < notes.length; i++) chars += (notes[i] as string).length;
    for (let i = 0; i < problems.length; i++) chars += 24 + (problems[i] as MockProblem).pointer.length + (problems[i] as MockProblem).message.length;
    return (this.weighed = chars);
  }

  entry(): MockLogEntry {
    if (this.built) return this.built;
    const requestHeaders = maskHeaders(headerPairs(this.rawHeaders));
    const path = maskTarget(this.target);
    const reply = this.reply;
    this.built = boundLogEntry({
      id: typeof this.id === 'number' ? `${this.idPrefix}-${this.id}` : this.id,
      time: (typeof this.arrived === 'number' ? new Date(this.arrived) : this.arrived).toISOString(),
      mock: this.mockId,
      method: this.method,
      path,
      operation: reply.operation,
      responseName: reply.responseName,
      status: reply.status,
      durationMs: this.durationMs,
      request: { method: this.method, path, headers: requestHeaders, body: this.requestBody },
      response: { status: reply.status, headers: (this.wire.logged ??= maskHeaders(this.wire.sent)), body: this.wire.preview },
      problems: reply.problems,
      notes: reply.notes,
    });
    return this.built;
  }
}

export class MockServer {
  private server: Server | null = null;
  private engine: MockEngine;
  private options: MockServerOptions;
  private boundPort = 0;
  private boundHost = '';
  private readonly state = new MockState();
  private sandbox: ScriptSandbox | null = null;
  private readonly ring: LogRing<LogRecord>;
  /** Log ids: a random prefix per server and a counter, cheaper than a UUID per request. */
  private readonly idPrefix = randomBytes(6).toString('hex');
  private sequence = 0;
  /** What goes on the wire for each static response, worked out once. */
  private readonly wires = new WeakMap<RenderedResponse, WireForm>();
  /** The last Host header judged and the verdict: clients send the same one again and again. */
  private lastHost: string | undefined;
  private lastHostAllowed = false;

  constructor(options: MockServerOptions) {
    this.options = options;
    this.ring = new LogRing(options.logCapacity ?? LOG_ENTRIES_KEPT, LOG_BYTES_KEPT);
    this.engine = this.makeEngine(options.mock, options.checker);
  }

  get address(): MockAddress {
    const path = this.options.mock.path.replace(/\/+$/, '');
    return { port: this.boundPort, url: `http://127.0.0.1:${this.boundPort}${path}` };
  }

  async start(): Promise<MockAddress> {
    if (this.server) return this.address;
    preloadBodyQueries(this.options.mock);
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
      ...(next.soap === undefined ? {} : { soap: next.soap }),
    };
    preloadBodyQueries(next.mock);
    this.engine = this.makeEngine(next.mock, this.options.checker);
    this.lastHost = undefined;
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
    return this.ring.entries().map((r) => r.entry());
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
      ...(this.options.regexRunner ? { regexRunner: this.options.regexRunner } : {}),
      ...(this.options.soap ? { soap: this.options.soap } : {}),
    });
  }

  private hostToBind(): string {
    return this.options.listenAllInterfaces ? '0.0.0.0' : '127.0.0.1';
  }

  private listen(host: string, port: number): Promise<void> {
    const server = createServer((req, res) => this.serve(req, res));
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
        this.lastHost = undefined;
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
    if (host !== undefined && host === this.lastHost) return this.lastHostAllowed;
    const m = host ? HOST_PATTERN.exec(host) : null;
    const allowed = !!m && (m[2] === undefined || Number(m[2]) === this.boundPort);
    if (host !== undefined && host.length <= 300) {
      this.lastHost = host;
      this.lastHostAllowed = allowed;
    }
    return allowed;
  }

  /**
   * One exchange. Nothing waits unless something must (a body to read, a contract check or a
   * dispatch script that answers later, a delay), so a static answer is written in the same turn
   * the request arrived in. Nothing one request does may take the host down: a failure (a throwing
   * onLog) ends that exchange only.
   */
  private serve(req: IncomingMessage, res: ServerResponse): void {
    const exchange: Exchange = {
      started: performance.now(),
      arrived: this.options.now?.() ?? Date.now(),
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      rawHeaders: req.rawHeaders,
      body: NO_BODY,
      engine: this.engine,
    };
    try {
      const refused = framingRefusal(exchange);
      if (refused) {
        this.send(res, exchange, bare(refused), true);
        return;
      }
      if (!this.hostAllowed(req.headers.host)) {
        const refused = exchange.engine.ownReply(421, 'mock-host-refused', 'Host refused', 'This mock answers only requests for 127.0.0.1 or localhost.', { host: req.headers.host ?? '' });
        this.send(res, exchange, bare(refused), true);
        return;
      }
      if (exchange.target === '*') {
        // `OPTIONS *` (the only method framingRefusal lets through with it) asks about the server, not a route.
        this.send(res, exchange, serverOptions(exchange.engine), false);
        return;
      }
      const limit = this.options.maxBodyBytes ?? MAX_REQUEST_BODY;
      // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 6.3); node:http
      // discards the empty stream itself once the response ends.
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
        this.dispatch(res, exchange);
        return;
      }
      readBody(req, limit).then(
        (read) => {
          try {
            if (read === null) {
              const tooLarge = exchange.engine.ownReply(413, 'mock-body-too-large', 'Request body too large', `This mock reads request bodies up to ${limit} bytes.`, { limit });
              this.send(res, exchange, bare(tooLarge), true);
              return;
            }
            exchange.body = read;
            this.dispatch(res, exchange);
          } catch {
            failed(res);
          }
        },
        () => failed(res),
      );
    } catch {
      failed(res);
    }
  }

  private dispatch(res: ServerResponse, exchange: Exchange): void {
    let reply: EngineReply | Promise<EngineReply>;
    try {
      reply = exchange.engine.handle({ method: exchange.method, target: exchange.target, rawHeaders: exchange.rawHeaders, body: exchange.body });
    } catch (err) {
      reply = internal(exchange.engine, err);
    }
    if (reply instanceof Promise) {
      reply.then(
        (r) => this.sendSafely(res, exchange, r),
        (err: unknown) => this.sendSafely(res, exchange, internal(exchange.engine, err)),
      );
    } else this.send(res, exchange, reply, false);
  }

  private sendSafely(res: ServerResponse, exchange: Exchange, reply: EngineReply): void {
    try {
      this.send(res, exchange, reply, false);
    } catch {
      failed(res);
    }
  }

  private send(res: ServerResponse, exchange: Exchange, reply: EngineReply, closeAfter: boolean): void {
    reply.commit?.();
    if (reply.delayMs > 0) {
      setTimeout(() => {
        try {
          this.write(res, exchange, reply, closeAfter);
        } catch {
          failed(res);
        }
      }, reply.delayMs);
      return;
    }
    this.write(res, exchange, reply, closeAfter);
  }

  private write(res: ServerResponse, exchange: Exchange, reply: EngineReply, closeAfter: boolean): void {
    const wire = this.wireOf(reply, closeAfter);
    try {
      res.writeHead(reply.status, wire.flat);
      if (exchange.method === 'HEAD' || !wire.bodyAllowed) res.end();
      else res.end(wire.payload);
    } catch (err) {
      // Headers are checked before this point; this is the last guard, not a path taken.
      reply.notes.push(`The response could not be written: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500).end();
    }
    this.record(exchange, reply, wire);
  }

  private wireOf(reply: EngineReply, closeAfter: boolean): WireForm {
    const prepared = reply.prepared;
    if (!prepared || closeAfter) return wireForm(reply, closeAfter, false);
    let wire = this.wires.get(prepared);
    if (!wire) this.wires.set(prepared, (wire = wireForm(prepared, false, true)));
    return wire;
  }

  private record(exchange: Exchange, reply: EngineReply, wire: WireForm): void {
    const newId = this.options.newId;
    const record = new LogRecord(
      newId ? newId() : ++this.sequence,
      this.idPrefix,
      exchange.arrived,
      exchange.engine.mock.id,
      exchange.method,
      exchange.target,
      exchange.rawHeaders,
      bodyPreview(exchange.body),
      recordedReply(reply),
      loggedWire(wire),
      Math.round((performance.now() - exchange.started) * 100) / 100,
    );
    this.ring.push(record, record.weight);
    this.options.onRecord?.(record);
    if (this.options.onLog) this.options.onLog(record.entry());
  }
}

const HOST_PATTERN = /^(127\.0\.0\.1|localhost)(?::(\d{1,5}))?$/i;

/** What one exchange carries from arrival to its log record. */
interface Exchange {
  started: number;
  arrived: number | Date;
  method: string;
  target: string;
  rawHeaders: string[];
  body: Buffer;
  /** The engine at arrival: an edit meanwhile does not change how this request is answered. */
  engine: MockEngine;
}

function failed(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(500).end();
  else if (!res.writableEnded) res.destroy();
}

function internal(engine: MockEngine, err: unknown): EngineReply {
  // The mock keeps serving whatever one request did; the log keeps the reason.
  const reply = bare(engine.ownReply(500, 'mock-internal', 'Mock failed', 'The mock could not answer this request; the mock log says why.'));
  reply.notes.push(err instanceof Error ? err.message : String(err));
  return reply;
}

function bare(reply: ProblemReply): EngineReply {
  return { ...reply, delayMs: 0, operation: '', responseName: '', problems: [], notes: [] };
}

/**
 * A request the mock must refuse before anything reads it, as an origin server behind a proxy
 * must (RFC 9112 3.2, 3.2.2): a target that is not a path (absolute form, `GET http://evil.com/x`,
 * names a host other than the Host header's, which is what a proxy is sent; `*` is for OPTIONS
 * only), or two Host header lines (which one names the host is left to each reader). 400, the
 * connection closed after it, logged like any answer.
 */
function framingRefusal(exchange: Exchange): ProblemReply | undefined {
  const target = exchange.target;
  const engine = exchange.engine;
  if (target.charCodeAt(0) !== SLASH && !(target === '*' && exchange.method === 'OPTIONS')) {
    // The target itself is not quoted: a full URL can carry a password, and the log shows it masked.
    const form = target === '*' ? '*, which only OPTIONS may send' : ABSOLUTE_FORM.test(target) ? 'a full URL (absolute form), which only a proxy is sent' : 'not a path';
    return engine.ownReply(400, 'mock-target-refused', 'Request target refused', `This mock answers request targets that are paths, such as /pets?limit=5; this one is ${form}.`);
  }
  let hosts = 0;
  const raw = exchange.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    // Compared without lowering a copy: this runs for every request.
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) hosts++;
  }
  if (hosts > 1) {
    return engine.ownReply(400, 'mock-host-repeated', 'Host header repeated', `The request has ${hosts} Host header lines; a request names its host once (RFC 9112, section 3.2).`, { hosts });
  }
  return undefined;
}

const SLASH = 0x2f;
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The answer to `OPTIONS *`: the methods this mock answers some route with, and no body. */
function serverOptions(engine: MockEngine): EngineReply {
  return { status: 204, headers: [['Allow', engine.methods.join(', ')]], body: NO_BODY, delayMs: 0, operation: '', responseName: '', problems: [], notes: [] };
}

const NO_BODY = Buffer.alloc(0);

/** The whole body, or null when it is over `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
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
