/**
 * `parley import`: a document of any format protocol/import-formats.ts lists as built (file, folder, URL or standard input) into a
 * project, through the same supervisor import service and importer child as the app's Import
 * dialog, so the two cannot disagree; with --format curl, a curl command into an API
 * (../import/curl.ts). Exit 0 imported; 2 refused or failed (bad usage, unreadable
 * or malformed document, authentication...); 130/143 when Ctrl+C or SIGTERM cancelled it.
 */
import { resolve } from 'node:path';
import { hasCode } from '../../protocol/errors.js';
import type { ReqOf } from '../../protocol/messages.js';
import type { GrpcServerSource, ImportJobSource, ImportOptions } from '../../protocol/model/import.js';
import { builtFormat } from '../../protocol/import-formats.js';
import { chooseFormatAdvice, formatIds, formatLines } from '../import/formats-help.js';
import { commandFailed, processIo, readCommandLine, type CommandIo, type CommandLine, type CommonFlags } from '../import/command-line.js';
import { CREDENTIAL_HELP, credentialFlagGiven } from '../import/credentials.js';
import { ProgressLine } from '../import/progress.js';
import { importJson, renderImport, type ImportRun } from '../import/render.js';
import { CliSession, noStorageAdvice, requireKeychain } from '../import/session.js';
import { FOLDER_DOCUMENT_NAMES, importSourceOf, sourceArgOf } from '../import/source.js';
import { CURL_HELP, curlUsageProblem, runCurlImport } from '../import/curl.js';

type RecordedResponses = NonNullable<ImportOptions['recordedResponses']>;
const RECORDED_RESPONSES: readonly RecordedResponses[] = ['none', 'history', 'examples'];

const FORMAT_IDS = formatIds();

export const IMPORT_HELP = `parley import: import an API definition, a collection or an environment

Usage:
  parley import <file | folder | URL | -> (--project <folder> | --new-project <folder>) [options]
  parley import --grpc-server <host:port> [--reflection auto|v1|v1alpha] [--tls] [--insecure]
                (--project <folder> | --new-project <folder>) [options]
  parley import <environment or globals export> [options]     (lands in the workspace: no project)
      <file>    an OpenAPI 3.x or Swagger 2.0/1.x document (JSON or YAML); files it references are read too;
                a Postman collection (v2.0, v2.1), environment export or globals export;
                a HAR 1.1/1.2 capture (.har, read as a stream; over 100 MB is refused);
                or a WSDL 1.1 document (.wsdl or .xml: each SOAP 1.1/1.2 binding becomes an API;
                its wsdl:import, xsd:import and xsd:include documents are read and cached too);
                or a SoapUI project (*-soapui-project.xml, a file only: its WSDL interfaces, saved
                requests, properties and environments; scripts kept as text in imported-scripts/);
                or a .proto file (Protocol Buffers: a gRPC API, its imports read from its folder and
                the --proto-path folders, the files kept in the project)
      <folder>  the document at the folder's top level named ${FOLDER_DOCUMENT_NAMES.slice(0, 3).join(', ')},
                ${FOLDER_DOCUMENT_NAMES.slice(3).join(', ')} (collection folders are not supported yet);
                without one, a folder holding .proto files: every .proto below it, as one gRPC API
      <URL>     an http or https URL (credentials below)
      -         the document's text on standard input (relative references cannot resolve)

Options:
  --project <folder>        import into this existing project (a folder with parley.yaml)
  --new-project <folder>    make a new project in this folder and import into it
  --format <format>         the source's format (default auto: recognised from its name and content):
${formatLines(' '.repeat(30))} (below)
  --name <name>             the API's name (default: the document's title)
  --project-name <name>     with --new-project: the new project's name (default: the source's own
                            name, e.g. a SoapUI project's, else the folder's name)
  --base-url <url>          the API's base URL (default: the document's first server)
  --no-cache                do not keep a copy of the definition documents in the project
  --no-webhooks             do not import webhooks and callbacks into the Webhooks collection
  --include-static-assets   HAR: import requests for images, scripts, styles and fonts too
  --use-credentials-for-requests
                            WSDL by URL with --auth-basic or --kerberos: the interfaces' requests
                            use them too (Basic: the password's stored copy; Kerberos: the ticket)
  --recorded-responses none|history|examples
                            HAR: what becomes of the recorded responses (default none; history
                            writes each exchange into History at its recorded time, redacted;
                            examples keeps up to 5 per request, one per status, masked)
  --without-secrets         with no secure storage (no system keychain, and the vault locked or
                            not made), import with passwords, tokens and secret values left
                            out (the report says which) instead of refusing. A workspace with a
                            vault is unlocked with PARLEY_VAULT_PASSPHRASE.
  --proto-path <folder>     .proto: a folder imports are looked for in after the file's own (protoc's -I);
                            give it again for more, in order. Imports never leave these folders.
  --grpc-server <host:port> read a running gRPC server's services by server reflection
  --reflection auto|v1|v1alpha
                            with --grpc-server: the reflection version (default auto: v1, then v1alpha)
  --tls                     with --grpc-server: reach it over TLS (the target is then grpcs:// too)
  --insecure                with --tls: accept a certificate that does not verify
  --json                    print one JSON object instead of the report
  --verbose                 show what Parley's processes log
  --help                    this text

${CREDENTIAL_HELP}
A curl command:
${CURL_HELP}
Exit codes: 0 imported; 1 imported with problems (the report lists errors: a referenced document
            or part of the source could not be read); 2 not imported (bad usage, unreadable or malformed document, refused
            source, authentication needed or refused...); 130/143 cancelled by Ctrl+C/SIGTERM.
`;

