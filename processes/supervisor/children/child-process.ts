/**
 * One supervised child process: spawned with a duplex bus pipe on fd 3, watched by heartbeat,
 * restarted with backoff when it dies, killed when it hangs or overruns a call's budget.
 * Calls in flight when it dies fail with `child-died` and a message saying what happened,
 * including the error the child itself printed last (a missing native module, a crash).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { Peer, CallOptions, Handlers } from '../../../protocol/peer.js';
import type * as ChildBus from './child-bus.js';
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import { BUS_MAX_FRAME_ENV, BUS_MAX_MESSAGE_ENV } from '../../../protocol/framing.js';
import type { MethodName, ReqOf, ResOf } from '../../../protocol/messages.js';
import { VAULT_PASSPHRASE_ENV } from '../store/vault-secrets.js';

export type ChildState = 'starting' | 'running' | 'restarting' | 'stopped';

export interface ChildSpec {
  /** Shown to users: "the sender process". */
  name: string;
  entry: string;
  args?: string[];
  execArgv?: string[];
  env?: Record<string, string>;
  /** Restart after an unexpected exit (long-lived services); one-shot jobs say false. */
  restart: boolean;
  heartbeatMs?: number;
  /** A heartbeat unanswered this long marks the child hung; it is killed and restarted. */
  hangMs?: number;
  log?: (line: string) => void;
  /** What the supervisor answers when the child calls it (the sender asks the cookie jar). */
  serve?: Handlers;
  /**
   * The largest message on this link, each way, when it carries definitions and mocks
   * (LARGE_MESSAGE_LIMIT): over a frame, it goes in parts. The child is told in its environment
   * (BUS_MAX_MESSAGE_ENV), so both ends agree. Default: one frame.
   */
  maxMessage?: number;
  /** The link's frame, each way, when not DEFAULT_MAX_FRAME (tests make it small, so a message goes in parts). */
  maxFrame?: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildCallOptions<M extends MethodName> extends CallOptions<M> {
  /** Kill the child if the call has not answered in this many ms. */
  budgetMs?: number;
}

const BACKOFF_START_MS = 100;
const BACKOFF_MAX_MS = 5_000;
const STABLE_AFTER_MS = 30_000;

export class ChildProcessHandle {
  readonly spec: ChildSpec;
  state: ChildState = 'stopped';
  restarts = 0;
  lastExit: ExitInfo | null = null;
  /** The error line the last child printed on stderr before it exited, if any (see lastWords). */
  lastWords = '';
  /** Why this handle killed the current child itself (a missed heartbeat), said with its exit. */
  private killedFor = '';
  private child: ChildProcess | null = null;
  private peer: Peer | null = null;
  private startedAt = 0;
  private consecutiveFailures = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private runningWaiters: { resolve(peer: Peer): void; reject(err: ParleyError): void }[] = [];
  private exitWaiters: ((info: ExitInfo) => void)[] = [];
  private readonly statusListeners = new Set<(state: ChildState, message?: string) => void>();
  private stopping = false;

