/**
 * One running mock: its own mock-host child, never restarted behind the user's back. If the
 * child dies (kill -9, a crash, a hang the heartbeat caught), the owner is told once, and the
 * mock is stopped until it is started again.
 */
import type { MockLogEntry } from '../../../protocol/model/mock.js';
import type { ReqOf, ResOf } from '../../../protocol/messages.js';
import { ChildProcessHandle } from '../children/child-process.js';
import { distEntry } from '../paths.js';

export type MockHostConfig = ReqOf<'mock.start'>;
export type MockHostAddress = ResOf<'mock.start'>;

export interface MockRunnerOptions {
  /** Shown in messages: "the mock host of Pets". */
  name: string;
  onLogged(entries: MockLogEntry[]): void;
  /** The child ended without being asked to; `message` says how. */
  onDied(message: string): void;
  log?: (line: string) => void;
  entry?: string;
}

export class MockRunner {
  private readonly child: ChildProcessHandle;
  private stopping = false;
  /** Deaths are reported only once the mock was up; a failed start is the caller's error. */
  private serving = false;
  private booting: Promise<void> | undefined;

  constructor(private readonly options: MockRunnerOptions) {
    this.child = new ChildProcessHandle({
      name: `mock host of ${options.name}`,
      entry: options.entry ?? distEntry('mock-host.js'),
      // isolated-vm (dispatch.ts) asks for this in its README.
      execArgv: ['--no-node-snapshot'],
      restart: false,
      ...(options.log ? { log: options.log } : {}),
    });
    this.child.onStatus((state, message) => {
      if (state === 'stopped' && this.serving && !this.stopping) options.onDied(message ?? `The mock host of ${options.name} stopped.`);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Starts the child without a mock yet, so it boots while the caller still reads what to serve;
   * `start` waits for it. A failed boot is reported by `start`.
   */
  boot(): void {
    this.booting ??= this.child.start();
    this.booting.catch(() => {});
  }

  async start(config: MockHostConfig): Promise<MockHostAddress> {
    this.boot();
    await this.booting;
    this.child.currentPeer?.on('mock.logged', ({ entries }) => this.options.onLogged(entries));
    const address = await this.child.call('mock.start', config);
    this.serving = true;
    return address;
  }

  /** Applies an edit at once, on the same port. */
  reconfigure(config: MockHostConfig): Promise<MockHostAddress> {
    return this.child.call('mock.reconfigure', config);
  }

  async reset(): Promise<void> {
    await this.child.call('mock.reset', {});
  }

  /** Ends the child; scenarios and In order turns end with it. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.child.stop();
  }
}
