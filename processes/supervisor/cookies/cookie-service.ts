/**
 * The workspace's one cookie jar, owned by the supervisor: the jar in memory, its encrypted file
 * (cookies with an expiry, written soon after they change and at shutdown), and whether the
 * system can keep it at all. Without secure storage nothing is ever written and the jar tab says
 * so; session cookies are never written anywhere.
 */
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import type { CookieInput, CookieKey, CookieOutcome, JarCookie, JarStatus } from '../../../protocol/model/cookies.js';
import type { SecretStore } from '../store/secrets.js';
import type { FsOps } from '../store/atomic.js';
import { JarFile } from './jar-file.js';
import { WorkspaceJar } from './jar.js';

export interface CookieServiceOptions {
  dataDir: string;
  secrets: SecretStore;
  log: (line: string) => void;
  /** Called after every change of the jar (a send's cookies, an edit), with the new count. */
  onChange: (count: number) => void;
  fs?: FsOps;
  /** How long changes gather before the file is written (ms). */
  saveDelayMs?: number;
}

const NOT_KEPT = 'Cookies are kept only until Parley quits; nothing is written to disk.';

export class CookieService {
  readonly #jar = new WorkspaceJar();
  readonly #file: JarFile;
  readonly #options: CookieServiceOptions;
  /** The secret store and the jar file are first read when the jar is first used: a command that never sends pays nothing. */
  #loading: Promise<void> | undefined;
  #status: JarStatus = { persistent: false };
  /** Whether the jar file may be written: the secret store works and did not fail on read. */
  #writable = false;
  #savedRevision = 0;
  #saveTimer: NodeJS.Timeout | undefined;
  #saving: Promise<void> = Promise.resolve();

  constructor(options: CookieServiceOptions) {
    this.#options = options;
    this.#file = new JarFile(options.dataDir, options.secrets, options.fs);
  }

  #ready(): Promise<void> {
    return (this.#loading ??= this.#load());
  }

  get filePath(): string {
    return this.#file.path;
  }

  async status(): Promise<JarStatus> {
    await this.#ready();
    return this.#status;
  }

  /**
   * The secret store became usable (a vault created or unlocked): a jar that could not be kept
   * reads its file now, keeping the cookies this session already has, and is written from then on.
   */
  async storageChanged(): Promise<void> {
    if (this.#loading === undefined) return; // Not used yet: its first use reads the file.
    await this.#loading;
    if (this.#writable) return;
    this.#loading = this.#load(true);
    await this.#loading;
    if (this.#writable && this.#jar.persistentRecords().length > 0) {
      this.#savedRevision = -1;
      await this.#save();
    }
  }

  async #load(merge = false): Promise<void> {
    const { secrets, log } = this.#options;
    const reason = await secrets.unavailableReason();
    if (reason !== null) {
      this.#status = { persistent: false, message: `${reason} ${NOT_KEPT}` };
      return;
    }
    try {
      // Merging after an unlock: what this session received is newer than the file.
      const kept = this.#jar.restore(await this.#file.read(), new Date(), merge);
      if (kept > 0) log(`cookie jar: ${kept} saved cookies read`);
      this.#writable = true;
      this.#status = { persistent: true };
    } catch (err) {
      const e = err as ParleyError;
      if (hasCode(e, 'jar-unreadable')) {
        // The key is gone or the file was damaged: nothing in it can be read again, so the
        // next save replaces it. The user is told once, on the jar tab.
        this.#writable = true;
        this.#status = { persistent: true, message: `${e.message} The jar started empty and replaces that file at its next save.` };
      } else {
        // The store failed (a locked keychain or vault, a refusal): the file may be fine, so it is never overwritten.
        this.#status = { persistent: false, message: `${e.message} ${NOT_KEPT}` };
      }
      log(`cookie jar: ${e.message}`);
    }
    this.#savedRevision = this.#jar.persistentRevision;
  }

  // --- the sender's questions, hop by hop ------------------------------------------------

  async cookieHeader(url: string): Promise<string> {
    const target = httpUrl(url);
    await this.#ready();
    return this.#jar.cookieHeader(target);
  }

  async received(url: string, setCookies: string[]): Promise<CookieOutcome[]> {
    const target = httpUrl(url);
    await this.#ready();
    const outcomes = this.#jar.receive(target, setCookies);
    for (const o of outcomes) if (o.outcome === 'stored' && o.expires !== undefined) o.persisted = this.#writable;
    // Ignored headers leave the jar as it was (one the caps dropped at once was never really in).
    if (outcomes.some((o) => o.outcome !== 'ignored')) this.#changed();
    return outcomes;
  }

  // --- the jar tab ------------------------------------------------------------------------

  async list(withValues: boolean): Promise<JarCookie[]> {
    await this.#ready();
    return this.#jar.list(withValues);
  }

  async put(cookie: CookieInput, previous?: CookieKey): Promise<{ cookie: JarCookie; evicted: CookieKey[] }> {
    await this.#ready();
    const result = this.#jar.put(cookie, previous);
    this.#changed();
    return result;
  }

  async delete(key: CookieKey): Promise<boolean> {
    await this.#ready();
    const deleted = this.#jar.delete(key);
    if (deleted) this.#changed();
    return deleted;
  }

  async deleteDomain(domain: string): Promise<number> {
    await this.#ready();
    const count = this.#jar.deleteDomain(domain);
    if (count > 0) this.#changed();
    return count;
  }

  async clear(): Promise<number> {
    await this.#ready();
    const count = this.#jar.clear();
    this.#changed();
    return count;
  }

  /** Writes what is pending now; at shutdown. */
  async flush(): Promise<void> {
    if (this.#loading === undefined) return;
    await this.#loading;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    await this.#save();
  }

  #changed(): void {
    this.#options.onChange(this.#jar.size);
    if (!this.#writable || this.#jar.persistentRevision === this.#savedRevision || this.#saveTimer) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      void this.#save();
    }, this.#options.saveDelayMs ?? 100);
  }

  /** One save at a time; a save finds the latest cookies when its turn comes. */
  #save(): Promise<void> {
    const run = async () => {
      const revision = this.#jar.persistentRevision;
      if (!this.#writable || revision === this.#savedRevision) return;
      const records = this.#jar.persistentRecords();
      try {
        await this.#file.write(records);
        this.#savedRevision = revision;
        if (this.#status.message !== undefined && this.#status.persistent) this.#status = { persistent: true };
      } catch (err) {
        const message = `Saving the cookies failed (${(err as Error).message.split('\n')[0]}); they are kept until Parley quits.`;
        this.#status = { persistent: true, message };
        this.#options.log(`cookie jar: ${message}`);
      }
    };
    this.#saving = this.#saving.then(run, run);
    return this.#saving;
  }
}

function httpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ParleyError('bad-input', 'The cookie jar was asked about a URL that does not parse.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParleyError('bad-input', `The cookie jar keeps cookies of http and https only, not ${url.protocol}.`);
  return url;
}
