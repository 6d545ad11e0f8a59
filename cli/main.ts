/**
 * `parley`: the command line. Each command is a module under commands/; they run the same
 * engines and processes as the app, so the two cannot disagree. A command's module is loaded
 * only when it runs: loading all of them cost every command (even --version) about 0.5 s.
 */
import { ParleyError } from '../protocol/errors.js';
import { appVersion } from '../processes/supervisor/paths.js';
import { formatLines } from './import/formats-help.js';

const HELP = `parley: an API workbench (REST client, contract checks, mocks, importers)

Usage:
  parley ui [project-folder] [--port <n>] [--no-open] [--demo]
      Start Parley and serve its UI on 127.0.0.1; prints the URL to open.
      --port <n>   listen on this port (default: a free one)
      --no-open    do not open a browser
      --demo       also start the demo API and open the demo project

  parley check --definition <file or URL> (--method <m> --path <p> --status <n> [--body <file>] | --batch <file.jsonl> | --har <file.har>) [--json]
      Contract-check recorded responses against an OpenAPI definition, for CI.
      Exit 0 all passed, 1 problems or unexpected status, 2 not checked or bad input.
      parley check --help shows every option.

  parley mock new <project-folder> --api <name> [--name <mock>] [--json]
      New Mock from an imported API, as the app makes it. Exit 0 written, 2 not.

  parley mock check <project-folder> [--mock <name>] [--json]
      Check a project's mocks: load problems, and responses the contract does not allow.
      Exit 0 clean, 1 findings, 2 load problems, no cached definition or bad input.

  parley mock serve <project-folder> --mock <name> [--port <n>] [--check refuse|log|off]
  parley mock serve <openapi-file-or-url> [--port <n>] [--check refuse|log|off]
      Serve a project's mock, or a contract directly with default responses, on 127.0.0.1
      until Ctrl+C; prints its URL and one line per request. parley mock --help shows more.

  parley import <file | folder | URL | -> (--project <folder> | --new-project <folder>) [--format <format>]
               [--name <name>] [--base-url <url>] [--no-cache] [--no-webhooks] [--json]
      Import into a project (or the workspace), as the app's Import dialog does. --format is
      recognised from the file's name and content when left out (auto); the formats:
${formatLines('        ')}
      A URL may carry --auth-basic <user>, --auth-bearer or --auth-apikey <name> [--apikey-in header|query];
      the secret comes from PARLEY_IMPORT_PASSWORD, PARLEY_IMPORT_TOKEN or PARLEY_IMPORT_APIKEY.
      Exit 0 imported, 2 not imported. parley import --help shows every option.

  parley import --format curl <file | -> --project <folder> --api <name> [--folder <path>] [--name <name>] [--allow-local-files] [--without-secrets] [--json]
      Import a curl command as a request of an API, as the app's Import cURL dialog does; the report
      lists every curl option the import ignored. Files outside the project that the command sends
      are copied in only with --allow-local-files (without it the import is refused). Without secure
      storage a -u password or token is refused, or left out with --without-secrets.

  parley update-definition <project-folder> --api <name> [--source <file or URL>] [--preview] [--json]
      Read an imported API's definition again, print what changed and apply it (--preview: print only).
      Exit 0 done, 2 not done.

  parley run <project-folder> [--api <name>] [--folder <path>] [--request <name>] [--env <name>]
             [--iterations <n>] [--data <file.csv|json>] [--timeout <ms>] [--delay <ms>] [--bail]
             [--insecure] [--fail-on-contract] [--reporter console|json|junit[:<file>]] [--out <file>]
      Run a project's requests headless, for CI: status, time, size, assertions, contract verdict.
      Exit 0 all passed, 1 any failure, 2 bad usage or a project that does not load.
      Secrets: PARLEY_SECRET_<NAME>, else the keychain or the vault (PARLEY_VAULT_PASSPHRASE unlocks it).
      parley run --help shows every option.

  parley export <project-folder> [--api <name>] [--folder <path>] --format postman|openapi --out <file> [--json]
      Export an API or a folder as a file other tools read (a Postman collection v2.1, or OpenAPI 3.1
      for an API without a definition); credentials
      only as references. Exit 0 written, 2 not. parley export --help shows every option.

  parley --help       this text
  parley --version    the version

Environment:
  PARLEY_HOME   the workspace folder (environments, preferences); default: the user's data folder
  PARLEY_IMPORT_PASSWORD, PARLEY_IMPORT_TOKEN, PARLEY_IMPORT_APIKEY
                the secret for --auth-basic, --auth-bearer, --auth-apikey (never a flag: flags show in ps)
  PARLEY_SECRET_<NAME>
                parley run: the value of \${secret:<name>} (see parley run --help)
`;

type Command = (args: string[]) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  ui: async () => (await import('./commands/ui.js')).runUi,
  check: async () => (await import('./commands/check.js')).runCheck,
  mock: async () => (await import('./commands/mock.js')).runMock,
  import: async () => (await import('./commands/import.js')).runImport,
  'update-definition': async () => (await import('./commands/update-definition.js')).runUpdateDefinition,
  run: async () => (await import('./commands/run.js')).runRun,
  export: async () => (await import('./commands/export.js')).runExport,
};

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(HELP);
    return first ? 0 : 2;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${appVersion()}\n`);
    return 0;
  }
  const load = Object.hasOwn(commands, first) ? commands[first] : undefined;
  if (!load) {
    process.stderr.write(`parley: unknown command "${first}". Run parley --help.\n`);
    return 2;
  }
  const command = await load();
  try {
    return await command(rest);
  } catch (err) {
    const message = err instanceof ParleyError ? err.message : (err as Error).message;
    process.stderr.write(`parley ${first}: ${message}\n`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`parley: ${err.message}\n`);
    process.exitCode = 2;
  },
);
