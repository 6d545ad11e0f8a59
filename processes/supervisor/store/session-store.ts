/**
 * The session file, `<data>/session.json` (protocol/model/session.ts): the open projects, the
 * page's tabs and their unsaved drafts, kept so the next start (or page load) opens the workspace
 * as it was. In the workspace's data folder, never a project folder; readable by its user only
 * (0600); written atomically (`commitFiles`), at most once per `writeDelayMs`, and at shutdown.
 *
 * It is a convenience, never a reason not to start: a file that cannot be read (broken, from a
 * newer release) is moved aside and said once, and Parley starts without it. Every draft is
 * checked against its kind's schema and has its secrets left out again here, whatever the page
 * sent (protocol/credentials/draft-secrets.ts), so no typed secret reaches the disk.
 */
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { leaveOutSecrets } from '../../../protocol/credentials/draft-secrets.js';
import { quote } from '../../../protocol/errors.js';
import {
  DRAFT_SCHEMAS,
  MAX_KEPT_DRAFT_CHARS,
  MAX_KEPT_DRAFTS_CHARS,
  SESSION_VERSION,
  Session,
  emptySession,
  type SessionTab,
  type SessionTabs,
} from '../../../protocol/model/session.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { commitFiles, nodeFs, type FsOps } from './atomic.js';

export const SESSION_FILE = 'session.json';
/** Where a session file that could not be read is moved, so it is said once and can still be looked at. */
export const UNREADABLE_SESSION_FILE = 'session.unreadable.json';

export interface SessionStoreOptions {
  fs?: FsOps;
  log?: (line: string) => void;
  /** How long a change waits for others before the file is written; 1 s when absent. */
  writeDelayMs?: number;
}

export class SessionStore {
  private current: Session = emptySession();
  private notices: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private changed = false;
  private writing: Promise<void> = Promise.resolve();
  private readonly fs: FsOps;
  private readonly log: (line: string) => void;

  private constructor(
    readonly dir: string,
    private readonly options: SessionStoreOptions,
  ) {
    this.fs = options.fs ?? nodeFs;
    this.log = options.log ?? (() => {});
  }

  static async open(dir: string, options: SessionStoreOptions = {}): Promise<SessionStore> {
    const store = new SessionStore(dir, options);
    const path = join(dir, SESSION_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') store.notice(`The last session (${path}) could not be read (${code ?? (err as Error).message}): Parley started without it.`);
      return store;
    }
    const problem = readProblem(text);
    if (problem === null) {
      store.current = JSON.parse(text) as Session;
      return store;
    }
    const aside = join(dir, UNREADABLE_SESSION_FILE);
    const moved = await rename(path, aside).then(
      () => true,
      () => false,
    );
    store.notice(`The last session (${path}) could not be read: ${problem}. Parley started without it${moved ? `; the file was moved to ${aside}` : ''}.`);
    return store;
  }

  /** Project folders of the session, in the order they were opened. */
  get projects(): readonly string[] {
    return this.current.projects;
  }

  tabs(): SessionTabs {
    const { tabs, active } = this.current;
    return active === undefined ? { tabs } : { tabs, active };
  }

  /** What went wrong reopening the session, for the first page that asks: each said once. */
  takeNotices(): string[] {
    return this.notices.splice(0);
  }

  /** The page's tabs: each draft checked against its kind's schema, its size and its secrets. */
  setTabs({ tabs, active }: SessionTabs): void {
    let budget = MAX_KEPT_DRAFTS_CHARS;
    const kept = tabs.map((tab): SessionTab => {
      if (!tab.draft) return tab;
      const { draft, ...rest } = tab;
      const why = draftProblem(tab, budget);
      if (typeof why === 'string') {
        this.log(`session: the draft of the ${tab.kind} tab ${quote(tab.title)} was not kept: ${why}`);
        return rest;
      }
      budget -= why;
      const secure = leaveOutSecrets(draft.value);
      const leftOut = [...new Set([...draft.leftOut, ...secure.leftOut])].slice(0, 50);
      return { ...rest, draft: { value: secure.value, leftOut } };
    });
    const next: Session = { version: SESSION_VERSION, projects: this.current.projects, tabs: kept };
    if (active !== undefined && active < kept.length) next.active = active;
    this.current = next;
    this.schedule();
  }

