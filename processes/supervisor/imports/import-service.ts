/**
 * Imports and definition updates, supervisor side: each job runs in a fresh importer child
 * (killed on cancel, or when it dies the job fails with a clear message); what it made is
 * written here, by the single writer, in one atomic commit. Secrets go to the secret store first
 * and are taken back out if the commit fails.
 */
import { open as openFile } from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readFile, readdir, rm, rmdir, stat } from 'node:fs/promises';
import { ParleyError, hasCode } from '../../../protocol/errors.js';
import { isHttp } from '../../../protocol/kinds/index.js';
import type { ChunkOf, ReqOf, ResOf } from '../../../protocol/messages.js';
import type { Api, DefinitionSource } from '../../../protocol/model/api.js';
import type { CachedFile, FetchCredentials, FetchNetwork, ImportDeadlines, ImportJobSource, ImportResult, ImportSource, ImportedApi, ImportedScript, ImportedVariable } from '../../../protocol/model/import.js';
import { DEFAULT_HISTORY_LIMIT } from '../../../protocol/model/workspace.js';
import { examplesDirOf } from '../../../protocol/project/examples.js';
import type { Row } from '../../../protocol/model/common.js';
import type { Environment } from '../../../protocol/model/workspace.js';
import { environmentSecretName, globalSecretName } from '../../../protocol/secret-names.js';
import { DEFINITION_DIR, IMPORTED_SCRIPTS_DIR, PROJECT_FILE } from '../../../protocol/project/layout.js';
import { fileNameKey, numberedFileName, portableFileName } from '../../../protocol/project/file-names.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { definitionSecretName, kerberosRecord } from '../../importer/engine/openapi/convert.js';
import { DEFAULT_DEADLINES, DEFAULT_LIMITS, importOutOfMemoryError, jobDeadlineError } from '../../importer/engine/load/limits.js';
import { openEntryFile } from '../../importer/engine/load/entry-file.js';
import type { FileChange } from '../store/atomic.js';
import { Slicer } from '../store/slicer.js';
import type { NewRequestFile, ProjectStore } from '../store/project-store.js';
import { distEntry } from '../paths.js';
import type { ChildProcessHandle } from '../children/child-process.js';
import { newId } from '../../../protocol/ids.js';
import type { HistoryEntry } from '../../../protocol/model/history.js';
import { ImportStaging, sweepStaging, type StagedExampleFile, type StagedRequest } from './import-staging.js';
import type { JobSpec } from '../children/spare-job.js';
import type { Supervisor } from '../supervisor.js';
import { noStorageError } from '../send/secure-auth.js';

/** The project's Webhooks collection is an API of this name (SPEC: "the project's Webhooks collection"). */
export const WEBHOOKS_API = 'Webhooks';

interface JobContext<M extends 'import.run' | 'api.definitionPreview' | 'api.definitionApply'> {
  signal: AbortSignal;
  chunk: (item: ChunkOf<M>) => void;
}

/**
 * The deadlines sent with each job (the importer enforces them, naming the URL it was reading),
 * and `graceMs` past the job's deadline after which the supervisor kills an importer that has
 * still not answered (one stuck where its own deadline cannot reach).
 */
export interface ImportJobDeadlines extends ImportDeadlines {
  graceMs?: number;
  /** The importer's heap cap in MB for every job; sized from each source when absent (tests set a small one). */
  memoryMb?: number;
}

const GRACE_MS = 10_000;

export class ImportService {
  private readonly deadlines: ImportDeadlines;
  private readonly graceMs: number;
  private readonly memoryMb: number | undefined;

  constructor(
    private readonly sup: Supervisor,
    deadlines: ImportJobDeadlines = DEFAULT_DEADLINES,
  ) {
    this.deadlines = { fetchMs: deadlines.fetchMs, jobMs: deadlines.jobMs };
    this.graceMs = deadlines.graceMs ?? GRACE_MS;
    this.memoryMb = deadlines.memoryMb;
  }

  /**
   * The auto-detect badge for a file or pasted text; null when nothing is recognised. The dialog
   * asks before the user presses Import: a recognised source's importer child starts now, so its
   * start is not waited for then (Supervisor.prepareJob).
   */
  async detect({ source }: ReqOf<'import.detect'>): Promise<ResOf<'import.detect'>> {
    const found = await this.detectFormat(source);
    if (found.detection) this.sup.prepareJob(importerSpec(this.memoryMb ?? (await importerMemoryMb(source)), found.detection.format === 'openapi'));
    return found;
  }

