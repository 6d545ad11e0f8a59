/**
 * Mocks of the open projects: made from an API's cached definition, read from and saved to their
 * folders (hand edits picked up), checked against the contract by the checker child, and served
 * each by its own mock-host child. A mock is never started by itself; stopping it, closing its
 * project or quitting ends its child, which returns every scenario to Started.
 */
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { EventName, EventOf, ReqOf, ResOf } from '../../../protocol/messages.js';
import type { Mock, MockFinding, MockLogEntry } from '../../../protocol/model/mock.js';
import { whyNotMockable, type Api } from '../../../protocol/model/api.js';
import type { MockDocuments } from '../../../protocol/model/verdict.js';
import {
  isSafeFileName,
  mockFolderOf,
  parseMockFolder,
  readMockFolder,
  folderEntry,
  saveMockFolder,
  serializeMockFolder,
  type LoadedMock,
} from '../../../protocol/project/mock-files.js';
import { MAX_NAME_BYTES, fileNameKey, isPortableFileName } from '../../../protocol/project/file-names.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import type { ChildProcessHandle } from '../children/child-process.js';
import type { ProjectStore } from '../store/project-store.js';
import { definitionBytes, definitionKey, mockDocuments } from './mock-documents.js';
import { sampleNewMock, type JobRunner } from './new-mock-sampler.js';
import { MockRunner } from './mock-runner.js';
import { ScriptDiagnostics } from './script-diagnostics.js';
import type { FolderWatcher } from '../store/folder-watcher.js';
import { watchMockFiles } from './mock-file-watcher.js';
import { LOG_BYTES_KEPT, LOG_ENTRIES_KEPT, LogRing, boundLogEntry, logEntryBytes, newestWithin } from '../../../protocol/mock-log-bounds.js';

export type MockView = ResOf<'mocks.get'>;

/** What the service needs of the supervisor (the Supervisor itself in the app); `runJob` runs New Mock's sampling. */
export interface MockServiceHost extends JobRunner {
  readonly log: (line: string) => void;
  broadcast<E extends EventName>(type: E, payload: EventOf<E>): void;
  notify(level: 'info' | 'warning' | 'error', message: string): void;
  project(root: string): ProjectStore;
  readonly workspace: { get(): { preferences: { mockListenAllInterfaces: boolean } } };
  readonly checker: Pick<ChildProcessHandle, 'call'>;
}

export interface MockServiceOptions {
  /** The mock-host entry; default dist/mock-host.js. */
  mockHostEntry?: string;
  /** The bus's frame to a mock host when not the default (tests make it small, so a start goes in parts). */
  busFrameBytes?: number;
  /** How long New Mock's sampling may take (NEW_MOCK_DEADLINE_MS when absent; tests shorten it). */
  newMockDeadlineMs?: number;
}


interface MockEntry {
  root: string;
  /** The tree id, `m:<folder>`. */
  id: string;
  name: string;
  loaded: LoadedMock | null;
  findings: MockFinding[];
  /** Operations the contract no longer has, and why findings are missing, if they are. */
  findingWarnings: string[];
  findingsKey: string;
  runner: MockRunner | null;
  /** The runner while its start is under way (a big start goes to the host in parts). */
  starting?: MockRunner | undefined;
  address: { port: number; url: string } | null;
  /** The mock and definition the child serves now, to tell whether an edit needs applying. */
  servingKey: string;
  /** The port of the last run, used again by the next start while the mock's Port is 0. */
  keptPort?: number;
  /** The newest entries, within LOG_ENTRIES_KEPT and LOG_BYTES_KEPT (docs/mocks.md, "The log"). */
  log: LogRing<MockLogEntry>;
  lastView: string;
  queue: Promise<unknown>;
}

export class MockService {
  private readonly entries = new Map<string, MockEntry>();
  private readonly watchers = new Map<string, FolderWatcher>();
  private readonly diagnostics: ScriptDiagnostics;

  constructor(
    private readonly host: MockServiceHost,
    private readonly options: MockServiceOptions = {},
  ) {
    this.diagnostics = new ScriptDiagnostics(host.log);
  }

  // --- operations ------------------------------------------------------------------------

