/**
 * One supervised child process: spawned with a duplex bus pipe on fd 3, watched by heartbeat,
 * restarted with backoff when it dies, killed when it hangs or overruns a call's budget.
 * Calls in flight when it dies fail with `child-died` and a message saying what happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type { Peer, CallOptions, Handlers } from '../../../protocol/peer.js';
import type * as ChildBus from './child-bus.js';
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { MethodName, ReqOf, ResOf } from '../../../protocol/messages.js';

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
      env: { ...process.env, ...this.spec.env },
    });
    this.child = child;
    this.startedAt = Date.now();
    const log = this.spec.log ?? (() => {});
    const prefix = (data: Buffer) => {
      for (const line of data.toString('utf8').split('\n')) if (line.trim()) log(`[${this.spec.name}] ${line}`);
    };
    child.stdout?.on('data', prefix);
    child.stderr?.on('data', prefix);

    child.once('exit', (code, signal) => this.exited(child, { code, signal }));
    child.once('error', (err) => log(`[${this.spec.name}] spawn failed: ${err.message}`));

    // The bus code is loaded after the spawn, so a short-lived CLI's first child boots meanwhile
    // (about 35 ms sooner for `parley mock serve`); the pipe holds what the child writes until then.
    const { Peer, streamTransport, validateCompiled } = await busCode();
    if (this.child !== child) throw new ParleyError('child-died', `The ${this.spec.name} did not start: ${describeExit(this.spec.name, this.lastExit ?? { code: null, signal: null })}`);
    const peer = new Peer(streamTransport(child.stdio[3] as Duplex), {
      role: 'supervisor',
      pid: process.pid,
      validate: validateCompiled,
      onProtocolError: (err) => log(`[${this.spec.name}] bus: ${err.code}: ${err.message}`),
      ...(this.spec.serve ? { handlers: this.spec.serve } : {}),
    });
    this.peer = peer;

    try {
      await peer.ready;
    } catch (err) {
      throw new ParleyError('child-died', `The ${this.spec.name} did not start: ${(err as Error).message}`);
    }
    if (this.child !== child) return;
    this.setState('running');
    this.startHeartbeat(peer, child);
    const waiters = this.runningWaiters;
    this.runningWaiters = [];
    for (const waiter of waiters) waiter.resolve(peer);
  }

  private exited(child: ChildProcess, info: ExitInfo): void {
    if (this.child !== child) return;
    const peer = this.peer;
    this.lastExit = info;
    this.child = null;
    this.peer = null;
    this.stopHeartbeat();
    peer?.close(new ParleyError('peer-closed', `The ${this.spec.name} exited.`));
    const waiters = this.exitWaiters;
    this.exitWaiters = [];
    for (const resolve of waiters) resolve(info);

    if (this.stopping || !this.spec.restart) {
      this.setState('stopped', this.stopping ? undefined : describeExit(this.spec.name, info));
      if (!this.spec.restart) this.failWaiters(new ParleyError('child-died', describeExit(this.spec.name, info)));
      return;
    }
    const ranFor = Date.now() - this.startedAt;
    this.consecutiveFailures = ranFor > STABLE_AFTER_MS ? 1 : this.consecutiveFailures + 1;
    const delay = Math.min(BACKOFF_START_MS * 2 ** (this.consecutiveFailures - 1), BACKOFF_MAX_MS);
    this.restarts++;
    this.setState('restarting', `${describeExit(this.spec.name, info)} Restarting in ${delay} ms.`);
    this.spec.log?.(`${describeExit(this.spec.name, info)} restarting in ${delay} ms`);
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
    const how = info ? describeExit(this.spec.name, info) : `The ${this.spec.name} stopped answering.`;
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
  if (info.signal) return `The ${name} was stopped by ${info.signal}.`;
  return `The ${name} exited with code ${info.code ?? 'unknown'}.`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let bus: Promise<typeof ChildBus> | undefined;
function busCode(): Promise<typeof ChildBus> {
  return (bus ??= import('./child-bus.js'));
}