  private async detectFormat(source: ImportSource): Promise<ResOf<'import.detect'>> {
    if (source.kind === 'url') return { detection: null };
    const input = source.kind === 'paste' ? { text: source.text } : { name: basename(source.path), text: (await openEntryFile(resolve(source.path), basename(source.path))).head };
    // Loaded on first use: a supervisor that never detects (parley run) skips even the registry's
    // detect rules (each format's converter loads only when an import runs, in the importer).
    const { createImporterRegistry } = await import('../../importer/engine/registry.js');
    const detection = createImporterRegistry().detectFormat(input);
    if (detection?.format === 'http' && source.kind === 'file') {
      const { countEnvironmentsBeside } = await import('../../importer/engine/http-file/beside.js');
      const environmentsBeside = await countEnvironmentsBeside(dirname(resolve(source.path)));
      if (environmentsBeside > 0) return { detection, environmentsBeside };
    }
    return { detection };
  }

  async run(req: ReqOf<'import.run'>, ctx: JobContext<'import.run'>): Promise<ResOf<'import.run'>> {
    const into = req.into;
    if (into?.kind === 'new') await refuseExistingProject(into.path);
    else if (into) this.sup.project(into.project);
    const network = await this.network();
    const memoryMb = this.memoryMb ?? (await importerMemoryMb(req.source));
    const compact = await this.convertsDefinition(req);
    await sweepStaging(this.sup.dataDir);
    const staging = new ImportStaging(this.sup.dataDir);
    try {
      const reply = await this.inChild(
        (child) =>
          child.call('importer.run', { source: req.source, format: req.format, options: req.options, network, deadlines: this.deadlines }, {
            signal: ctx.signal,
            onChunk: (chunk) => ('part' in chunk ? staging.add(chunk) : ctx.chunk(chunk)),
            budgetMs: this.budgetMs,
          }),
        memoryMb,
        compact,
      );
      const { detection, result } = reply;
      // The answer's own lists are empty (sendInParts): whatever it carries goes after its parts.
      result.apis.forEach((api, index) => staging.add({ part: 'requests', api: index, items: api.requests }));
      if (result.webhooks) staging.add({ part: 'webhooks', items: result.webhooks.requests });
      if (result.examples) staging.add({ part: 'examples', items: result.examples });
      if (result.history) staging.add({ part: 'history', items: result.history });
      await staging.finish();
      refuseUnplaced(staging, result);

      const forProject = result.apis.length > 0 || staging.webhooks.length > 0 || (result.properties?.length ?? 0) > 0 || (result.scripts?.length ?? 0) > 0;
      const forWorkspace = (result.environments?.length ?? 0) > 0 || (result.globals?.length ?? 0) > 0;
      if (!forProject && !forWorkspace) throw new ParleyError('import-empty', `${sourceName(req.source)} holds nothing to import.`);
      if (forProject && !into) throw new ParleyError('import-needs-project', `${sourceName(req.source)} brings APIs and requests: choose the project to import them into.`);

      // Secrets need a store: without one the import is refused here, before anything is written,
      // unless the user chose to import without them (then they arrive empty and the report says so).
      await this.secretsOrLeaveOut(result, req.leaveOutSecrets === true, req.source);

      const answer: ResOf<'import.run'> = { detection, apis: [], report: result.report };
      if (forProject && into) Object.assign(answer, await this.writeProject(into, result, staging, req.source, ctx));
      if (forWorkspace) answer.workspace = await this.writeWorkspace(result);
      return answer;
    } finally {
      // What the commit did not take (all of it, when the import failed).
      await staging.discard();
    }
  }

