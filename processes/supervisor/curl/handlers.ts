/**
 * cURL in the supervisor: the Import cURL dialog's live preview and its Import, and Copy as cURL
 * for a request or a History entry. Commands are read in an importer child kept running between
 * reads, with a deadline (curl-reader.ts); the supervisor writes what it made.
 */
import type { Handlers } from '../../../protocol/peer.js';
import type { Request } from '../../../protocol/model/request.js';
import type { CurlImportReport } from '../../../protocol/model/curl.js';
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { Supervisor } from '../supervisor.js';
import type { ProjectStore } from '../store/project-store.js';
import { addBodyFile } from '../store/body-files.js';
import { isInsideFolder } from '../../../protocol/project/safe-path.js';
import { newId } from '../../../protocol/ids.js';
import { moveSecretsToKeychain } from '../send/secure-auth.js';
import { prepareSend } from '../send/send-service.js';
import { entryToCurl, specToCurl } from './copy.js';

/** Copy as cURL never starts an OAuth 2 sign-in: the token is left as a placeholder to fill in. */
const OAUTH_PLACEHOLDER = '<OAuth 2 access token>';

/**
 * A curl command as a new request under `parent` (an API or folder id) of the project; a password
 * or token from the command goes to the keychain before the file is written.
 */
export async function importCurl(
  sup: Supervisor,
  input: { project: string; parent: string; command: string; name?: string; filesFrom?: string },
): Promise<{ request: Request; report: CurlImportReport; file: string }> {
  const store = sup.project(input.project);
  const id = newId('r');
  const read = await sup.curl.read(input.command, { id, ...(input.name !== undefined ? { name: input.name } : {}) });
  const { request, report } = await placeBodyFiles(store, read, input.filesFrom);
  const secured = await moveSecretsToKeychain(request.auth, `request/${id}`, sup.secrets);
  if (secured.stored.length > 0) {
    const ws = await sup.workspace.update((draft) => {
      draft.secrets = [...new Set([...draft.secrets, ...secured.stored])].sort();
    });
    sup.broadcast('workspace.changed', ws);
  }
  const saved = await store.addNewRequest(input.parent, { ...request, auth: secured.auth });
  sup.projectChanged(store, [saved.id]);
  return { request: saved, report, file: store.requestFile(saved.id) };
}

/**
 * The files a command sends (`--data-binary @f`, `-F p=@f`) as body files of the project, which
 * Send reads only inside it (docs/project-files.md). With `filesFrom` (the command line's folder,
 * where curl would read them) each is brought in as Choose… does: named where it is when inside
 * the project, else copied into files/. Without it (the dialog, which has no shell folder) a path
 * is relative to the project folder, and a note says when no such file is there.
 */
async function placeBodyFiles(store: ProjectStore, read: { request: Request; report: CurlImportReport }, filesFrom: string | undefined): Promise<{ request: Request; report: CurlImportReport }> {
  const notes = [...read.report.notes];
  const place = async (file: string): Promise<string> => {
    if (filesFrom !== undefined) {
      const full = resolve(filesFrom, file);
      if (await isFile(full)) return (await addBodyFile(store, full)).path;
      notes.push(`${file} was not found in ${filesFrom}: the request names it as written; choose the file on the Body tab.`);
      return file;
    }
    const inProject = isAbsolute(file) ? null : resolve(store.root, file);
    if (!inProject || !(await isFile(inProject)) || !isInsideFolder(store.root, inProject)) {
      notes.push(`${file} is not a file in the project folder, and Send reads body files only there: choose it on the Body tab (it is copied into the project).`);
    }
    return file;
  };
  const body = { ...read.request.body };
  if (body.kind === 'binary' && body.binary.file) body.binary = { ...body.binary, file: await place(body.binary.file) };
  if (body.kind === 'multipart') {
    const parts = [];
    for (const part of body.multipart) parts.push(part.kind === 'file' ? { ...part, file: await place(part.file) } : part);
    body.multipart = parts;
  }
  return { request: { ...read.request, body }, report: { ...read.report, notes } };
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

export function curlHandlers(sup: Supervisor): Handlers {
  return {
    'curl.preview': async ({ command }) => (await sup.curl.read(command, { id: 'preview' })).report,

    'curl.import': async (input) => {
      const { request, report } = await importCurl(sup, input);
      return { request, report };
    },

    'request.curl': async ({ project, request, showSecrets }) => {
      const deps = { ...sup.sendDeps, oauthToken: async () => OAUTH_PLACEHOLDER };
      const prepared = await prepareSend(sup, deps, project, request as Request);
      return { command: specToCurl(prepared.spec, showSecrets ? null : prepared.secrets) };
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