interface Options extends CommonFlags {
  api?: string;
  folder?: string;
  project?: string;
  'new-project'?: string;
  format?: string;
  name?: string;
  'project-name'?: string;
  'base-url'?: string;
  'no-cache': boolean;
  'no-webhooks': boolean;
  'include-static-assets': boolean;
  'use-credentials-for-requests': boolean;
  'recorded-responses'?: string;
  'allow-local-files': boolean;
  'without-secrets': boolean;
  'proto-path'?: string[];
  'grpc-server'?: string;
  reflection?: string;
  tls: boolean;
  insecure: boolean;
}

const REFLECTION_VERSIONS = ['auto', 'v1', 'v1alpha'] as const;

const COMMAND: CommandLine<Options> = {
  name: 'import',
  usage: 'parley import <file | folder | URL | -> (--project <folder> | --new-project <folder>) [options]',
  help: IMPORT_HELP,
  options: {
    project: { type: 'string' },
    'new-project': { type: 'string' },
    api: { type: 'string' },
    folder: { type: 'string' },
    format: { type: 'string' },
    name: { type: 'string' },
    'project-name': { type: 'string' },
    'base-url': { type: 'string' },
    'no-cache': { type: 'boolean', default: false },
    'no-webhooks': { type: 'boolean', default: false },
    'include-static-assets': { type: 'boolean', default: false },
    'use-credentials-for-requests': { type: 'boolean', default: false },
    'recorded-responses': { type: 'string' },
    'allow-local-files': { type: 'boolean', default: false },
    'without-secrets': { type: 'boolean', default: false },
    'proto-path': { type: 'string', multiple: true },
    'grpc-server': { type: 'string' },
    reflection: { type: 'string' },
    tls: { type: 'boolean', default: false },
    insecure: { type: 'boolean', default: false },
  },
  usageProblem,
};

export async function runImport(args: string[], io: CommandIo = processIo()): Promise<number> {
  const line = readCommandLine(COMMAND, args, io);
  if ('exit' in line) return line.exit;
  const { options, positionals, credentials } = line;
  const arg = positionals[0];
  if (options.format === 'curl') return runCurlImport(options, arg!, io);

  const session = new CliSession();
  const progress = new ProgressLine(io.stderr);
  try {
    const server = options['grpc-server'];
    const source: ImportJobSource =
      server !== undefined
        ? { kind: 'grpc-server', address: server, reflection: (options.reflection ?? 'auto') as GrpcServerSource['reflection'], tls: options.tls, insecure: options.insecure }
        : await importSourceOf(await sourceArgOf(arg!, { allowStdin: true, allowFolder: true }), credentials, io.stdin, session.signal);
    const sup = await session.supervisor(options.verbose ? (line) => void io.stderr.write(`${line}\n`) : undefined);
    // Kerberos keeps nothing in the secret store: the ticket is the user's sign-in. With
    // --without-secrets the credentials are used for the fetch and not kept (the report says so).
    if (credentials && credentials.type !== 'kerberos' && !options['without-secrets']) await requireKeychain(sup);
    let into: ReqOf<'import.run'>['into'];
    if (options.project !== undefined) {
      const store = await sup.openProject(resolve(options.project));
      into = { kind: 'project', project: store.root };
    } else if (options['new-project'] !== undefined) {
      into = { kind: 'new', path: resolve(options['new-project']), ...(options['project-name'] ? { name: options['project-name'] } : {}) };
    }
    const result = await sup.imports.run(
      {
        source,
        format: options.format ?? 'auto',
        options: {
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options['base-url'] !== undefined ? { baseUrl: options['base-url'] } : {}),
          cacheDefinition: !options['no-cache'],
          importWebhooks: !options['no-webhooks'],
          ...(options['include-static-assets'] ? { includeStaticAssets: true } : {}),
          ...(options['use-credentials-for-requests'] ? { useCredentialsForRequests: true } : {}),
          ...(options['recorded-responses'] !== undefined ? { recordedResponses: options['recorded-responses'] as RecordedResponses } : {}),
          ...(options['proto-path'] ? { protoIncludePaths: options['proto-path'].map((p) => resolve(p)) } : {}),
        },
        ...(into ? { into } : {}),
        ...(options['without-secrets'] ? { leaveOutSecrets: true } : {}),
      },
      { signal: session.signal, chunk: (p) => progress.show(p) },
    );
    progress.clear();
    io.stdout.write(options.json ? `${JSON.stringify(importJson(result), null, 2)}\n` : renderImport(result));
    return session.exitCode(hasProblems(result.report) ? 1 : 0);
  } catch (err) {
    progress.clear();
    if (session.wasInterrupted(err)) return session.cancelled('import', io.stderr);
    // Only auto-detect throws this here (a curl import takes its own path): say how to choose.
    const unrecognised = (options.format ?? 'auto') === 'auto' && hasCode(err, 'import-unrecognised');
    return commandFailed(io, 'import', err, options.json, unrecognised ? chooseFormatAdvice() : noStorageAdvice(err));
  } finally {
    await session.close();
  }
}

