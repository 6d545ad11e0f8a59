/**
 * The supervisor: owner of the workspace and the open projects (their single writer), parent
 * of every child process, and the other end of every UI connection. Headless under the CLI;
 * the Electron main process on the desktop.
 */
import { LARGE_MESSAGE_LIMIT } from '../../protocol/framing.js';
import { createHash } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import type { Peer } from '../../protocol/peer.js';
import type { EventName, EventOf } from '../../protocol/messages.js';
import { ParleyError } from '../../protocol/errors.js';
import { ChildProcessHandle, type ChildSpec } from './children/child-process.js';
import { appVersion, checkPathLength, distEntry } from './paths.js';
import { ProjectStore } from './store/project-store.js';
import type { FsOps } from './store/atomic.js';
import type { SecretStore } from './store/secrets.js';
import { WorkspaceSecrets } from './store/workspace-secrets.js';
import type { KdfParams } from './store/vault-file.js';
import { WorkspaceStore } from './store/workspace-store.js';
import { SessionStore } from './store/session-store.js';
import { HistoryStore } from './store/history-store.js';
import { DEFAULT_HISTORY_LIMIT } from '../../protocol/model/workspace.js';
import type { LoggedSend, SendDeps } from './send/send-service.js';
import { OpenStreams } from './send/stream-session.js';
import { ExchangeRedactions } from './send/exchange-redactions.js';
import { CapturedValues } from './send/captured-values.js';
import { appCaptureSink } from './send/capture-environment.js';
import type { CaptureSink } from './send/captures.js';
import { HttpLog } from './http-log/http-log.js';
import { ContractVerdicts } from './checks/contract-verdict.js';
import { OAuthTokens } from './send/oauth-tokens.js';
import { openExternal } from './open-external.js';
import { MockService } from './mocks/mock-service.js';
import { ImportService, type ImportJobDeadlines } from './imports/import-service.js';
import { CurlReader } from './curl/curl-reader.js';
import { CookieService } from './cookies/cookie-service.js';
import { cookieSenderHandlers } from './cookies/cookie-handlers.js';
import { grpcSenderHandlers } from './kinds/grpc/handlers.js';
import { definitionParser } from './checks/definition-parser.js';
import { SpareJobChild, type JobSpec } from './children/spare-job.js';
import { RunService } from './run/run-service.js';

export interface SupervisorOptions {
  dataDir: string;
  log?: (line: string) => void;
  /** The keychain backend of the workspace's secret store (tests give a Map-backed one). */
  secrets?: SecretStore;
  /** Where a command without a UI gets the vault's passphrase (`PARLEY_VAULT_PASSPHRASE`). */
  vaultPassphrase?: () => string | undefined;
  /** scrypt's cost for a vault made here (tests use a cheaper one; the vault's header records it). */
  vaultKdf?: KdfParams;
  electron?: boolean;
  /** Heartbeat settings for children, shortened in tests. */
  heartbeatMs?: number;
  hangMs?: number;
  /** The file operations project saves use; tests inject failures here. */
  projectFs?: FsOps;
  /**
   * Start the sender and checker (default). Commands that never send or check (`parley import`,
   * `parley update-definition`) skip them: two process start-ups they would only wait for.
   */
  services?: boolean;
  /** How long an import's fetches and whole job may take; the importer's defaults when absent (tests shorten them). */
  importDeadlines?: ImportJobDeadlines;
  /** How long a job child started ahead of its job (prepareJob) waits for it; 60 s when absent. */
  spareJobMs?: number;
  /**
   * Keep the session (open projects, the page's tabs and drafts) in `<data>/session.json`: the
   * app (`parley ui`, Electron) does; the other commands never touch it.
   */
  session?: boolean;
  /** How long a session change waits before the file is written (tests shorten it). */
  sessionWriteMs?: number;
}

const SPARE_JOB_MS = 60_000;

const logToStderr = (line: string) => void process.stderr.write(`${line}\n`);

