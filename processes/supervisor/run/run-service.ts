/**
 * The app's runner (docs/run.md "The runner in the app"): runs chosen requests of an open project
 * on `parley run`'s engine and reporters (`runRequests`, `report`, the JSON and JUnit reporters),
 * so the app and the CLI cannot disagree on what runs, in what order, or what a report says. Each
 * run writes both reports to a temp folder as it goes; Export copies one out once the run has
 * ended. The service keeps at most KEPT_RUNS runs (the oldest ended ones, and their reports, are
 * let go) and runs at most RUNNING_RUNS at once.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ParleyError, quote } from '../../../protocol/errors.js';
import type { RunReportFormat, RunStartInput, RunState } from '../../../protocol/model/run.js';
import { requestsInTreeOrder } from '../../../protocol/project/tree-order.js';
import type { Row } from '../../../protocol/model/common.js';
import { checkPathLength } from '../paths.js';
import type { Supervisor } from '../supervisor.js';
import { AppRun } from './app-run.js';
import { openDataFile, type DataSource } from './data-file.js';
import { appDataLabel, previewDataFile } from './data-preview.js';
import { JsonReporter, JunitReporter } from './file-reporters.js';
import { report } from './report.js';
import { runRequests, type RunPlan } from './runner.js';

export const RUNNING_RUNS = 4;
export const KEPT_RUNS = 10;

const REPORT_FILES: Record<RunReportFormat, string> = { json: 'report.json', junit: 'report.xml' };

/** A path the user typed or picked: absolute, or relative to the home folder (`~/` says so too). */
export function userPath(path: string, what: string): string {
  checkPathLength(path, what);
  return resolve(homedir(), path === '~' ? '.' : path.replace(/^~[\\/]/, ''));
}

export class RunService {
  /** Oldest first. */
  private readonly runs = new Map<string, { run: AppRun; done: Promise<void> }>();

  constructor(private readonly sup: Supervisor) {}