  /**
   * The project side of a result, in one atomic commit; a new project's folder only once there is
   * something to write. Its requests' and examples' files are the ones staged as they came.
   */
  private async writeProject(into: NonNullable<ReqOf<'import.run'>['into']>, result: ImportResult, staging: ImportStaging, source: ImportJobSource, ctx: JobContext<'import.run'>): Promise<Partial<ResOf<'import.run'>>> {
    let webhooks: ResOf<'import.run'>['webhooks'];
    let properties: number | undefined;
    // The secret first: without a secret store the import stopped before this (run), before any folder exists.
    const stored = await this.storeSecrets(result.apis, source);
    try {
      stored.push(...(await this.storeFoundSecrets(result)));
    } catch (err) {
      await Promise.all(stored.map((name) => this.sup.secrets.delete(name).catch(() => {})));
      throw err;
    }
    let store: ProjectStore;
    let created = false;
    try {
      if (into.kind === 'new') {
        // The user's name wins; else the source's own (a SoapUI project's), else the folder's.
        const name = into.name || result.projectName;
        store = await this.sup.openProject(into.path, { create: true, ...(name ? { name } : {}) });
        created = true;
      } else {
        store = this.sup.project(into.project);
      }
      const reserved = store.nameClaims();
      const changes: FileChange[] = [];
      /** Where each new request's file goes, for its examples beside it. */
      const requestFiles = new Map<string, string>();
      // Thousands of files (a HAR capture's requests) are placed in slices: the UI's calls go on meanwhile.
      const slicer = new Slicer();
      for (const [index, imported] of result.apis.entries()) {
        const staged = staging.requests[index] ?? [];
        const apiChanges: FileChange[] = [];
        for (const change of store.newApiChangeSteps({ ...imported, requests: staged.map(requestFile) }, reserved)) {
          apiChanges.push(change);
          if (slicer.due()) await slicer.turn();
        }
        // The request files are the last changes, in the order of the requests.
        const files = apiChanges.slice(apiChanges.length - staged.length);
        staged.forEach((request, i) => requestFiles.set(request.id, files[i]!.path));
        changes.push(...apiChanges);
      }
      for (const change of exampleChanges(staging.examples, requestFiles)) {
        changes.push(change);
        if (slicer.due()) await slicer.turn();
      }
      if (result.webhooks && staging.webhooks.length > 0) {
        const existing = store.listApis().find((a) => a.name === WEBHOOKS_API && !a.definition);
        const collection: Api = existing ?? { version: 1, id: newId('a'), name: WEBHOOKS_API, baseUrl: '', auth: { type: 'none' } };
        const placed = staging.webhooks.map((r) => requestFile({ ...r, folder: joinFolder(result.webhooks!.folder, r.folder) }));
        if (existing) for (const p of placed) changes.push(store.newRequestFileChange(existing.id, p, reserved));
        else changes.push(...store.newApiChanges({ api: collection, requests: placed, documents: [] }, reserved));
        webhooks = { api: collection.id, folder: result.webhooks.folder, requests: placed.length };
      }
      if (result.properties && result.properties.length > 0) {
        // A name the project already has keeps its value (SPEC); the first of two imported wins.
        const merged = mergeRows(store.properties, result.properties);
        properties = merged.added;
        if (merged.added > 0) changes.push(store.propertiesChange(merged.rows));
        if (merged.kept.length > 0) result.report.notes = [...(result.report.notes ?? []), { message: `The project already has ${merged.kept.length === 1 ? 'a property' : 'properties'} named ${merged.kept.join(', ')}: ${merged.kept.length === 1 ? 'it keeps its' : 'they keep their'} value${merged.kept.length === 1 ? '' : 's'}.` }];
      }
      if (result.scripts && result.scripts.length > 0) changes.push(...(await scriptChanges(store.root, result.scripts)));
      ctx.chunk({ phase: 'done', message: `Saving ${changes.length} file${changes.length === 1 ? '' : 's'}` });
      await store.commit(changes);
    } catch (err) {
      await Promise.all(stored.map((name) => this.sup.secrets.delete(name).catch(() => {})));
      if (created && into.kind === 'new') await this.forgetNewProject(into.path);
      throw err;
    }
    await this.rememberSecrets(stored);
    this.sup.projectChanged(store, result.apis.map((a) => a.api.id));
    if (staging.history.length > 0) await this.writeHistory(store.root, staging.history, result.report.warnings);
    return {
      project: store.root,
      apis: result.apis.map((a, index) => ({ id: a.api.id, name: a.api.name, baseUrl: a.api.baseUrl, requests: staging.requestCount(index), folders: a.folders.length })),
      ...(webhooks ? { webhooks } : {}),
      ...(properties !== undefined ? { properties } : {}),
    };
  }

  /**
   * Recorded exchanges into the project's History at their recorded times (SPEC "HAR grouping"),
   * after the requests they belong to were written; the per-project limit's effect is warned.
   */
  private async writeHistory(root: string, history: HistoryEntry[], warnings: ImportResult['report']['warnings']): Promise<void> {
    const limit = this.sup.workspace.get().preferences.historyLimit ?? DEFAULT_HISTORY_LIMIT;
    const { dropped, notFitted } = await this.sup.history.addRecorded(root, history);
    if (dropped > 0) warnings.push({ message: `History keeps the newest ${limit} entries of a project: ${dropped} older ${dropped === 1 ? 'entry was' : 'entries were'} dropped to make room for the recorded exchanges.` });
    if (notFitted > 0) warnings.push({ message: `History keeps the newest ${limit} entries of a project: ${notFitted} recorded ${notFitted === 1 ? 'exchange' : 'exchanges'} older than those did not fit.` });
  }