export class Supervisor {
  readonly sender: ChildProcessHandle;
  readonly checker: ChildProcessHandle;
  readonly workspace: WorkspaceStore;
  /** The session file, when this supervisor keeps one (the app). */
  readonly session: SessionStore | null;
  /** The workspace's secret store: the keychain or the vault (workspace-secrets.ts). */
  readonly secrets: WorkspaceSecrets;
  readonly history: HistoryStore;
  readonly verdicts: ContractVerdicts;
  readonly mocks: MockService;
  readonly imports: ImportService;
  /** The app's runner: runs of chosen requests on `parley run`'s engine. */
  readonly runs: RunService;
  /** Reads curl commands in an importer child (Import cURL). */
  readonly curl: CurlReader;
  /** The workspace's cookie jar (one per workspace, so one per supervisor). */
  readonly cookies: CookieService;
  /** How a send gets OAuth tokens and contract verdicts. */
  readonly sendDeps: SendDeps;
  /** Every exchange of this session (the HTTP Log view). */
  readonly httpLog: HttpLog<LoggedSend>;
  /** Event streams running now, for Stop. */
  readonly streams = new OpenStreams();
  /** What each recent exchange masks wherever it is written (Save as example reads it). */
  readonly redactions = new ExchangeRedactions();
  readonly log: (line: string) => void;
  readonly electron: boolean;
  private readonly projects = new Map<string, ProjectStore>();
  /** Each open project's values captured from responses this session (docs/captures.md), in memory only. */
  private readonly captured = new Map<string, CapturedValues>();
  private readonly loading = new Map<string, Promise<ProjectStore>>();
  private readonly uiPeers = new Set<Peer>();
  private readonly jobs = new Set<ChildProcessHandle>();
  /** The one job child started ahead of its job, if any (prepareJob). */
  readonly spareJob: SpareJobChild;
  private readonly options: SupervisorOptions;
  private stopped = false;

