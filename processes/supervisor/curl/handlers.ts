/**
 * cURL in the supervisor: the Import cURL dialog's live preview and its Import, and Copy as cURL
 * for a request or a History entry. Commands are read in an importer child kept running between
 * reads, with a deadline (curl-reader.ts); the supervisor writes what it made.
 */
import type { Handlers } from '../../../protocol/peer.js';
import type { Request } from '../../../protocol/model/request.js';
import { asHttp } from '../../../protocol/kinds/index.js';
import type { CurlImportReport } from '../../../protocol/model/curl.js';
import type { Supervisor } from '../supervisor.js';
import type { ProjectStore } from '../store/project-store.js';
import { addBodyFile } from '../store/body-files.js';
import { ParleyError } from '../../../protocol/errors.js';
import { newId } from '../../../protocol/ids.js';
import { moveSecretsToStore } from '../send/secure-auth.js';
import { prepareSend } from '../send/send-service.js';
import { bodyLabel } from '../../importer/engine/curl/convert-command.js';
import { entryToCurl, specToCurl } from './copy.js';
import { describeLocalFile, localFilesOf, locateBodyFiles, withBodyFiles, type LocatedFile } from './local-files.js';

/** Copy as cURL never starts an OAuth 2 sign-in: the token is left as a placeholder to fill in. */
const OAUTH_PLACEHOLDER = '<OAuth 2 access token>';

/**
 * What an import does with files outside the project that the command sends: copy them all (the
 * CLI's --allow-local-files), copy those whose real paths are listed (the ones the dialog showed
 * and the user ticked), or refuse the whole import (the CLI without the flag). A file not copied
 * is left out of the request, and the report says so.
 */
export type LocalFilesPolicy = 'copy' | 'refuse' | { copy: readonly string[] };

/**
 * A curl command as a new request under `parent` (an API or folder id) of the project; a password
 * or token from the command goes to the secret store before the file is written. Without a store
 * the import is refused, or with `leaveOutSecrets` made with that field empty and a note saying so.
 */
export async function importCurl(
  sup: Supervisor,
  input: { project: string; parent: string; command: string; name?: string; filesFrom?: string; localFiles?: LocalFilesPolicy; leaveOutSecrets?: boolean },
): Promise<{ request: Request; report: CurlImportReport; file: string }> {
  const store = sup.project(input.project);
  const id = newId('r');
  const read = await sup.curl.read(input.command, { id, ...(input.name !== undefined ? { name: input.name } : {}) });
  const located = await locateBodyFiles(store.root, read.request, input.filesFrom ?? store.root);
  const local = localFilesOf(located);
  if (input.localFiles === 'refuse' && local.length > 0) {
    throw new ParleyError(
      'local-files-refused',
      `The curl command sends ${local.length === 1 ? 'a file' : 'files'} from outside the project, which the import would copy into it: ${local.map(describeLocalFile).join(', ')}. Nothing was imported.`,
      { files: local.map((f) => f.path) },
    );
  }
  const placed = await placeBodyFiles(store, read, located, input.localFiles ?? { copy: [] }, input.filesFrom);
  const { request } = placed;
  const secured = await moveSecretsToStore(request.auth, `request/${id}`, sup.secrets, { leaveOut: input.leaveOutSecrets === true, refusal: 'The command carries a password or token, so nothing was imported.' });
  const report = secured.leftOut.length > 0 ? { ...placed.report, notes: [...placed.report.notes, leftOutNote(secured.leftOut)] } : placed.report;
  if (secured.stored.length > 0) {
    const ws = await sup.workspace.update((draft) => {
      draft.secrets = [...new Set([...draft.secrets, ...secured.stored])].sort();
    });
    sup.broadcast('workspace.changed', ws);
  }
  const saved = asHttp(await store.addNewRequest(input.parent, { ...request, auth: secured.auth }), 'A cURL import');
  sup.projectChanged(store, [saved.id]);
  return { request: saved, report, file: store.requestFile(saved.id) };
}