  /**
   * Environments and globals (SPEC "Environment and globals import rules"): a taken environment
   * name gets a numeric suffix, case-insensitively; nothing existing is overwritten, neither a
   * global nor a secret; nothing is made active. Secret values go to the secret store first and
   * are taken back out if the workspace cannot be saved.
   */
  private async writeWorkspace(result: ImportResult): Promise<NonNullable<ResOf<'import.run'>['workspace']>> {
    const ws = this.sup.workspace.get();
    const taken = ws.environments.map((e) => e.name);
    const stored: string[] = [];
    const referenced: string[] = [];
    const warnings = result.report.warnings;
    const toSecret = async (name: string, v: ImportedVariable): Promise<string> => {
      referenced.push(name);
      if ((await this.sup.secrets.get(name)) !== null) {
        warnings.push({ message: `The secret store already holds a secret named ${name}; it was kept and ${v.name} refers to it (the imported value was not stored).` });
      } else {
        await this.sup.secrets.set(name, v.value);
        stored.push(name);
      }
      return `\${secret:${name}}`;
    };
    try {
      const environments: Environment[] = [];
      const summaries: NonNullable<ResOf<'import.run'>['workspace']>['environments'] = [];
      for (const env of result.environments ?? []) {
        const name = unusedName(env.name, taken);
        taken.push(name);
        if (name !== env.name) result.report.notes = [...(result.report.notes ?? []), { message: `The workspace already has an environment named ${env.name}: this one was imported as ${name}.` }];
        const variables: Row[] = [];
        let secrets = 0;
        for (const v of env.variables) {
          // A secret with no exported value arrives empty, with nothing stored (the importer warned).
          const value = v.secret && v.value !== '' ? await toSecret(environmentSecretName(name, v.name), v) : v.value;
          if (v.secret) secrets++;
          variables.push({ name: v.name, value, enabled: v.enabled });
        }
        const environment = { id: newId('e'), name, variables };
        environments.push(environment);
        summaries.push({ id: environment.id, name, variables: variables.length, secrets });
      }
      const globals: Row[] = [];
      let kept = 0;
      let globalSecrets = 0;
      const existingGlobals = new Set(ws.globals.map((g) => g.name));
      for (const v of result.globals ?? []) {
        if (existingGlobals.has(v.name)) {
          kept++;
          continue;
        }
        existingGlobals.add(v.name);
        const value = v.secret && v.value !== '' ? await toSecret(globalSecretName(v.name), v) : v.value;
        if (v.secret) globalSecrets++;
        globals.push({ name: v.name, value, enabled: v.enabled });
      }
      if (kept > 0) result.report.notes = [...(result.report.notes ?? []), { message: `${kept} global${kept === 1 ? '' : 's'} the workspace already had kept ${kept === 1 ? 'its value' : 'their values'}.` }];
      // Said here, where the store is known: the importer cannot tell the keychain from the vault.
      if (stored.length > 0) {
        const place = (await this.sup.secrets.backend()) === 'vault' ? 'the vault' : 'the system keychain';
        const n = stored.length;
        result.report.notes = [...(result.report.notes ?? []), { message: `${n} secret value${n === 1 ? '' : 's'} went to ${place}; the variable${n === 1 ? ' holds' : 's hold'} a \${secret:…} reference.` }];
      }
      const saved = await this.sup.workspace.update((draft) => {
        draft.environments = [...draft.environments, ...environments];
        draft.globals = [...draft.globals, ...globals];
        draft.secrets = [...new Set([...draft.secrets, ...referenced.filter((n) => stored.includes(n))])].sort();
      });
      this.sup.broadcast('workspace.changed', saved);
      return { environments: summaries, ...(result.globals ? { globals: { added: globals.length, kept, secrets: globalSecrets } } : {}) };
    } catch (err) {
      await Promise.all(stored.map((name) => this.sup.secrets.delete(name).catch(() => {})));
      throw err;
    }
  }

  async preview(req: ReqOf<'api.definitionPreview'>, ctx: JobContext<'api.definitionPreview'>): Promise<ResOf<'api.definitionPreview'>> {
    const { store, api } = this.apiOf(req);
    const job = await this.updateJob(store, api, req);
    // An OpenAPI update builds the old definition and the new one: held whole, as in an import.
    const preview = await this.inChild((child) => child.call('importer.preview', job, { signal: ctx.signal, onChunk: ctx.chunk, budgetMs: this.budgetMs }), undefined, !api.soap);
    return { preview, source: describeSource(job.source) };
  }

  async apply(req: ReqOf<'api.definitionApply'>, ctx: JobContext<'api.definitionApply'>): Promise<ResOf<'api.definitionApply'>> {
    const { store, api } = this.apiOf(req);
    const job = await this.updateJob(store, api, req);
    const recordSource = req.source ? this.sourceToRecord(api, job.source) : undefined;
    const result = await this.inChild((child) =>
      child.call('importer.apply', { ...job, expectedFingerprint: req.fingerprint, ...(recordSource !== undefined ? { recordSource } : {}) }, { signal: ctx.signal, onChunk: ctx.chunk, budgetMs: this.budgetMs }),
      undefined,
      !api.soap,
    );

    const dir = store.apiDir(api.id);
    const writes = new Set(result.documents.map((d) => resolveInside(join(dir, DEFINITION_DIR), d.path, 'cached definition document')));
    const changes: FileChange[] = [store.apiChange(result.api), ...result.requests.map((r) => store.requestChange(r))];
    const reserved = store.nameClaims();
    for (const placed of result.added) changes.push(store.newRequestChange(api.id, placed.folder, placed.request, reserved));
    for (const doc of result.documents) changes.push({ path: resolveInside(join(dir, DEFINITION_DIR), doc.path, 'cached definition document'), content: doc.bytes });
    for (const old of api.definition?.cached ?? []) {
      const path = resolveInside(dir, old, 'cached definition document');
      if (!writes.has(path)) changes.push({ path, content: null });
    }

    // Rule 6: a URL source records its credentials; the secret goes in before the files say so.
    const newSecret = req.source?.kind === 'url' && req.source.credentials && req.source.credentials.type !== 'kerberos' ? definitionSecretName(api.id) : null;
    const previousSecret = newSecret ? await this.sup.secrets.get(newSecret).catch(() => null) : null;
    if (newSecret && req.source?.kind === 'url' && req.source.credentials) await this.sup.secrets.set(newSecret, secretValue(req.source.credentials));
    try {
      await store.commit(changes);
    } catch (err) {
      if (newSecret) await (previousSecret !== null ? this.sup.secrets.set(newSecret, previousSecret) : this.sup.secrets.delete(newSecret)).catch(() => {});
      throw err;
    }
    if (newSecret) await this.rememberSecrets([newSecret]);
    this.sup.projectChanged(store, [api.id, ...result.requests.map((r) => r.id), ...result.added.map((a) => a.request.id)]);
    return { counts: result.counts };
  }