  /** New Mock: one operation per contract operation, each with its Default response. */
  async create(root: string, apiId: string, name: string): Promise<MockView> {
    const store = this.host.project(root);
    const api = store.getApi(apiId);
    const blocked = whyNotMockable(api);
    if (blocked) throw new ParleyError('no-definition', blocked, { api: apiId });
    const folder = name.trim().normalize('NFC');
    if (!isPortableFileName(folder)) {
      throw new ParleyError(
        'bad-input',
        `"${folder}" cannot be a mock name: it is its folder's name, which must work on Windows, macOS and Linux, so no / \\ : * ? " < > |, no leading dot, no trailing dot or space, not a device name such as CON or NUL, at most ${MAX_NAME_BYTES} bytes.`,
      );
    }
    const id = `m:${folder}`;
    const dir = mockFolderOf(store.root, folder);
    if ((await readMockFolder(dir)).size > 0 || store.tree().items.some((i) => i.kind === 'mock' && fileNameKey(i.name) === fileNameKey(folder))) {
      throw nameTaken(folder);
    }
    const documents = await mockDocuments(store.apiDir(api.id), api);
    // Sampled and made into files in a child (a big definition holds a thread for seconds); only the commit happens here.
    const files = await sampleNewMock(
      this.host,
      { documents, name: folder, api: api.id, ...(api.soap ? { soapBinding: api.soap.binding } : {}) },
      { apiName: api.name, definitionBytes: await definitionBytes(store.apiDir(api.id), api), ...(this.options.newMockDeadlineMs ? { deadlineMs: this.options.newMockDeadlineMs } : {}) },
    );
    // The name may have been taken while the child sampled (another New Mock, a folder made by hand).
    if ((await readMockFolder(dir)).size > 0) throw nameTaken(folder);
    await store.commit(files.map((f) => ({ path: resolveInside(dir, f.path, 'new mock file'), content: f.content })));
    for (const event of store.changedEvents([id])) this.host.broadcast('project.changed', event);
    return this.get(store.root, id);
  }

  get(root: string, id: string): Promise<MockView> {
    const entry = this.entry(root, id);
    return this.serially(entry, async () => {
      await this.refresh(entry);
      return this.view(entry);
    });
  }

  /** Saves an edit (refused, with nothing written, when the files would not load) and applies it to a running mock. */
  async save(root: string, mock: Mock): Promise<MockView> {
    const store = this.host.project(root);
    const entry = this.entry(store.root, `m:${mock.name}`);
    const view = await this.serially(entry, async () => {
      const dir = this.dirOf(entry);
      const existing = await readMockFolder(dir);
      const current = parseMockFolder(entry.name, existing);
      if (existing.size === 0) throw new ParleyError('not-found', `There is no mock named ${mock.name} in this project (a mock is renamed by renaming its folder).`);
      if (!current.mock) {
        const first = current.problems[0];
        throw new ParleyError('conflict', `${first?.file ?? `mocks/${entry.name}`} has a problem on disk (${first?.message ?? 'it does not load'}); fix the file first so your edit there is not overwritten.`);
      }
      if (current.mock.id !== mock.id) throw new ParleyError('conflict', `The folder mocks/${entry.name} holds another mock (id ${current.mock.id}).`);

      // What would be written must load again: check it before touching the disk.
      const next = new Map(existing);
      for (const change of serializeMockFolder(mock, existing)) {
        if (change.content === null) next.delete(change.path);
        else next.set(change.path, folderEntry(change.path, change.content));
      }
      const check = parseMockFolder(entry.name, next);
      if (!check.mock) {
        const problem = check.problems[0]!;
        // The project reader's messages name their file first; the mock's own checks do not.
        const said = problem.message.startsWith(problem.file) ? `${problem.message}${problem.line ? ` (line ${problem.line})` : ''}` : `${problem.file}${problem.line ? ` line ${problem.line}` : ''}: ${problem.message}`;
        throw new ParleyError('mock-invalid', `Not saved: ${said}`, { problems: check.problems });
      }
      await saveMockFolder(dir, mock, (files) => store.commit(files));
      await this.refresh(entry);
      return this.view(entry);
    });
    for (const event of store.changedEvents([entry.id])) this.host.broadcast('project.changed', event);
    this.publish(entry);
    return view;
  }