  private constructor(options: SupervisorOptions, workspace: WorkspaceStore, session: SessionStore | null) {
    this.options = options;
    this.log = options.log ?? logToStderr;
    this.workspace = workspace;
    this.session = session;
    this.secrets = new WorkspaceSecrets(options.dataDir, {
      ...(options.secrets ? { keychain: options.secrets } : {}),
      ...(options.vaultPassphrase ? { vaultPassphrase: options.vaultPassphrase } : {}),
      ...(options.vaultKdf ? { kdf: options.vaultKdf } : {}),
    });
    this.history = new HistoryStore(options.dataDir, () => this.workspace.get().preferences.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    this.electron = options.electron ?? false;
    this.httpLog = new HttpLog<LoggedSend>((change) => this.broadcast('httpLog.changed', change));
    this.cookies = new CookieService({
      dataDir: options.dataDir,
      secrets: this.secrets,
      log: this.log,
      onChange: (count) => this.broadcast('cookies.changed', { count }),
    });
    // A vault created or unlocked now can keep the jar's key: the jar reads its file then.
    this.secrets.onChange((status) => {
      this.broadcast('secret.storage', status);
      if (status.available) void this.cookies.storageChanged();
    });
    // A gRPC definition's text (up to 64 MB) travels to the sender once: its link carries messages over a frame.
    this.sender = this.service({ name: 'sender process', entry: distEntry('sender.js'), restart: true, serve: { ...cookieSenderHandlers(this.cookies), ...grpcSenderHandlers() }, maxMessage: LARGE_MESSAGE_LIMIT });
    // Definitions travel to the checker (checks, stub findings): its link carries messages over a frame.
    this.checker = this.service({ name: 'checker process', entry: distEntry('checker.js'), restart: true, maxMessage: LARGE_MESSAGE_LIMIT });
    this.verdicts = new ContractVerdicts(this.checker);
    const oauth = new OAuthTokens(
      () => this.workspace.get().preferences,
      async (url) => {
        const opened = this.electron ? false : openExternal(url);
        this.broadcast('browser.open', { url, reason: 'OAuth 2 sign-in', opened });
      },
    );
    this.sendDeps = {
      oauthToken: (auth, cacheKey) => oauth.token(auth, cacheKey),
      verdict: (root, request, result, signal) => this.verdicts.verdict(this.project(root), request, result, signal),
    };
    this.mocks = new MockService(this);
    this.imports = new ImportService(this, options.importDeadlines);
    this.runs = new RunService(this);
    this.curl = new CurlReader({ log: this.log });
    this.spareJob = new SpareJobChild((spec) => this.jobChild(spec), options.spareJobMs ?? SPARE_JOB_MS);
  }

  static async start(options: SupervisorOptions): Promise<Supervisor> {
    const workspace = await WorkspaceStore.open(options.dataDir);
    const session = options.session ? await SessionStore.open(options.dataDir, { log: options.log ?? logToStderr, writeDelayMs: options.sessionWriteMs }) : null;
    const supervisor = new Supervisor(options, workspace, session);
    if (options.services !== false) await Promise.all([supervisor.sender.start(), supervisor.checker.start()]);
    return supervisor;
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  /** A long-lived child whose state the status bar shows. */
  private service(spec: Omit<ChildSpec, 'log' | 'heartbeatMs' | 'hangMs'>): ChildProcessHandle {
    const handle = new ChildProcessHandle({
      ...spec,
      log: this.log,
      heartbeatMs: this.options.heartbeatMs,
      hangMs: this.options.hangMs,
    });
    handle.onStatus((state, message) =>
      this.broadcast('child.status', { name: spec.name, state: state === 'starting' ? 'restarting' : state, pid: handle.pid, message }),
    );
    return handle;
  }

  /**
   * A one-shot child for one job (an import); killed when the job is cancelled or done. The child
   * started ahead of it for the same spec (prepareJob) is taken when there is one.
   */
  async runJob<T>(spec: JobSpec, work: (child: ChildProcessHandle) => Promise<T>): Promise<T> {
    const spare = await this.spareJob.take(spec);
    const child = spare ?? this.jobChild(spec);
    this.jobs.add(child);
    try {
      if (!spare) await child.start();
      return await work(child);
    } finally {
      this.jobs.delete(child);
      await child.stop(200);
    }
  }

  /** Starts the child a job with `spec` will run in, ahead of the job (SpareJobChild). */
  prepareJob(spec: JobSpec): void {
    if (!this.stopped) this.spareJob.prepare(spec);
  }

  private jobChild(spec: JobSpec): ChildProcessHandle {
    return new ChildProcessHandle({ ...spec, restart: false, log: this.log, heartbeatMs: this.options.heartbeatMs, hangMs: this.options.hangMs });
  }

  get activeJobs(): ChildProcessHandle[] {
    return [...this.jobs];
  }

  // --- projects --------------------------------------------------------------------------

  /**
   * The store of the project in `path`, opened when it is not open yet. Two opens of one folder at
   * once (two windows, or a window and the command line) share one load and one store: a second
   * store would be a second writer of the same files.
   */
  async openProject(path: string, options: { create?: boolean; name?: string; remember?: boolean } = {}): Promise<ProjectStore> {
    checkPathLength(path, 'project folder');
    const root = resolve(path);
    const open = this.projects.get(root);
    if (open) return open;
    let loading = this.loading.get(root);
    if (!loading) {
      loading = this.loadProject(root, options).finally(() => this.loading.delete(root));
      this.loading.set(root, loading);
    }
    return loading;
  }

  /** Folders whose project is being loaded. */
  get loadingProjects(): string[] {
    return [...this.loading.keys()];
  }

  private async loadProject(root: string, { remember = true, ...options }: { create?: boolean; name?: string; remember?: boolean }): Promise<ProjectStore> {
    const store = await ProjectStore.open(root, {
      log: this.log,
      loadCache: { file: join(this.dataDir, 'cache', 'projects', `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.msgpack`), version: appVersion() },
      ...(this.options.projectFs ? { fs: this.options.projectFs } : {}),
      ...options,
    });
    this.projects.set(root, store);
    store.watch((changed) => {
      this.projectChanged(store, changed);
      this.mocks.onProjectChanged(store, changed);
    });
    // `parley run` does not make the project a recent one: a CI run is not the user opening it,
    // and rewriting workspace.yaml cost a short run about a tenth of its time.
    if (!remember) return store;
    this.session?.projectOpened(root);
    // Saved behind the open's answer (an fsynced write of the workspace): the list needn't delay
    // the tree. Every UI is told, so a welcome page's Recent list is never stale.
    void this.workspace
      .update((ws) => {
        ws.recentProjects = [root, ...ws.recentProjects.filter((p) => p !== root)].slice(0, 20);
      })
      .then((ws) => this.broadcast('workspace.changed', ws))
      .catch((err: Error) => this.log(`recent projects not saved: ${err.message}`));
    return store;
  }

  project(path: string): ProjectStore {
    checkPathLength(path, 'project folder');
    const root = resolve(path);
    const store = this.projects.get(root);
    if (store) return store;
    if (this.loading.has(root)) throw new ParleyError('not-found', `The project ${path} is still opening: project.open waits for it.`);
    throw new ParleyError('not-found', `The project ${path} is not open.`);
  }

  openProjects(): ProjectStore[] {
    return [...this.projects.values()];
  }

  /** The project's values captured this session: Send reads and sets them, and so do the app's runs; the pages are told. */
  capturedValues(root: string): CapturedValues {
    let values = this.captured.get(root);
    if (!values) {
      let told: NodeJS.Timeout | undefined;
      const made: CapturedValues = new CapturedValues(() => {
        // A run sets values request after request: the pages hear at most every 100 ms.
        told ??= setTimeout(() => {
          told = undefined;
          if (this.captured.get(root) === made) this.broadcast('captures.changed', { project: root, variables: made.shown() });
        }, 100).unref();
      });
      this.captured.set(root, (values = made));
    }
    return values;
  }

  /** Each open project's captured variables, as the pages are told of them. */
  capturedVariables(): { project: string; variables: ReturnType<CapturedValues['shown']> }[] {
    return [...this.captured].map(([project, values]) => ({ project, variables: values.shown() }));
  }

  /** Where a send in the app puts what its captures read: the project's session values, or the active environment. */
  captureSink(root: string): CaptureSink {
    return appCaptureSink(this, this.capturedValues(root));
  }

  /**
   * Opens the last session's projects again, in the background as the command line's are (a page
   * that connects meanwhile joins their loads). One that cannot be opened (its folder is gone) is
   * left out of the session and said once, to the log and to the first page.
   */
  restoreSession(): void {
    const session = this.session;
    if (!session) return;
    for (const root of session.projects) {
      // Not made a recent project again: the user did not open it now.
      this.openProject(root, { remember: false }).catch((err: Error) => {
        session.projectGone(root, err.message);
        // A page that already asked for the session's notices hears of it now.
        if (this.uiPeers.size > 0) for (const message of session.takeNotices()) this.notify('warning', message);
      });
    }
  }

  /** Closes a project the user closed: it leaves the session too (shutdown keeps it there). */
  async closeProject(path: string): Promise<void> {
    checkPathLength(path, 'project folder');
    const store = this.projects.get(resolve(path));
    if (!store) return;
    this.session?.projectClosed(store.root);
    this.projects.delete(store.root);
    this.captured.delete(store.root);
    await Promise.all([this.mocks.stopProject(store.root), this.runs.stopProject(store.root)]);
    await store.close();
  }

  /**
   * Tells every UI what changed in a project (a save of ours, an edit on disk): numbered deltas of
   * its tree, not the tree. A big import's several go out with a turn of the event loop between
   * them, in order after any still going out.
   */
  projectChanged(store: ProjectStore, changed: string[]): void {
    const events = store.changedEvents(changed);
    this.treeEvents = this.treeEvents.then(async () => {
      for (const [i, event] of events.entries()) {
        if (i > 0) await turn();
        this.broadcast('project.changed', event);
      }
    }).catch((err: Error) => this.log(`project.changed not sent: ${err.message}`));
  }

  private treeEvents: Promise<void> = Promise.resolve();

  // --- UI connections --------------------------------------------------------------------

  attachUi(peer: Peer): void {
    this.uiPeers.add(peer);
    peer.onClose(() => this.uiPeers.delete(peer));
  }

  broadcast<E extends EventName>(type: E, payload: EventOf<E>): void {
    for (const peer of this.uiPeers) peer.emit(type, payload);
  }

  notify(level: 'info' | 'warning' | 'error', message: string): void {
    this.broadcast('notice', { level, message });
  }

  // --- lifecycle -------------------------------------------------------------------------

  /** Stops every child and closes every project; nothing is left running. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all([this.mocks.stopAll(), this.runs.close()]);
    await Promise.all([this.sender.stop(), this.checker.stop(), this.curl.close(), definitionParser.close(), this.spareJob.drop(), ...[...this.jobs].map((job) => job.stop(200))]);
    await this.cookies.flush();
    // The vault's key lives in this process's memory only: forgotten at quit.
    this.secrets.vault.lock();
    // An open under way finishes first, so its store is closed with the others.
    await Promise.allSettled(this.loading.values());
    await Promise.all([...this.projects.values()].map((p) => p.close()));
    await Promise.all([this.workspace.settled(), this.session?.flush()]);
    for (const peer of this.uiPeers) peer.close();
  }
}