  constructor(spec: ChildSpec) {
    this.spec = spec;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get currentPeer(): Peer | null {
    return this.peer;
  }

  onStatus(listener: (state: ChildState, message?: string) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Starts the child and resolves once it answered the version handshake. */
  async start(): Promise<void> {
    this.stopping = false;
    await this.launch();
  }

  async call<M extends MethodName>(type: M, payload: ReqOf<M>, options: ChildCallOptions<M> = {}): Promise<ResOf<M>> {
    const peer = await this.whenRunning(options.signal);
    const child = this.child;
    let budgetTimer: NodeJS.Timeout | null = null;
    let overran = false;
    if (options.budgetMs !== undefined) {
      budgetTimer = setTimeout(() => {
        overran = true;
        this.spec.log?.(`${this.spec.name} overran its ${options.budgetMs} ms budget on ${type}; killing it`);
        child?.kill('SIGKILL');
      }, options.budgetMs);
    }
    try {
      return await peer.call(type, payload, options);
    } catch (err) {
      if (overran) {
        throw new ParleyError('budget-exceeded', `The ${this.spec.name} took longer than its ${options.budgetMs} ms budget and was stopped.`);
      }
      if (hasCode(err, 'peer-closed')) throw await this.diedError(type);
      throw err;
    } finally {
      if (budgetTimer) clearTimeout(budgetTimer);
    }
  }

  /** Resolves with the exit of the current child (or at once if none is running). */
  waitForExit(): Promise<ExitInfo> {
    if (!this.child) return Promise.resolve(this.lastExit ?? { code: null, signal: null });
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  /** Asks the child to shut down, and kills it if it has not gone within `graceMs`. */
  async stop(graceMs = 1_000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.stopHeartbeat();
    const child = this.child;
    if (!child) {
      this.setState('stopped');
      this.failWaiters(new ParleyError('shutting-down', `The ${this.spec.name} is stopped.`));
      return;
    }
    const exited = this.waitForExit();
    // Not yet on the bus (still loading its code): nothing to finish, so no grace to wait out.
    if (this.peer) this.peer.call('sys.shutdown', {}).catch(() => {});
    else child.kill('SIGKILL');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
    this.failWaiters(new ParleyError('shutting-down', `The ${this.spec.name} is stopped.`));
  }

  /** For tests and the hang detector: kill -9 now. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.child?.kill(signal);
  }

  private async launch(): Promise<void> {
    this.setState(this.restarts > 0 ? 'restarting' : 'starting');
    const child = spawn(process.execPath, [...(this.spec.execArgv ?? []), this.spec.entry, ...(this.spec.args ?? [])], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: this.childEnv(),
    });
    this.child = child;
    this.killedFor = '';
    this.startedAt = Date.now();
    const log = this.spec.log ?? (() => {});
    const prefix = (data: Buffer) => {
      for (const line of data.toString('utf8').split('\n')) if (line.trim()) log(`[${this.spec.name}] ${line}`);
    };
    child.stdout?.on('data', prefix);
    // The newest stderr is kept: when the child dies, what it said is the why.
    let stderrTail = '';
    child.stderr?.on('data', (data: Buffer) => {
      prefix(data);
      stderrTail = (stderrTail + data.toString('utf8')).slice(-STDERR_KEPT);
    });
    const stderrEnded = new Promise<void>((resolve) => {
      if (!child.stderr) return resolve();
      child.stderr.once('end', resolve);
      child.stderr.once('close', resolve);
    });

    // 'exit' can come before the last of stderr has been read: wait for it, briefly.
    child.once('exit', (code, signal) => {
      void Promise.race([stderrEnded, delay(STDERR_WAIT_MS)]).then(() => this.exited(child, { code, signal }, lastWords(stderrTail)));
    });
    child.once('error', (err) => log(`[${this.spec.name}] spawn failed: ${err.message}`));

    // The bus code is loaded after the spawn, so a short-lived CLI's first child boots meanwhile
    // (about 35 ms sooner for `parley mock serve`); the pipe holds what the child writes until then.
    const { Peer, streamTransport, validateCompiled, messageScope } = await busCode();
    if (this.child !== child) throw this.startFailure(this.lastExit);
    const peer = new Peer(streamTransport(child.stdio[3] as Duplex, this.spec.maxFrame), {
      role: 'supervisor',
      pid: process.pid,
      validate: validateCompiled,
      scope: messageScope,
      onProtocolError: (err) => log(`[${this.spec.name}] bus: ${err.code}: ${err.message}`),
      onHandlerError: (type, err) => log(`[${this.spec.name}] handling ${type} from it failed: ${describeError(err)}`),
      ...(this.spec.serve ? { handlers: this.spec.serve } : {}),
      ...(this.spec.maxMessage ? { maxMessage: this.spec.maxMessage } : {}),
      ...(this.spec.maxFrame ? { maxFrame: this.spec.maxFrame } : {}),
    });
    this.peer = peer;

    try {
      await peer.ready;
    } catch (err) {
      // The pipe broke because the child died (ECONNRESET says nothing): say how, and what it printed.
      if (hasCode(err, 'version-mismatch')) throw new ParleyError('child-died', `The ${this.spec.name} did not start: ${(err as Error).message}`);
      const info = this.child === child ? await Promise.race([this.waitForExit(), delay(START_EXIT_WAIT_MS).then(() => null)]) : this.lastExit;
      if (!info) throw new ParleyError('child-died', `The ${this.spec.name} did not start: ${(err as Error).message}`);
      throw this.startFailure(info);
    }
    if (this.child !== child) return;
    this.setState('running');
    this.startHeartbeat(peer, child);
    const waiters = this.runningWaiters;
    this.runningWaiters = [];
    for (const waiter of waiters) waiter.resolve(peer);
  }

  /** This process's environment for the child, with the link's limits as this spec sets them (never as inherited). */
  private childEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, ...this.spec.env };
    // The vault's passphrase is the supervisor's alone: no child needs it, nor a script's process.
    delete env[VAULT_PASSPHRASE_ENV];
    delete env[BUS_MAX_MESSAGE_ENV];
    delete env[BUS_MAX_FRAME_ENV];
    if (this.spec.maxMessage) env[BUS_MAX_MESSAGE_ENV] = String(this.spec.maxMessage);
    if (this.spec.maxFrame) env[BUS_MAX_FRAME_ENV] = String(this.spec.maxFrame);
    return env;
  }

  private startFailure(info: ExitInfo | null): ParleyError {
    const how = info ? exitWords(info) : 'it exited';
    const said = info && this.lastWords ? `: ${this.lastWords}` : '';
    return new ParleyError('child-died', `The ${this.spec.name} could not start (${how})${said}`, { exit: info });
  }

  /** How the child ended, with the error it printed (kill -9 leaves none). */
  private describeLastExit(info: ExitInfo): string {
    const how = this.killedFor ? `${describeExit(this.spec.name, info).slice(0, -1)} ${this.killedFor}.` : describeExit(this.spec.name, info);
    return this.lastWords ? `${how.slice(0, -1)}: ${this.lastWords}` : how;
  }

  private exited(child: ChildProcess, info: ExitInfo, words: string): void {
    if (this.child !== child) return;
    const peer = this.peer;
    this.lastExit = info;
    this.lastWords = words;
    this.child = null;
    this.peer = null;
    this.stopHeartbeat();
    peer?.close(new ParleyError('peer-closed', `The ${this.spec.name} exited.`));
    const waiters = this.exitWaiters;
    this.exitWaiters = [];
    for (const resolve of waiters) resolve(info);

    if (this.stopping || !this.spec.restart) {
      this.setState('stopped', this.stopping ? undefined : this.describeLastExit(info));
      if (!this.spec.restart) this.failWaiters(new ParleyError('child-died', this.describeLastExit(info)));
      return;
    }
    const ranFor = Date.now() - this.startedAt;
    this.consecutiveFailures = ranFor > STABLE_AFTER_MS ? 1 : this.consecutiveFailures + 1;
    const delay = Math.min(BACKOFF_START_MS * 2 ** (this.consecutiveFailures - 1), BACKOFF_MAX_MS);
    this.restarts++;
    this.setState('restarting', `${this.describeLastExit(info)} Restarting in ${delay} ms.`);
    this.spec.log?.(`${this.describeLastExit(info)} restarting in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.launch().catch((err: Error) => this.spec.log?.(`[${this.spec.name}] restart failed: ${err.message}`));
    }, delay);
  }

  private whenRunning(signal?: AbortSignal): Promise<Peer> {
    if (this.state === 'running' && this.peer) return Promise.resolve(this.peer);
    if (this.stopping || this.state === 'stopped') {
      return Promise.reject(new ParleyError('child-died', `The ${this.spec.name} is not running.`));
    }
    return new Promise<Peer>((resolve, reject) => {
      const waiter = { resolve, reject };
      this.runningWaiters.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          this.runningWaiters = this.runningWaiters.filter((w) => w !== waiter);
          reject(new ParleyError('cancelled', 'Cancelled.'));
        },
        { once: true },
      );
    });
  }

  private async diedError(type: string): Promise<ParleyError> {
    const info = this.child ? await Promise.race([this.waitForExit(), delay(1_000).then(() => null)]) : this.lastExit;
    const how = info ? this.describeLastExit(info) : `The ${this.spec.name} stopped answering.`;
    const next = this.spec.restart ? ' It is being restarted; try again.' : '';
    return new ParleyError('child-died', `${how} ${type} was in flight and did not finish.${next}`, { exit: info });
  }

  private startHeartbeat(peer: Peer, child: ChildProcess): void {
    const every = this.spec.heartbeatMs ?? 2_000;
    const hangMs = this.spec.hangMs ?? 10_000;
    this.heartbeat = setInterval(() => {
      peer.call('sys.ping', { t: Date.now() }, { signal: AbortSignal.timeout(hangMs) }).catch((err: unknown) => {
        if (hasCode(err, 'timeout') && this.child === child) {
          this.spec.log?.(`${this.spec.name} missed its heartbeat for ${hangMs} ms; killing it`);
          this.killedFor = `after it missed its heartbeat for ${hangMs / 1000} s`;
          child.kill('SIGKILL');
        }
      });
    }, every);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private failWaiters(err: ParleyError): void {
    const waiters = this.runningWaiters;
    this.runningWaiters = [];
    for (const waiter of waiters) waiter.reject(err);
  }

  private setState(state: ChildState, message?: string): void {
    this.state = state;
    for (const listener of this.statusListeners) listener(state, message);
  }
}

export function describeExit(name: string, info: ExitInfo): string {
  return info.signal ? `The ${name} was stopped by ${info.signal}.` : `The ${name} exited with code ${info.code ?? 'unknown'}.`;
}

function exitWords(info: ExitInfo): string {
  return info.signal ? `stopped by ${info.signal}` : `exit code ${info.code ?? 'unknown'}`;
}

/** Stderr kept per child: enough for Node's report of an uncaught error with its stack. */
const STDERR_KEPT = 16_384;
/** How long an exit waits for the rest of the child's stderr. */
const STDERR_WAIT_MS = 250;
/** How long a failed start waits for the child's exit, to say how it ended. */
const START_EXIT_WAIT_MS = 2_000;

/**
 * The line of a dead child's stderr that says why it died: the last error line (`Error
 * [ERR_MODULE_NOT_FOUND]: Cannot find package 'isolated-vm' ...`, `TypeError: ...`), else its
 * last line. Stack frames, Node's source excerpt and its version banner say nothing to a user.
 */
export function lastWords(stderr: string, max = 500): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^at /.test(line) && !/^Node\.js v\d/.test(line) && !/^\^+$/.test(line) && !/^[{}]$/.test(line) && !NATIVE_TRACE.test(line));
  // V8's own fatal errors (a heap out of memory) come before a native stack trace.
  const errorLine = lines.findLast((line) => /^FATAL ERROR:/.test(line)) ?? lines.findLast((line) => /\b[A-Z]?\w*(Error|Exception)\b( \[[A-Z_0-9]+\])?:/.test(line));
  const said = errorLine ?? lines.at(-1) ?? '';
  return said.length > max ? `${said.slice(0, max - 1)}…` : said;
}

/** The frames and banners of V8's native stack trace (`12: 0x122a6b8 v8::internal::...`). */
const NATIVE_TRACE = /^(\d+: 0x[0-9a-f]+\b|-{3,} Native stack trace -{3,}$|<-{3}.*-{3}>$)/;

function describeError(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let bus: Promise<typeof ChildBus> | undefined;
function busCode(): Promise<typeof ChildBus> {
  return (bus ??= import('./child-bus.js'));
}