  // --- helpers ---------------------------------------------------------------------------

  /** Undoes the project folder this import made: it holds nothing but its parley.yaml. */
  private async forgetNewProject(path: string): Promise<void> {
    const root = resolve(path);
    await this.sup.closeProject(root).catch(() => {});
    await rm(join(root, PROJECT_FILE), { force: true }).catch(() => {});
    await rmdir(root).catch(() => {});
  }

  /**
   * Runs `work` in a fresh importer child whose heap is capped at `memoryMb` (sized from the source).
   * `compact` when the job converts an OpenAPI definition: it is parsed whole and held while every
   * operation is made, and under V8's default heap growth Microsoft Graph's import peaked at
   * 325 MB, 1.75x swagger-parser's bundle of it; with V8's --optimize-for-size, 220 MB
   * (bench/README.md, "Microsoft Graph"). A HAR capture streams in a small heap and is budgeted
   * in time, which the flag cost 30-60%, so other formats run without it.
   */
  private inChild<T>(work: (child: ChildProcessHandle) => Promise<T>, memoryMb = this.memoryMb ?? DEFAULT_IMPORTER_MEMORY_MB, compact = false): Promise<T> {
    return this.sup.runJob(importerSpec(memoryMb, compact), work).catch((err: unknown) => {
      // The backstop fired: the importer did not stop at its own deadline and was killed.
      if (hasCode(err, 'budget-exceeded')) throw jobDeadlineError(undefined, this.deadlines.jobMs);
      if (hasCode(err, 'child-died') && OUT_OF_MEMORY.test((err as Error).message)) {
        throw importOutOfMemoryError(memoryMb);
      }
      if (hasCode(err, 'child-died')) {
        // "The importer process was stopped by SIGKILL." and what it means here, not which bus call was open.
        const how = (err as Error).message.split(/(?<=\.) /)[0]!;
        throw new ParleyError('child-died', `${how} The import did not finish; nothing was changed.`, (err as ParleyError).data);
      }
      throw err;
    });
  }

  /**
   * Whether an import converts an OpenAPI definition (inChild's `compact`): said by the format, or
   * by auto-detect on the file's or text's head. A URL is read by the importer, not here; what is
   * imported from a URL is a definition (a HAR capture, the format whose budget is time, comes from
   * a file or a paste). A source that cannot be read says no, and the importer says why.
   */
  private async convertsDefinition(req: ReqOf<'import.run'>): Promise<boolean> {
    if (req.format !== 'auto') return req.format === 'openapi';
    if (req.source.kind === 'url') return true;
    // A folder of .proto files or a gRPC server is never an OpenAPI definition.
    if (req.source.kind === 'folder' || req.source.kind === 'grpc-server') return false;
    const { detection } = await this.detectFormat(req.source).catch(() => ({ detection: null }));
    return detection?.format === 'openapi';
  }

  /** The job's deadline plus the grace the importer gets to report it itself. */
  private get budgetMs(): number {
    return this.deadlines.jobMs + this.graceMs;
  }

  private apiOf(req: { project: string; api: string }): { store: ProjectStore; api: Api } {
    const store = this.sup.project(req.project);
    const api = store.getApi(req.api);
    if (!api.definition) throw new ParleyError('no-definition', `${api.name} was not imported from a definition, so there is nothing to update it from.`);
    return { store, api };
  }

