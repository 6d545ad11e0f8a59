/**
 * `parley import --format curl`: a curl command (a file, or `-` for standard input) as a new
 * request in an API (and folder) of a project, through the same supervisor code as the app's
 * Import cURL dialog. The report has the dialog's preview (never a header value or a password)
 * and every option the import ignored, so scripts can turn curl commands into requests.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { ParleyError, hasCode } from '../../protocol/errors.js';
import type { CurlImportReport } from '../../protocol/model/curl.js';
import type { Request } from '../../protocol/model/request.js';
import { apiNamed } from './api-named.js';
import { commandFailed, type CommandIo } from './command-line.js';
import { CliSession, noStorageAdvice } from './session.js';

/** The longest command read (the import's own cap is 1 MB of text; bytes are counted here). */
const MAX_COMMAND_BYTES = 4 * 1024 * 1024;

export interface CurlOptions {
  project?: string;
  'new-project'?: string;
  api?: string;
  folder?: string;
  name?: string;
  'base-url'?: string;
  'no-cache': boolean;
  'no-webhooks': boolean;
  json: boolean;
  verbose: boolean;
  'allow-local-files': boolean;
  'without-secrets': boolean;
}

export const CURL_HELP = `  parley import --format curl <file | -> --project <folder> --api <name> [--folder <path>] [--name <name>] [--allow-local-files] [--json]
      <file> holds a curl command (the first one, when there are several); - reads it from standard input.
      --api <name>      the API the request goes in (its name, or its id when two share a name)
      --folder <path>   a folder of that API, made when missing (a/b for a folder inside a folder)
      --name <name>     the request's name (default: its method and path)
      --allow-local-files
                        copy into the project's files/ the files outside the project that the
                        command sends (--data-binary @file, -d @file, --json @file, -F part=@file);
                        without it such a command is refused, naming the files, and nothing is written
      --without-secrets with no secure storage, import the request with the command's password or
                        token left out (the report says so) instead of refusing
      Files are read where curl would read them (this folder); one inside the project is named
      where it is. The report names the method and URL, header names, body kind and Basic user
      (never a header value or a password), every curl option the import ignored, and each file
      copied (source -> project path). A password or token goes to secure storage (the system
      keychain, or the workspace's vault unlocked with PARLEY_VAULT_PASSPHRASE): without one, a
      command carrying them is refused, or with --without-secrets imported with the field empty.
`;

/** What is wrong with a curl import's command line, before anything is read. */
export function curlUsageProblem(options: CurlOptions, positionals: string[], credentialFlag: boolean): string | undefined {
  if (positionals.length !== 1) return 'give the file holding the curl command, or - for standard input.';
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(positionals[0]!)) return 'a curl command is read from a file or standard input (-), not from a URL.';
  if (options['new-project'] !== undefined) return 'a curl command is imported into an API of an existing project: use --project <folder> --api <name>.';
  if (!options.project) return 'say which project to import into with --project <folder>.';
  if (!options.api) return 'say which API the request goes in with --api <name>.';
  if (options['base-url'] !== undefined || options['no-cache'] || options['no-webhooks']) return '--base-url, --no-cache and --no-webhooks are for definitions, not curl commands.';
  if (credentialFlag) return 'the --auth-* options are for fetching a definition by URL; a curl command carries its own credentials.';
  return undefined;
}

export async function runCurlImport(options: CurlOptions, arg: string, io: CommandIo): Promise<number> {
  const session = new CliSession();
  try {
    const command = await readCommand(arg, io.stdin);
    const sup = await session.supervisor(options.verbose ? (line) => void io.stderr.write(`${line}\n`) : undefined);
    const store = await sup.openProject(resolve(options.project!));
    const api = apiNamed(store.listApis(), options.api!, store.root);
    const folder = (options.folder ?? '').replace(/^\/+|\/+$/g, '');
    // The import's supervisor code is loaded here, with the parser, only for this format.
    const { importCurl } = await import('../../processes/supervisor/curl/handlers.js');
    // Files the command names are read from here, where curl would read them, and brought into the project.
    // A command written elsewhere must not bring this machine's files into a shared project unasked.
    const result = await importCurl(sup, {
      project: store.root,
      parent: folder ? `${api.id}/${folder}` : api.id,
      command,
      filesFrom: process.cwd(),
      localFiles: options['allow-local-files'] ? 'copy' : 'refuse',
      leaveOutSecrets: options['without-secrets'],
      ...(options.name !== undefined ? { name: options.name } : {}),
    });
    const place = folder ? `${api.name} / ${folder.split('/').join(' / ')}` : api.name;
    io.stdout.write(options.json ? `${JSON.stringify(curlJson(result, store.root, place), null, 2)}\n` : renderCurl(result, place));
    return session.exitCode(0);
  } catch (err) {
    if (session.wasInterrupted(err)) return session.cancelled('import', io.stderr);
    const advice = hasCode(err, 'local-files-refused') ? ' Give --allow-local-files to copy them, or move them into the project folder first.' : noStorageAdvice(err);
    return commandFailed(io, 'import', err, options.json, advice);
  } finally {
    await session.close();
  }
}

async function readCommand(arg: string, stdin: Readable): Promise<string> {
  let bytes: Buffer;
  if (arg === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin) {
      size += (chunk as Buffer).length;
      if (size > MAX_COMMAND_BYTES) throw new ParleyError('import-too-large', `Standard input holds more than ${MAX_COMMAND_BYTES / 1024 / 1024} MB: that is not one curl command.`);
      chunks.push(chunk as Buffer);
    }
    bytes = Buffer.concat(chunks);
  } else {
    bytes = await readFile(resolve(arg)).catch((err: NodeJS.ErrnoException) => {
      throw new ParleyError('import-file-unreadable', `${arg} could not be read (${err.code === 'ENOENT' ? 'not found' : (err.code ?? err.message)}).`, { file: arg });
    });
    if (bytes.length > MAX_COMMAND_BYTES) throw new ParleyError('import-too-large', `${arg} is larger than ${MAX_COMMAND_BYTES / 1024 / 1024} MB: that is not one curl command.`);
  }
  const text = bytes.toString('utf8');
  if (!text.trim()) throw new ParleyError('import-unrecognised', `${arg === '-' ? 'Standard input' : arg} is empty: it should hold a curl command.`);
  return text;
}

interface Imported {
  request: Request;
  report: CurlImportReport;
  file: string;
}

function curlJson({ request, report, file }: Imported, root: string, place: string): Record<string, unknown> {
  return {
    project: root,
    into: place,
    request: { id: request.id, name: request.name, file },
    preview: report.preview,
    ignored: report.ignored,
    notes: report.notes,
    copied: report.copied ?? [],
  };
}

function renderCurl({ request, report, file }: Imported, place: string): string {
  const p = report.preview;
  const lines = [`Imported ${request.name} into ${place}`, `  ${'File'.padEnd(10)}${file}`, `  ${'Request'.padEnd(10)}${p.method} ${p.url}`];
  const field = (name: string, value: string) => lines.push(`  ${name.padEnd(10)}${value}`);
  field('Headers', p.headerNames.length ? p.headerNames.join(', ') : '(none)');
  field('Body', p.bodyKind);
  field('Auth', `${p.auth}${p.basicUser !== undefined ? ` as user ${p.basicUser}` : ''}`);
  field('Ignored', report.ignored.length ? report.ignored.join(', ') : '(nothing)');
  for (const { from, to } of report.copied ?? []) field('Copied', `${from} -> ${to}`);
  for (const note of report.notes) field('Note', note);
  return `${lines.join('\n')}\n`;
}