  start(root: string, id: string): Promise<MockView> {
    const entry = this.entry(root, id);
    return this.serially(entry, async () => {
      await this.refresh(entry);
      if (entry.runner) return this.view(entry);
      const mock = entry.loaded?.mock;
      if (!mock) {
        const first = entry.loaded?.problems[0];
        throw new ParleyError('mock-invalid', `The mock ${entry.name} cannot start until its files load${first ? `: ${first.file}${first.line ? ` line ${first.line}` : ''}: ${first.message}` : '.'}`);
      }
      const { api, documents } = await this.contractOf(entry, mock);
      const runner = new MockRunner({
        name: entry.name,
        ...(this.options.mockHostEntry ? { entry: this.options.mockHostEntry } : {}),
        ...(this.options.busFrameBytes ? { busFrameBytes: this.options.busFrameBytes } : {}),
        log: this.host.log,
        onLogged: (entries) => this.logged(entry, entries),
        onDied: (message) => void this.serially(entry, async () => this.died(entry, runner, message)),
      });
      let address;
      entry.starting = runner;
      try {
        address = await runner.start(this.config(mock, api, documents, entry.keptPort));
      } catch (err) {
        await runner.stop();
        throw err;
      } finally {
        entry.starting = undefined;
      }
      entry.runner = runner;
      entry.address = { port: address.port, url: address.url };
      entry.keptPort = address.port;
      entry.servingKey = servingKey(mock, api);
      if (address.warnings.length > 0) this.host.notify('warning', `${entry.name}: ${address.warnings.join(' ')}`);
      return this.view(entry);
    }).finally(() => this.publish(entry));
  }

  stop(root: string, id: string): Promise<MockView> {
    const entry = this.entry(root, id);
    return this.serially(entry, async () => {
      await this.halt(entry);
      return this.view(entry);
    }).finally(() => this.publish(entry));
  }

  /** Reset state: every scenario back to Started, every In order turn back to the first response. */
  async reset(root: string, id: string): Promise<void> {
    const entry = this.entry(root, id);
    // A stopped mock has nothing to reset: its next start begins at Started anyway.
    await this.serially(entry, async () => entry.runner?.reset());
  }

  /** A page of the mock's log: the newest entries older than `before` (an entry id), oldest first (`mocks.log`). */
  log(root: string, id: string, before?: string): ResOf<'mocks.log'> {
    const page = this.entry(root, id).log.page(before === undefined ? undefined : (e) => e.id === before);
    return { entries: page.items, more: page.more };
  }

  /** The pid of a running mock's host process, for diagnostics and tests. */
  /** The mock host's process id, while it runs or starts. */
  processId(root: string, id: string): number | undefined {
    const entry = this.entries.get(key(this.host.project(root).root, id));
    return (entry?.runner ?? entry?.starting)?.pid;
  }

  /** Bytes of a message (a big start) still on their way to the mock's host; 0 when none. */
  sendingTo(root: string, id: string): number {
    const entry = this.entries.get(key(this.host.project(root).root, id));
    return (entry?.runner ?? entry?.starting)?.sending ?? 0;
  }

  diagnose(request: ReqOf<'mocks.diagnose'>): Promise<ResOf<'mocks.diagnose'>> {
    return this.diagnostics.diagnose(request);
  }

  /** The project watcher saw files change: mock ids `m:<folder>`, API ids whose definition may have changed. */
  onProjectChanged(store: ProjectStore, changed: string[]): void {
    const ids = new Set(changed);
    for (const entry of this.entries.values()) {
      if (entry.root !== store.root) continue;
      const api = entry.loaded?.mock?.api;
      if (!ids.has(entry.id) && !(api && ids.has(api))) continue;
      void this.serially(entry, () => this.refresh(entry))
        .catch((err: Error) => this.host.log(`mock ${entry.name}: ${err.message}`))
        .finally(() => this.publish(entry));
    }
  }