  async start(input: RunStartInput): Promise<RunState> {
    const store = this.sup.project(input.project);
    const running = [...this.runs.values()].filter((r) => r.run.running).length;
    if (running >= RUNNING_RUNS) throw new ParleyError('run-busy', `${running} runs are going already: stop one, or wait for one to end.`);
    const chosen = new Set(input.requests);
    const requests = requestsInTreeOrder(store.tree()).filter((r) => chosen.has(r.id));
    if (requests.length < chosen.size) {
      const missing = [...chosen].filter((id) => !requests.some((r) => r.id === id));
      throw new ParleyError('not-found', `${missing.length === 1 ? 'A request' : `${missing.length} requests`} chosen ${missing.length === 1 ? 'is' : 'are'} no longer in the project (${quote(missing[0]!)}): choose the requests again.`);
    }
    const environment = this.environment(input.environment);
    const dataFile = input.data !== undefined ? userPath(input.data, 'data file') : undefined;
    const data: DataSource | undefined = dataFile !== undefined ? await openDataFile(dataFile, appDataLabel(dataFile)) : undefined;

    const dir = await mkdtemp(join(tmpdir(), 'parley-app-run-'));
    const json = new JsonReporter({ file: join(dir, REPORT_FILES.json) });
    const junit = new JunitReporter({ file: join(dir, REPORT_FILES.junit) });
    try {
      await Promise.all([json.open(), junit.open()]);
    } catch (err) {
      await Promise.all([json.abandon(), junit.abandon()]);
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    const run = new AppRun(
      {
        id: `run_${randomUUID()}`,
        project: store.root,
        projectName: store.name,
        scope: input.scope,
        requests: requests.map((r) => r.id),
        ...(input.iterations !== undefined ? { iterations: input.iterations } : {}),
        delayMs: input.delayMs,
        ...(data ? { data: data.file } : {}),
        ...(environment ? { environment: environment.name } : {}),
        dir,
      },
      (type, payload) => this.sup.broadcast(type, payload),
    );
    const plan: RunPlan = {
      requests,
      environment,
      ...(input.iterations !== undefined || !data ? { iterations: input.iterations ?? 1 } : {}),
      ...(data ? { data } : {}),
      delayMs: input.delayMs,
      bail: false,
      insecure: false,
      failOnContract: false,
      // The keychain, as Send reads it.
      secret: () => undefined,
      // The session's captured values, as Send reads and sets them: a token Login captured (by Send
      // or a run) serves Run failed again of the requests after it. A run writes no environment.
      captures: { values: this.sup.capturedValues(store.root) },
    };
    const done = report(runRequests(this.sup, store, plan, run.controller.signal), [json, junit, run]).then(
      () => undefined,
      (err: unknown) => {
        this.sup.log(`run ${run.id} failed: ${(err as Error).message}`);
        run.failedWith(err);
      },
    );
    this.runs.set(run.id, { run, done });
    await this.trim();
    return run.state();
  }

  stop(id: string): { stopped: boolean } {
    const { run } = this.get(id);
    if (!run.running) return { stopped: false };
    run.controller.abort();
    return { stopped: true };
  }

  latest(project: string, scope: string): RunState | null {
    const root = resolve(project);
    let found: AppRun | undefined;
    for (const { run } of this.runs.values()) if (run.setup.project === root && run.setup.scope === scope) found = run;
    return found ? found.state() : null;
  }

  /** Copies an ended run's report to `path` (never over an existing file). */
  async export(id: string, format: RunReportFormat, path: string): Promise<{ path: string; bytes: number }> {
    const { run } = this.get(id);
    if (run.running) throw new ParleyError('run-running', 'The run is still going: export its report once it has ended, or Stop it first.');
    if (run.reportsMissing) throw new ParleyError('not-found', run.reportsMissing);
    const target = userPath(path, 'report file');
    const folder = await stat(dirname(target)).catch(() => null);
    if (!folder?.isDirectory()) throw new ParleyError('not-found', `${dirname(target)} is not a folder: choose where the report goes.`);
    try {
      await copyFile(join(run.setup.dir, REPORT_FILES[format]), target, constants.COPYFILE_EXCL);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EEXIST') throw new ParleyError('file-exists', `${target} already exists: choose another name.`);
      if (e.code === 'EISDIR') throw new ParleyError('file-exists', `${target} is a folder: give a file name.`);
      await rm(target, { force: true }).catch(() => undefined);
      throw new ParleyError('save-failed', `The report could not be written to ${target} (${e.code ?? e.message}).`);
    }
    return { path: target, bytes: (await stat(target)).size };
  }

  previewData(path: string) {
    return previewDataFile(userPath(path, 'data file'));
  }

  /** Stops the project's runs (it is closing) and waits for them to end. */
  async stopProject(root: string): Promise<void> {
    const of = [...this.runs.values()].filter((r) => r.run.setup.project === root);
    for (const { run } of of) run.controller.abort();
    await Promise.all(of.map((r) => r.done));
  }

  /** Stops every run and removes every report. */
  async close(): Promise<void> {
    const all = [...this.runs.values()];
    this.runs.clear();
    for (const { run } of all) run.controller.abort();
    await Promise.all(all.map(async ({ run, done }) => {
      await done;
      await rm(run.setup.dir, { recursive: true, force: true });
    }));
  }

  private get(id: string): { run: AppRun; done: Promise<void> } {
    const found = this.runs.get(id);
    if (!found) throw new ParleyError('not-found', 'That run is no longer kept (Parley keeps the last ten): run it again.');
    return found;
  }

  /** The environment a run uses: the active one when none is named (taken now, for the whole run). */
  private environment(id: string | null | undefined): { name: string; variables: Row[] } | null {
    if (id === null) return null;
    const ws = this.sup.workspace.get();
    const env = ws.environments.find((e) => e.id === (id ?? ws.activeEnvironment));
    if (!env) {
      if (id === undefined) return null;
      throw new ParleyError('not-found', `The workspace has no environment ${quote(id)} any more: choose another.`);
    }
    return { name: env.name, variables: env.variables };
  }

  /** Lets go of the oldest ended runs past KEPT_RUNS. */
  private async trim(): Promise<void> {
    const over = this.runs.size - KEPT_RUNS;
    if (over <= 0) return;
    const ended = [...this.runs.values()].filter((r) => !r.run.running).slice(0, over);
    for (const { run } of ended) this.runs.delete(run.id);
    await Promise.all(ended.map(({ run }) => rm(run.setup.dir, { recursive: true, force: true })));
  }
}
