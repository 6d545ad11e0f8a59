/**
 * One running mock: its own mock-host child, never restarted behind the user's back. If the
 * child dies (kill -9, a crash, a hang the heartbeat caught), the owner is told once, and the
 * mock is stopped until it is started again.
 */
import type { MockLogEntry } from '../../../protocol/model/mock.js';
import type { ReqOf, ResOf } from '../../../protocol/messages.js';
import { ChildProcessHandle } from '../children/child-process.js';
import { distEntry } from '../paths.js';
import { LARGE_MESSAGE_LIMIT } from '../../../protocol/framing.js';

export type MockHostConfig = ReqOf<'mockHost.start'>;
export type MockHostAddress = ResOf<'mockHost.start'>;

export interface MockRunnerOptions {
  /** Shown in messages: "the mock host of Pets". */
  name: string;
  onLogged(entries: MockLogEntry[]): void;
  /** The child ended without being asked to; `message` says how. */
  onDied(message: string): void;
  log?: (line: string) => void;
  entry?: string;
  /** The bus's frame on the host's link when not the default (tests make it small, so a start goes in parts). */
  busFrameBytes?: number;
}

/** A dispatch.ts runs in isolated-vm, which needs a host started without Node's own snapshot. */
export function usesScripts(config: MockHostConfig): boolean {
  return config.mock.operations.some((op) => op.dispatch === 'script');
}

export class MockRunner {
  private child: ChildProcessHandle | null = null;
  /** Whether the current child can run dispatch scripts (started with --no-node-snapshot). */
  private scripts = false;
  private stopping = false;
  /** Deaths are reported only once the mock was up; a failed start is the caller's error. */
  private serving = false;
  private booting: Promise<void> | undefined;

  constructor(private readonly options: MockRunnerOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Bytes of a message (a big start) still on their way to the host. */
  get sending(): number {
    return this.child?.currentPeer?.sending ?? 0;
  }

  /**
   * Starts the child without a mock yet, so it boots while the caller still reads what to serve;
   * `start` waits for it. A failed boot is reported by `start`. `scripts: false` (a document's
   * mock, which has no dispatch.ts) keeps Node's start-up snapshot: about 100 ms less to boot.
   */
  boot(options: { scripts?: boolean } = {}): void {
    if (this.child) return;
    this.spawn(options.scripts ?? true);
  }

  async start(config: MockHostConfig): Promise<MockHostAddress> {
    const scripts = usesScripts(config);
    // Booted without script support and given a dispatch.ts: start over with it.
    if (this.child && scripts && !this.scripts) await this.replaceChild();
    this.boot({ scripts });
    await this.booting;
    const child = this.child!;
    child.currentPeer?.on('mockHost.logged', ({ entries }) => this.options.onLogged(entries));
    const address = await child.call('mockHost.start', config);
    this.serving = true;
    return address;
  }

  /**
   * Applies an edit at once, on the same port. An edit that brings the mock its first dispatch.ts
   * restarts the host with script support (config.keepPort keeps the port); scenarios and In
   * order turns then begin again, as after Stop and Start.
   */
  async reconfigure(config: MockHostConfig): Promise<MockHostAddress> {
    if (!usesScripts(config) || this.scripts) return this.child!.call('mockHost.reconfigure', config);
    this.serving = false;
    await this.replaceChild();
    return this.start(config);
  }

  async reset(): Promise<void> {
    await this.child?.call('mockHost.reset', {});
  }

  /** Ends the child; scenarios and In order turns end with it. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.child?.stop();
  }

  private spawn(scripts: boolean): void {
    const child = new ChildProcessHandle({
      name: `mock host of ${this.options.name}`,
      entry: this.options.entry ?? distEntry('mock-host.js'),
      // isolated-vm (dispatch.ts) asks for this in its README.
      execArgv: scripts ? ['--no-node-snapshot'] : [],
      restart: false,
      // The start carries the definition and the mock (Graph beta's: 97 MB).
      maxMessage: LARGE_MESSAGE_LIMIT,
      ...(this.options.busFrameBytes ? { maxFrame: this.options.busFrameBytes } : {}),
      ...(this.options.log ? { log: this.options.log } : {}),
    });
    child.onStatus((state, message) => {
      if (child !== this.child) return;
      if (state === 'stopped' && this.serving && !this.stopping) this.options.onDied(message ?? `The mock host of ${this.options.name} stopped.`);
    });
    this.child = child;
    this.scripts = scripts;
    this.booting = child.start();
    this.booting.catch(() => {});
  }

  private async replaceChild(): Promise<void> {
    const old = this.child;
    this.child = null;
    this.booting = undefined;
    await old?.stop();
  }
}