  /** The job for the recorded source (with its stored credentials, rule 7) or the one the user chose. */
  private async updateJob(store: ProjectStore, api: Api, req: ReqOf<'api.definitionPreview'>) {
    const definition = api.definition!;
    let source: ImportSource;
    if (req.source) {
      if (req.source.kind === 'paste') throw new ParleyError('bad-input', 'A definition update reads a file or a URL; pasted text cannot be read again.');
      source = req.source;
      if (source.kind === 'url' && !source.credentials && req.useStoredCredentials && definition.source?.kind === 'url' && sameOrigin(source.url, definition.source.location)) {
        const credentials = await this.storedCredentials(definition.source);
        if (credentials) source = { ...source, credentials };
      }
    } else {
      if (!definition.source) throw new ParleyError('no-source', `${api.name} was imported from pasted text: choose a file or URL to update it from.`);
      source = definition.source.kind === 'file' ? { kind: 'file', path: definition.source.location } : { kind: 'url', url: definition.source.location };
      if (source.kind === 'url') {
        const credentials = await this.storedCredentials(definition.source);
        if (credentials) source = { ...source, credentials };
      }
    }
    const dir = store.apiDir(api.id);
    const cached: CachedFile[] = [];
    for (const path of definition.cached) {
      const full = resolveInside(dir, path, 'cached definition document');
      const rel = path.startsWith(`${DEFINITION_DIR}/`) ? path.slice(DEFINITION_DIR.length + 1) : path;
      try {
        cached.push({ path: rel, bytes: new Uint8Array(await readFile(full)) });
      } catch {
        // A cached file gone from disk: the preview then compares against what is left.
      }
    }
    // A definition's update concerns the HTTP requests made from it.
    return { api, requests: (await store.requestsOf(api.id)).filter(isHttp), cached, source, network: await this.network(), deadlines: this.deadlines };
  }

  private async storedCredentials(source: DefinitionSource): Promise<FetchCredentials | null> {
    const recorded = source.credentials;
    if (!recorded) return null;
    if (recorded.type === 'kerberos') return recorded.spn ? { type: 'kerberos', spn: recorded.spn } : { type: 'kerberos' };
    const name = /^\$\{secret:([^}]+)\}$/.exec(recorded.secret)?.[1];
    const value = name ? await this.sup.secrets.get(name) : null;
    if (value === null) throw new ParleyError('secret-missing', `The stored credentials for ${source.location} are not in the secret store any more; choose the source again with its credentials.`);
    if (recorded.type === 'basic') return { type: 'basic', username: recorded.username ?? '', password: value };
    if (recorded.type === 'bearer') return { type: 'bearer', token: value };
    return { type: 'apikey', name: recorded.name ?? 'api_key', in: recorded.in ?? 'header', value };
  }

  /** Rule 6: a URL records itself and its credentials (none clears them); a file clears them. */
  private sourceToRecord(api: Api, source: ImportSource): DefinitionSource | null {
    if (source.kind === 'file') return { kind: 'file', location: resolve(source.path) };
    if (source.kind === 'paste') return null;
    const location = redactUrl(source.url, source.credentials);
    const c = source.credentials;
    if (!c) return { kind: 'url', location };
    if (c.type === 'kerberos') return { kind: 'url', location, credentials: kerberosRecord(c) };
    const secret = `\${secret:${definitionSecretName(api.id)}}`;
    const credentials: NonNullable<DefinitionSource['credentials']> =
      c.type === 'basic' ? { type: 'basic', username: c.username, secret } : c.type === 'bearer' ? { type: 'bearer', secret } : { type: 'apikey', name: c.name, in: c.in, secret };
    return { kind: 'url', location, credentials };
  }

  /**
   * What the import would put in the secret store (fetch credentials, secret variables): kept when
   * there is a store; else refused, or with `leaveOut` taken out of the result with a warning each.
   */
  private async secretsOrLeaveOut(result: ImportResult, leaveOut: boolean, source: ImportJobSource): Promise<void> {
    const credentialed = source.kind === 'url' && source.credentials ? result.apis.filter((a) => a.secret) : [];
    const variables = [...(result.environments ?? []).flatMap((e) => e.variables), ...(result.globals ?? [])].filter((v) => v.secret && v.value !== '');
    const found = (result.secrets ?? []).filter((v) => v.value !== '');
    if (credentialed.length === 0 && variables.length === 0 && found.length === 0) return;
    const reason = await this.sup.secrets.unavailableReason();
    if (reason === null) return;
    const what = [
      credentialed.length > 0 ? 'the credentials the definition was fetched with' : '',
      variables.length > 0 ? `${variables.length} secret variable value${variables.length === 1 ? '' : 's'}` : '',
      found.length > 0 ? `${found.length} password${found.length === 1 ? '' : 's'} or credential${found.length === 1 ? '' : 's'}` : '',
    ].filter(Boolean).join(' and ');
    if (!leaveOut) throw await noStorageError(this.sup.secrets, reason, `The import brings ${what}, so nothing was imported.`);
    for (const api of credentialed) {
      delete api.secret;
      if (api.api.definition?.source) delete api.api.definition.source.credentials;
    }
    for (const v of variables) v.value = '';
    // The files keep their `${secret:…}` references, which resolve once the user sets those secrets.
    for (const v of found) v.value = '';
    if (found.length > 0) result.report.warnings.push({ message: `${found.length} password${found.length === 1 ? '' : 's'} or credential${found.length === 1 ? '' : 's'} from the source ${found.length === 1 ? 'was' : 'were'} not kept: there is no secure storage (no system keychain, and no vault unlocked). The requests refer to ${found.length === 1 ? 'a secret' : 'secrets'} you can set later: ${found.slice(0, 5).map((f) => f.name).join(', ')}.` });
    const warnings = result.report.warnings;
    if (credentialed.length > 0) warnings.push({ message: 'The credentials the definition was fetched with were not kept: there is no secure storage for them (no system keychain, and no vault unlocked). Update definition asks for them again.' });
    if (variables.length > 0) warnings.push({ message: `${variables.length === 1 ? 'A secret variable arrives' : `${variables.length} secret variables arrive`} empty: there is no secure storage for ${variables.length === 1 ? 'its value' : 'their values'} (no system keychain, and no vault unlocked). Set ${variables.length === 1 ? 'it' : 'them'} in the Environments tab.` });
  }

  private async storeSecrets(apis: ImportedApi[], source: ImportJobSource): Promise<string[]> {
    const stored: string[] = [];
    if (source.kind !== 'url' || !source.credentials) return stored;
    for (const api of apis) {
      if (!api.secret) continue;
      await this.sup.secrets.set(api.secret.name, secretValue(source.credentials));
      stored.push(api.secret.name);
    }
    return stored;
  }

  /**
   * The secrets a source held in its text (a .http file's URL password or credential header):
   * stored under the names its files refer to; one the store already holds is kept and said.
   */
  private async storeFoundSecrets(result: ImportResult): Promise<string[]> {
    const stored: string[] = [];
    const kept: string[] = [];
    for (const secret of result.secrets ?? []) {
      if (secret.value === '') continue;
      if ((await this.sup.secrets.get(secret.name)) !== null) {
        kept.push(secret.name);
        continue;
      }
      await this.sup.secrets.set(secret.name, secret.value);
      stored.push(secret.name);
    }
    if (kept.length > 0) result.report.warnings.push({ message: `The secret store already holds ${kept.length === 1 ? 'a secret' : 'secrets'} named ${kept.slice(0, 5).join(', ')}: ${kept.length === 1 ? 'it was' : 'they were'} kept (the imported value${kept.length === 1 ? ' was' : 's were'} not stored).` });
    if (stored.length > 0) {
      const place = (await this.sup.secrets.backend()) === 'vault' ? 'the vault' : 'the system keychain';
      result.report.notes = [...(result.report.notes ?? []), { message: `${stored.length} password${stored.length === 1 ? '' : 's'} and credential${stored.length === 1 ? '' : 's'} from the source went to ${place}; the requests hold \${secret:…} references.` }];
    }
    return stored;
  }

  private async rememberSecrets(names: string[]): Promise<void> {
    if (names.length === 0) return;
    const ws = await this.sup.workspace.update((draft) => {
      draft.secrets = [...new Set([...draft.secrets, ...names])].sort();
    });
    this.sup.broadcast('workspace.changed', ws);
  }

  private async network(): Promise<FetchNetwork> {
    const prefs = this.sup.workspace.get().preferences;
    let caPem = '';
    if (prefs.caBundle) {
      try {
        caPem = await readFile(prefs.caBundle, 'utf8');
      } catch (err) {
        throw new ParleyError('bad-input', `The CA bundle ${prefs.caBundle} in Preferences could not be read (${(err as NodeJS.ErrnoException).code}).`);
      }
    }
    return { proxy: prefs.proxy, caPem };
  }
}