  projectOpened(root: string): void {
    if (this.current.projects.includes(root)) return;
    this.current = { ...this.current, projects: [...this.current.projects, root] };
    this.schedule();
  }

  /** The project and its tabs leave the session (closed by the user, or gone). */
  projectClosed(root: string): void {
    if (!this.current.projects.includes(root)) return;
    const tabs = this.current.tabs;
    const activeTab = this.current.active === undefined ? undefined : tabs[this.current.active];
    const kept = tabs.filter((t) => t.project !== root);
    const active = activeTab ? kept.indexOf(activeTab) : -1;
    this.current = { version: SESSION_VERSION, projects: this.current.projects.filter((p) => p !== root), tabs: kept, ...(active >= 0 ? { active } : {}) };
    this.schedule();
  }

  /** A session project that could not be opened again: dropped, and said once. */
  projectGone(root: string, reason: string): void {
    const tabs = this.current.tabs.filter((t) => t.project === root);
    const drafts = tabs.filter((t) => t.draft).map((t) => quote(t.title));
    this.projectClosed(root);
    const lost = drafts.length > 0 ? ` Its unsaved edits in ${drafts.join(', ')} could not be restored.` : '';
    this.notice(`The project ${quote(root, 200)} from the last session could not be opened, so it was left out: ${reason}${lost}`);
  }

  notice(message: string): void {
    this.log(message);
    this.notices.push(message);
  }

  /** Writes what changed now, and waits for every write asked for so far. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.changed) this.write();
    await this.writing;
  }

  private schedule(): void {
    this.changed = true;
    if (this.timer) return;
    // A burst of changes (typing in a draft) is one write; the file is never more than this late.
    this.timer = setTimeout(() => {
      this.timer = null;
      this.write();
    }, this.options.writeDelayMs ?? 1000);
    this.timer.unref();
  }

  private write(): void {
    this.changed = false;
    const content = JSON.stringify(this.current);
    const path = join(this.dir, SESSION_FILE);
    this.writing = this.writing.then(() =>
      commitFiles([{ path, content, mode: 0o600 }], { journalDir: this.dir, fs: this.fs }).catch((err: Error) => this.log(`session not saved: ${err.message}`)),
    );
  }
}

/** Why a session file's text cannot be used, or null when it can. */
function readProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `it is not JSON (${(err as Error).message})`;
  }
  const version = typeof value === 'object' && value !== null ? (value as { version?: unknown }).version : undefined;
  if (typeof version === 'number' && version > SESSION_VERSION) return `it was written by a newer release of Parley (session version ${version}; this release reads ${SESSION_VERSION})`;
  const problems = checkAll(Session, value);
  if (problems.length > 0) return `${problems[0]!.path || 'the file'} ${problems[0]!.message}`;
  for (const tab of (value as Session).tabs) {
    const why = tab.draft ? draftProblem(tab, Infinity) : 0;
    if (typeof why === 'string') return `the draft of the tab ${quote(tab.title)}: ${why}`;
  }
  return null;
}

/** Why a tab's draft cannot be kept, or its size when it can. */
function draftProblem(tab: SessionTab, budget: number): string | number {
  const schema = DRAFT_SCHEMAS.get(tab.kind);
  if (!schema) return `a ${quote(tab.kind)} tab has no draft`;
  const problems = checkAll(schema, tab.draft!.value);
  if (problems.length > 0) return `${problems[0]!.path} ${problems[0]!.message}`;
  const size = JSON.stringify(tab.draft!.value).length;
  if (size > MAX_KEPT_DRAFT_CHARS) return `it is ${size.toLocaleString('en')} characters, over the ${MAX_KEPT_DRAFT_CHARS.toLocaleString('en')} a draft may keep`;
  if (size > budget) return `the session's drafts would pass ${MAX_KEPT_DRAFTS_CHARS.toLocaleString('en')} characters`;
  return size;
}