/** Exit code 1: imported, but the report lists errors (something in the source could not be read or resolved). */
function hasProblems(report: ImportRun['report']): boolean {
  return report.errors.length > 0;
}

/** What is missing or contradictory, before anything is read or started. */
function usageProblem(options: Options, positionals: string[]): string | undefined {
  if (options.format === 'curl') return curlUsageProblem(options, positionals, credentialFlagGiven(options));
  if (options.api !== undefined || options.folder !== undefined) return '--api and --folder go with --format curl.';
  if (options['allow-local-files']) return '--allow-local-files goes with --format curl.';
  if (options['grpc-server'] !== undefined) return grpcServerProblem(options, positionals);
  if (options.reflection !== undefined || options.tls || options.insecure) return '--reflection, --tls and --insecure go with --grpc-server <host:port>.';
  if (positionals.length === 0) return 'give the document to import: a file, a folder, an http(s) URL, or - for standard input.';
  if (positionals.length > 1) return `give one document to import, not ${positionals.length} (${positionals.join(', ')}).`;
  if (options.format !== undefined && options.format !== 'auto' && !builtFormat(options.format)) return `--format must be one of ${FORMAT_IDS.join(', ')}, not ${options.format}.`;
  const targets = [options.project, options['new-project']].filter((t) => t !== undefined).length;
  // Environments and globals land in the workspace; with auto the importer says whether a project is needed.
  const workspaceOnly = options.format !== undefined && builtFormat(options.format)?.lands === 'workspace';
  if (targets === 0 && !workspaceOnly && options.format !== undefined && options.format !== 'auto') return 'say where to import: --project <folder> (an existing project) or --new-project <folder>.';
  if (targets > 0 && workspaceOnly) return `--format ${options.format} imports into the workspace: leave out --project and --new-project.`;
  if (targets > 1) return 'choose one of --project <folder> and --new-project <folder>.';
  if (options.project === '' || options['new-project'] === '') return 'the project folder must not be empty.';
  if (options['project-name'] !== undefined && options['new-project'] === undefined) return '--project-name names a new project: use it with --new-project.';
  if (options['recorded-responses'] !== undefined && !RECORDED_RESPONSES.includes(options['recorded-responses'] as RecordedResponses)) return `--recorded-responses must be none, history or examples, not ${options['recorded-responses']}.`;
  if (credentialFlagGiven(options) && positionals[0] !== undefined && !/^https?:\/\//i.test(positionals[0])) return 'the --auth-* options are for an http(s) URL; a file needs no credentials.';
  if (options['use-credentials-for-requests'] && options['auth-basic'] === undefined && !options.kerberos) return '--use-credentials-for-requests goes with --auth-basic <user> or --kerberos.';
  return undefined;
}

/** `--grpc-server`: a server instead of a document, into a project. */
function grpcServerProblem(options: Options, positionals: string[]): string | undefined {
  if (positionals.length > 0) return `--grpc-server reads a server; leave out ${positionals.join(', ')}.`;
  if (options.format !== undefined && options.format !== 'auto' && options.format !== 'protobuf') return `--grpc-server imports Protocol Buffers, not --format ${options.format}.`;
  if (!/^[^\s/]+:\d{1,5}$/.test(options['grpc-server']!)) return `--grpc-server takes host:port (for example localhost:50051), not ${options['grpc-server']}.`;
  if (options.reflection !== undefined && !(REFLECTION_VERSIONS as readonly string[]).includes(options.reflection)) return `--reflection must be auto, v1 or v1alpha, not ${options.reflection}.`;
  if (options.insecure && !options.tls) return '--insecure goes with --tls.';
  if (credentialFlagGiven(options)) return 'the --auth-* options are for an http(s) URL, not a gRPC server.';
  const targets = [options.project, options['new-project']].filter((t) => t !== undefined).length;
  if (targets !== 1) return 'say where to import: --project <folder> (an existing project) or --new-project <folder>.';
  return undefined;
}
