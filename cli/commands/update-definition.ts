/**
 * `parley update-definition`: reads an imported API's definition again (its recorded source, or
 * --source), prints what would change and, without --preview, applies exactly that: the apply is
 * refused if any document read differs from the preview's (its fingerprint). The same supervisor
 * service and importer child as the app's "Update from definition". Exit 0 done (also when
 * nothing changed); 2 refused or failed; 130/143 cancelled by Ctrl+C/SIGTERM.
 */
import { resolve } from 'node:path';
import { ParleyError } from '../../protocol/errors.js';
import { hasCode } from '../../protocol/errors.js';
import type { ImportSource } from '../../protocol/model/import.js';
import { commandFailed, processIo, readCommandLine, type CommandIo, type CommandLine, type CommonFlags } from '../import/command-line.js';
import { CREDENTIAL_HELP, credentialFlagGiven } from '../import/credentials.js';
import { ProgressLine } from '../import/progress.js';
import { renderCounts, renderPreview, updateJson, type UpdateView } from '../import/render.js';
import { CliSession, requireKeychain } from '../import/session.js';
import { importSourceOf, sourceArgOf } from '../import/source.js';
import { apiNamed } from '../import/api-named.js';

export const UPDATE_DEFINITION_HELP = `parley update-definition: update an imported API from its definition

Usage:
  parley update-definition <project-folder> --api <name> [--source <file or URL>] [--preview] [--json]
      Reads the definition again, prints the operations added, removed and changed and the
      API-wide changes, then applies them: new requests are added, generated parts of existing
      requests are rewritten (your edits are kept), requests whose operation is gone are kept
      and marked orphaned.

Options:
  --api <name>              the API to update (its name, or its id when two share a name)
  --source <file | URL>     read this instead of the recorded source (recorded for next time);
                            needed for an API imported from pasted text
  --preview                 only print what would change; nothing is written
  --json                    print one JSON object instead of the report
  --verbose                 show what Parley's processes log
  --help                    this text

${CREDENTIAL_HELP}  A URL on the recorded source's origin without --auth-* uses the credentials stored at
  import (in the system keychain); so does the recorded source itself.

Exit codes: 0 previewed or applied (also when nothing changed); 2 not done (unknown API,
            unreadable source, the definition changed during the run...); 130/143 cancelled.
`;

interface Options extends CommonFlags {
  api?: string;
  source?: string;
  preview: boolean;
}

const COMMAND: CommandLine<Options> = {
  name: 'update-definition',
  usage: 'parley update-definition <project-folder> --api <name> [--source <file or URL>] [--preview] [--json]',
  help: UPDATE_DEFINITION_HELP,
  options: {
    api: { type: 'string' },
    source: { type: 'string' },
    preview: { type: 'boolean', default: false },
  },
  usageProblem,
};

export async function runUpdateDefinition(args: string[], io: CommandIo = processIo()): Promise<number> {
  const line = readCommandLine(COMMAND, args, io);
  if ('exit' in line) return line.exit;
  const { options, positionals, credentials } = line;

  const session = new CliSession();
  const progress = new ProgressLine(io.stderr);
  try {
    let source: ImportSource | undefined;
    if (options.source !== undefined) {
      const given = await importSourceOf(await sourceArgOf(options.source, { allowStdin: false }), credentials, io.stdin, session.signal);
      // A folder is never taken for a document here (sourceArgOf without allowFolder).
      if (given.kind === 'folder' || given.kind === 'grpc-server') throw new ParleyError('bad-input', 'A definition update reads a file or a URL.');
      source = given;
    }
    const sup = await session.supervisor(options.verbose ? (line) => void io.stderr.write(`${line}\n`) : undefined);
    if (credentials && credentials.type !== 'kerberos' && !options.preview) await requireKeychain(sup);
    const store = await sup.openProject(resolve(positionals[0]!));
    const api = apiNamed(store.listApis(), options.api!, store.root);
    const request = {
      project: store.root,
      api: api.id,
      ...(source ? { source } : {}),
      // Rule 7: a URL given without credentials, on the recorded origin, reuses the stored ones.
      ...(source?.kind === 'url' && !source.credentials ? { useStoredCredentials: true } : {}),
    };
    const ctx = { signal: session.signal, chunk: progress.show.bind(progress) };
    const { preview, source: shownSource } = await sup.imports.preview(request, ctx);
    const view: UpdateView = { project: store.root, api: { id: api.id, name: api.name }, source: shownSource, preview };
    if (!options.preview) view.counts = (await sup.imports.apply({ ...request, fingerprint: preview.fingerprint }, ctx)).counts;
    progress.clear();
    if (options.json) io.stdout.write(`${JSON.stringify(updateJson(view), null, 2)}\n`);
    else io.stdout.write(renderPreview(view) + (view.counts ? renderCounts(view.counts) : 'Preview only: nothing was written. Run without --preview to apply.\n'));
    return session.exitCode(0);
  } catch (err) {
    progress.clear();
    if (session.wasInterrupted(err)) return session.cancelled('update-definition', io.stderr);
    return commandFailed(io, 'update-definition', err, options.json, advice(err));
  } finally {
    await session.close();
  }
}

function usageProblem(options: Options, positionals: string[]): string | undefined {
  if (positionals.length !== 1) return 'give one project folder.';
  if (options.api === undefined || options.api === '') return 'say which API to update with --api <name>.';
  if (credentialFlagGiven(options) && !(options.source !== undefined && /^https?:\/\//i.test(options.source))) {
    return 'the --auth-* options go with --source <http(s) URL>; the recorded source uses the credentials stored at import.';
  }
  return undefined;
}

/** What to do next, where the command line differs from the app. */
function advice(err: unknown): string {
  if (hasCode(err, 'no-source')) return ' Pass --source <file or URL>.';
  if (hasCode(err, 'definition-changed')) return ' Run the command again to preview and apply the new version.';
  return '';
}