  async stopProject(root: string): Promise<void> {
    const entries = [...this.entries.values()].filter((e) => e.root === root);
    await Promise.all(entries.map((e) => this.serially(e, () => this.halt(e)).catch(() => {})));
    for (const e of entries) this.entries.delete(key(e.root, e.id));
    await this.watchers.get(root)?.close();
    this.watchers.delete(root);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...new Set([...this.entries.values()].map((e) => e.root))].map((root) => this.stopProject(root)));
    await Promise.all([...this.watchers.values()].map((w) => w.close()));
    this.watchers.clear();
    await this.diagnostics.stop();
  }

  // --- internals -------------------------------------------------------------------------

  private entry(root: string, id: string): MockEntry {
    const store = this.host.project(root);
    if (!id.startsWith('m:') || !isSafeFileName(id.slice(2))) throw new ParleyError('not-found', `No mock ${id} in ${store.name}.`);
    let entry = this.entries.get(key(store.root, id));
    if (!entry) {
      entry = {
        root: store.root,
        id,
        name: id.slice(2),
        loaded: null,
        findings: [],
        findingWarnings: [],
        findingsKey: '',
        runner: null,
        address: null,
        servingKey: '',
        log: new LogRing<MockLogEntry>(LOG_ENTRIES_KEPT, LOG_BYTES_KEPT),
        lastView: '',
        queue: Promise.resolve(),
      };
      this.entries.set(key(store.root, id), entry);
      this.watchBodies(store);
    }
    return entry;
  }

  /** One operation at a time per mock, in order. */
  private serially<T>(entry: MockEntry, work: () => Promise<T>): Promise<T> {
    const next = entry.queue.then(work, work);
    entry.queue = next.catch(() => {});
    return next;
  }

  private dirOf(entry: MockEntry): string {
    return mockFolderOf(entry.root, entry.name);
  }

  /** Reads the folder again; computes findings; applies a changed mock or definition to a running one. */
  private async refresh(entry: MockEntry): Promise<void> {
    const store = this.host.project(entry.root);
    const files = await readMockFolder(this.dirOf(entry));
    if (files.size === 0) {
      if (entry.runner) {
        this.host.notify('warning', `The mock ${entry.name} was stopped: its folder is gone.`);
        await this.halt(entry);
      }
      throw new ParleyError('not-found', `There is no mock named ${entry.name} in ${store.name}.`);
    }
    entry.loaded = parseMockFolder(entry.name, files);
    const mock = entry.loaded.mock;
    if (!mock) return;
    const api = store.listApis().find((a) => a.id === mock.api);
    await this.computeFindings(entry, store, mock, api);
    if (entry.runner && api && !whyNotMockable(api) && servingKey(mock, api) !== entry.servingKey) await this.apply(entry, mock, api);
  }

  /** Applies an edit to the running mock at once; if it cannot (a new port is taken), the mock stops and says why. */
  private async apply(entry: MockEntry, mock: Mock, api: Api): Promise<void> {
    const runner = entry.runner!;
    try {
      const documents = await mockDocuments(this.host.project(entry.root).apiDir(api.id), api);
      const address = await runner.reconfigure(this.config(mock, api, documents, entry.keptPort));
      entry.address = { port: address.port, url: address.url };
      entry.keptPort = address.port;
      entry.servingKey = servingKey(mock, api);
    } catch (err) {
      // A process that died is reported by onDied; the edit itself is saved either way.
      if (hasCode(err, 'child-died') || entry.runner !== runner) return;
      await this.halt(entry);
      this.host.notify('warning', `The mock ${entry.name} stopped: the edit could not be applied (${(err as Error).message}).`);
    }
  }

  private async computeFindings(entry: MockEntry, store: ProjectStore, mock: Mock, api: Api | undefined): Promise<void> {
    if (!api || whyNotMockable(api)) {
      entry.findings = [];
      entry.findingWarnings = [];
      entry.findingsKey = '';
      return;
    }
    const findingsKey = servingKey(mock, api);
    if (findingsKey === entry.findingsKey) return;
    try {
      const documents = await mockDocuments(store.apiDir(api.id), api);
      const result = await this.host.checker.call('checker.mockFindings', { mock, documents, definitionKey: definitionKey(api) });
      entry.findings = result.findings;
      entry.findingWarnings = result.warnings;
      entry.findingsKey = findingsKey;
    } catch (err) {
      entry.findings = [];
      entry.findingWarnings = [`The responses could not be checked against the contract: ${(err as Error).message}`];
      entry.findingsKey = '';
    }
  }

  private async contractOf(entry: MockEntry, mock: Mock): Promise<{ api: Api; documents: MockDocuments }> {
    const store = this.host.project(entry.root);
    const api = store.listApis().find((a) => a.id === mock.api);
    if (!api) throw new ParleyError('not-found', `The API this mock answers for (${mock.api}) is not in ${store.name}.`);
    return { api, documents: await mockDocuments(store.apiDir(api.id), api) };
  }

  private config(mock: Mock, api: Api, documents: MockDocuments, keepPort: number | undefined): ReqOf<'mockHost.start'> {
    return {
      mock,
      documents,
      definitionKey: definitionKey(api),
      listenAllInterfaces: this.host.workspace.get().preferences.mockListenAllInterfaces,
      ...(keepPort ? { keepPort } : {}),
    };
  }

  private async halt(entry: MockEntry): Promise<void> {
    const runner = entry.runner;
    entry.runner = null;
    entry.address = null;
    entry.servingKey = '';
    await runner?.stop();
  }

  private died(entry: MockEntry, runner: MockRunner, message: string): void {
    if (entry.runner !== runner) return;
    entry.runner = null;
    entry.address = null;
    entry.servingKey = '';
    const again = entry.keptPort ? ` Start it again to serve on port ${entry.keptPort}.` : '';
    this.host.notify('warning', `The mock ${entry.name} stopped: ${message}${again}`);
    this.publish(entry);
  }

  /**
   * A batch from the mock host, kept within the log's bounds (each entry checked against an
   * entry's, so a host's entry never makes the log hold more) and passed on to every UI, the
   * newest within a page's entries and bytes (a UI shows the newest anyway).
   */
  private logged(entry: MockEntry, entries: MockLogEntry[]): void {
    const sized = entries.map((e) => {
      const bounded = boundLogEntry(e);
      return { entry: bounded, bytes: logEntryBytes(bounded) };
    });
    for (const { entry: e, bytes } of sized) entry.log.push(e, bytes);
    const passed = newestWithin(sized, (s) => s.bytes).map((s) => s.entry);
    this.host.broadcast('mock.logged', { project: entry.root, mock: entry.id, entries: passed });
  }

  private view(entry: MockEntry): MockView {
    const store = this.host.project(entry.root);
    const mock = entry.loaded?.mock ?? undefined;
    const warnings = [...entry.findingWarnings];
    if (entry.runner && !mock) warnings.unshift('The files have problems: the mock keeps serving the last version that loaded.');
    const blocked = mock ? this.blockedReason(store, mock) : undefined;
    return {
      id: entry.id,
      ...(mock ? { mock } : {}),
      problems: entry.loaded?.problems ?? [],
      findings: entry.findings,
      warnings,
      ...(entry.address ? { running: entry.address } : {}),
      ...(blocked ? { blocked } : {}),
    };
  }

  private blockedReason(store: ProjectStore, mock: Mock): string | undefined {
    const api = store.listApis().find((a) => a.id === mock.api);
    if (!api) return `The API this mock answers for (${mock.api}) is not in the project.`;
    return whyNotMockable(api);
  }

  /** Tells every UI the mock's state, when it changed since last told. */
  private publish(entry: MockEntry): void {
    if (!this.entries.has(key(entry.root, entry.id))) return;
    let view: MockView;
    try {
      view = this.view(entry);
    } catch {
      return;
    }
    const text = JSON.stringify(view);
    if (text === entry.lastView) return;
    entry.lastView = text;
    this.host.broadcast('mock.state', { project: entry.root, mock: entry.id, view });
  }

  /** Body files and dispatch.ts: the project watcher reports YAML only. */
  private watchBodies(store: ProjectStore): void {
    if (this.watchers.has(store.root)) return;
    const watcher = watchMockFiles(store.root, (ids) => this.onProjectChanged(store, ids), this.host.log);
    this.watchers.set(store.root, watcher);
  }
}

function nameTaken(folder: string): ParleyError {
  return new ParleyError('conflict', `A mock named ${folder} already exists in this project.`);
}

function key(root: string, id: string): string {
  return `${root}\0${id}`;
}

function servingKey(mock: Mock, api: Api): string {
  return `${definitionKey(api)}\0${JSON.stringify(mock)}`;
}