/** The heap an importer gets when the source's size is not known before reading (a URL): room for the most it may read. */
const DEFAULT_IMPORTER_MEMORY_MB = memoryForBytes(DEFAULT_LIMITS.totalBytes);
/** What V8 prints when a heap limit is reached (the importer then aborts). */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i;

/**
 * The importer child of a job: its heap cap, and whether it favors memory (ImportService.inChild).
 * `--job-child` has it start its job thread while it waits for the job (job-thread.ts).
 */
function importerSpec(memoryMb: number, compact: boolean): JobSpec {
  return { name: 'importer process', entry: distEntry('importer.js'), args: ['--job-child'], execArgv: [`--max-old-space-size=${memoryMb}`, ...(compact ? ['--optimize-for-size'] : [])] };
}

/**
 * The importer's heap cap for a source: room for the runtime and the converted model plus a
 * multiple of the source, within 256 MB..4 GB. The multiple is what the worst shape of a JSON
 * document needs: one object of millions of keys (a 48 MB Postman collection of 4 million keys in
 * its `info` ran out at 8x, 559 MB, and was imported at 16x; test/integration/import-json-limits.test.ts).
 * A URL's size is unknown until fetched: the loader's 50 MB cap bounds it.
 */
export async function importerMemoryMb(source: ImportJobSource): Promise<number> {
  let bytes: number | undefined;
  if (source.kind === 'paste') bytes = source.text.length * 2;
  else if (source.kind === 'file') bytes = await stat(source.path).then((s) => s.size, () => 0);
  if (bytes === undefined) return DEFAULT_IMPORTER_MEMORY_MB;
  return memoryForBytes(bytes);
}

