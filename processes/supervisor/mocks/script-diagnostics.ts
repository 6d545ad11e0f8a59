/**
 * The dispatch.ts editor's type check, run in a mock-host child started with --diagnostics the
 * first time an editor asks: the TypeScript compiler takes half a second and some 80 MB to load,
 * which neither the supervisor nor a mock's listener should carry.
 */
import type { ReqOf, ResOf } from '../../../protocol/messages.js';
import { ChildProcessHandle } from '../children/child-process.js';
import { distEntry } from '../paths.js';

/** A check past this is a stuck compiler: the child is killed and started again on the next ask. */
const BUDGET_MS = 15_000;

export class ScriptDiagnostics {
  private child: ChildProcessHandle | null = null;
  private starting: Promise<void> | null = null;

  constructor(private readonly log?: (line: string) => void) {}

  async diagnose(request: ReqOf<'mocks.diagnose'>): Promise<ResOf<'mocks.diagnose'>> {
    const child = await this.ready();
    return child.call('mocks.diagnose', request, { budgetMs: BUDGET_MS });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    this.starting = null;
    await child?.stop();
  }

  private async ready(): Promise<ChildProcessHandle> {
    if (!this.child) {
      this.child = new ChildProcessHandle({
        name: 'dispatch script checker',
        entry: distEntry('mock-host.js'),
        args: ['--diagnostics'],
        restart: true,
        ...(this.log ? { log: this.log } : {}),
      });
      this.starting = this.child.start().catch((err: unknown) => {
        this.child = null;
        throw err;
      });
    }
    await this.starting;
    return this.child;
  }
}