/** The report's note for secrets an import left out: what is empty, and why. */
export function leftOutNote(fields: readonly string[]): string {
  const what = fields.map((f) => FIELD_WORDS.get(f) ?? f).join(' and ');
  return `The ${what} was not imported: there is no secure storage for it (no system keychain, and no vault unlocked). The field is empty: type it on the Auth tab before sending.`;
}

const FIELD_WORDS = new Map([
  ['password', 'password'],
  ['token', 'token'],
  ['value', 'API key'],
  ['clientSecret', 'client secret'],
]);

/**
 * The files a command sends as body files of the project, which Send reads only inside it
 * (docs/project-files.md). One inside the project is named where it is; one outside is copied
 * into files/ (as Choose… does) only when the policy allows that file, else left out with a note;
 * one that is not there keeps its path as written, with a note.
 */
async function placeBodyFiles(
  store: ProjectStore,
  read: { request: Request; report: CurlImportReport },
  located: readonly LocatedFile[],
  policy: LocalFilesPolicy,
  filesFrom: string | undefined,
): Promise<{ request: Request; report: CurlImportReport }> {
  const notes = [...read.report.notes];
  const copied: { from: string; to: string }[] = [];
  const allowed = (path: string) => policy === 'copy' || (typeof policy === 'object' && policy.copy.includes(path));
  const files: string[] = [];
  for (const file of located) {
    if (file.where === 'inside') {
      files.push(file.path);
    } else if (file.where === 'outside' && allowed(file.local.path)) {
      const placed = await addBodyFile(store, file.local.path);
      copied.push({ from: file.local.path, to: placed.path });
      files.push(placed.path);
    } else if (file.where === 'outside') {
      notes.push(`${describeLocalFile(file.local)} is outside the project and was not copied into it: the ${file.field} has no file. Choose one on the Body tab.`);
      files.push('');
    } else {
      notes.push(
        filesFrom !== undefined
          ? `${file.file} was not found in ${filesFrom}: the request names it as written; choose the file on the Body tab.`
          : `${file.file} is not a file in the project folder, and Send reads body files only there: choose it on the Body tab (it is copied into the project).`,
      );
      files.push(file.file);
    }
  }
  const request = { ...read.request, body: withBodyFiles(read.request.body, files) };
  const local = localFilesOf(located);
  // The body as imported (`binary file files/payload.json`), not as the command wrote it.
  const preview = { ...read.report.preview, bodyKind: bodyLabel(request.body) };
  return { request, report: { ...read.report, preview, notes, ...(local.length > 0 ? { localFiles: local } : {}), ...(copied.length > 0 ? { copied } : {}) } };
}

export function curlHandlers(sup: Supervisor): Handlers {
  return {
    'curl.preview': async ({ command, project }) => {
      const read = await sup.curl.read(command, { id: 'preview' });
      if (project === undefined) return read.report;
      const store = sup.project(project);
      const local = localFilesOf(await locateBodyFiles(store.root, read.request, store.root));
      return local.length > 0 ? { ...read.report, localFiles: local } : read.report;
    },

    'curl.import': async ({ copyLocalFiles, leaveOutSecrets, ...input }) => {
      const { request, report } = await importCurl(sup, { ...input, localFiles: { copy: copyLocalFiles ?? [] }, leaveOutSecrets: leaveOutSecrets === true });
      return { request, report };
    },

    'request.curl': async ({ project, request, showSecrets }) => {
      const deps = { ...sup.sendDeps, oauthToken: async () => OAUTH_PLACEHOLDER };
      const prepared = await prepareSend(sup, deps, project, request as Request);
      return { command: specToCurl(prepared.spec, showSecrets ? null : prepared.secrets, prepared.capturedCredentials) };
    },

    'history.curl': async ({ project, id, showSecrets }) => {
      const entry = await sup.history.get(sup.project(project).root, id);
      let secrets: Map<string, string> | null = null;
      if (showSecrets) {
        secrets = new Map();
        for (const m of JSON.stringify(entry.request).matchAll(/\$\{secret:([^{}]+)\}/g)) {
          const value = await sup.secrets.get(m[1]!).catch(() => null);
          if (value !== null) secrets.set(m[1]!, value);
        }
      }
      return { command: entryToCurl(entry, secrets) };
    },
  };
}