export function memoryForBytes(bytes: number): number {
  return Math.min(4096, Math.max(256, Math.ceil(192 + (16 * bytes) / (1024 * 1024))));
}

/** Imported examples' staged files beside their (new) requests, as Save as example writes them (docs/examples.md). */
function* exampleChanges(examples: readonly StagedExampleFile[], requestFiles: ReadonlyMap<string, string>): Generator<FileChange> {
  for (const { request, name, file } of examples) {
    const requestPath = requestFiles.get(request);
    if (!requestPath) throw new ParleyError('internal', 'An imported example names a request the import did not make.');
    yield { path: join(examplesDirOf(requestPath), name), content: file };
  }
}

/** A staged request as the store places it: its file named after it, in its folder. */
function requestFile(staged: StagedRequest): NewRequestFile {
  return { folder: staged.folder, name: staged.name, suffix: staged.suffix, content: staged.file };
}

/** Parts are checked against the answer they belong to: one with no place in it is refused, never guessed at. */
function refuseUnplaced(staging: ImportStaging, result: ImportResult): void {
  if (staging.requests.length > result.apis.length) {
    throw new ParleyError('invalid-payload', `The importer sent requests for API ${staging.requests.length} of an answer that has ${result.apis.length}.`);
  }
  if (staging.webhooks.length > 0 && !result.webhooks) throw new ParleyError('invalid-payload', 'The importer sent Webhooks requests, but its answer has no Webhooks folder.');
}

/** `existing` plus each row of `incoming` whose name it lacks; a name it has keeps its value (`kept` names them). */
function mergeRows(existing: Row[], incoming: Row[]): { rows: Row[]; added: number; kept: string[] } {
  const had = new Set(existing.map((r) => r.name));
  const names = new Set(had);
  const rows = [...existing];
  const kept = new Set<string>();
  for (const row of incoming) {
    if (had.has(row.name)) kept.add(row.name);
    if (names.has(row.name)) continue;
    names.add(row.name);
    rows.push(row);
  }
  return { rows, added: rows.length - existing.length, kept: [...kept] };
}

/**
 * Imported scripts as text files in imported-scripts/ (never run): the importer made each name
 * portable; one the folder already holds gets a number ('x 2.groovy'), so nothing is overwritten.
 */
async function scriptChanges(root: string, scripts: readonly ImportedScript[]): Promise<FileChange[]> {
  const dir = join(root, IMPORTED_SCRIPTS_DIR);
  const taken = new Set<string>();
  for (const name of await readdir(dir).catch(() => [] as string[])) taken.add(fileNameKey(name));
  return scripts.map((script) => {
    const dot = script.name.lastIndexOf('.');
    const stem = dot > 0 ? script.name.slice(0, dot) : script.name;
    const ext = dot > 0 ? script.name.slice(dot) : '';
    let name = portableFileName(script.name, { fallback: 'script' });
    for (let n = 2; taken.has(fileNameKey(name)); n++) name = `${numberedFileName(portableFileName(stem, { fallback: 'script' }), n)}${ext}`;
    taken.add(fileNameKey(name));
    return { path: resolveInside(dir, name, 'imported script'), content: script.text };
  });
}

/** `name`, or `name 2`, `name 3`... the first not taken, case-insensitively (SPEC: 'Staging 2'). */
export function unusedName(name: string, taken: Iterable<string>): string {
  const lower = new Set([...taken].map((t) => t.toLowerCase()));
  if (!lower.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const candidate = `${name} ${n}`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}

function sourceName(source: ImportJobSource): string {
  if (source.kind === 'file' || source.kind === 'folder') return basename(source.path);
  if (source.kind === 'grpc-server') return `The gRPC server at ${source.address}`;
  if (source.kind === 'url') return 'The document';
  return 'The pasted text';
}

/** The keychain value of credentials; Kerberos has none (never called for it: its APIs carry no `secret`). */
function secretValue(c: FetchCredentials): string {
  return c.type === 'basic' ? c.password : c.type === 'bearer' ? c.token : c.type === 'apikey' ? c.value : '';
}

/** The URL as it may be shown or recorded: no user info, no query key of an API key credential. */
function redactUrl(url: string, credentials: FetchCredentials | undefined): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    if (credentials?.type === 'apikey' && credentials.in === 'query') u.searchParams.delete(credentials.name);
    return u.toString();
  } catch {
    return '(an invalid URL)';
  }
}

function describeSource(source: ImportSource): string {
  if (source.kind === 'file') return resolve(source.path);
  if (source.kind === 'url') return redactUrl(source.url, source.credentials);
  return 'pasted text';
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

function joinFolder(a: string, b: string): string {
  return [a, b].filter(Boolean).join('/');
}

async function refuseExistingProject(path: string): Promise<void> {
  const handle = await openFile(join(resolve(path), PROJECT_FILE), fsConstants.O_RDONLY).catch(() => null);
  if (!handle) return;
  await handle.close();
  throw new ParleyError('project-exists', `${resolve(path)} is already a Parley project: open it and import into it instead.`);
}
