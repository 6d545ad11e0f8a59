/**
 * `parley mock new`, `parley mock check` and `parley mock serve`: the app's mock engine without the
 * app. `new` is the app's New Mock on a project's imported API; `check` loads mocks and lists load
 * problems and stubs the contract does not allow (the same function the checker child runs);
 * `serve` runs one mock in a mock-host child, exactly as Start does: a project's mock, or a mock
 * made on the spot from an OpenAPI document (a file or a URL), with no project at all.
 */
import { REFUSAL_ANSWER } from '../../protocol/model/mock.js';

// Each subcommand's module is loaded when it runs: `serve` starts its mock host before it loads
// the project store and the document readers, so the child boots meanwhile.
export const MOCK_HELP = `parley mock new <project-folder> --api <name> [--name <mock>] [--json]
    New Mock from an imported API, as the app makes it: one operation per contract operation,
    each with a Default response (the contract's example, or a sample of its schema), written
    to mocks/<mock>/. --name defaults to the API's name. Exit 0 written; 2 unknown API (the
    names are listed), no cached definition, name taken, not a project.

parley mock check <project-folder> [--mock <name>] [--json]
    Load the project's mocks (or one) and list load problems and responses the contract
    does not allow. Exit 0 clean, 1 findings, 2 load problems, no cached definition or bad input.

parley mock serve <project-folder> --mock <name> [--port <n>] [--check refuse|log|off]
parley mock serve <openapi-file-or-url> [--port <n>] [--check refuse|log|off]
    Serve one mock on 127.0.0.1 until Ctrl+C, printing its URL and one line per request
    (time, method and path, status, operation and response, duration; contract problems below).
    Given an OpenAPI document (3.x or Swagger 2.0; YAML or JSON; a file or an http(s) URL;
    external $refs followed), it serves a mock made from it in memory, no project needed:
    every operation answers its Default response.
    --port <n>       serve on this port (0: any free one; default: the mock's own port, or 0
                     for a document)
    --check <mode>   contract check of requests: refuse (a request that breaks the contract
                     gets ${REFUSAL_ANSWER.rest} with a problem body; from a SOAP mock,
                     ${REFUSAL_ANSWER.soap}), log (answered, problems logged; a document's
                     default), off
`;

export async function runMock(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'new') return (await import('../mock/new-command.js')).newMock(rest);
  if (sub === 'check') return (await import('../mock/check-command.js')).checkMocks(rest);
  if (sub === 'serve') return (await import('../mock/serve-command.js')).serveMock(rest);
  process.stdout.write(MOCK_HELP);
  return sub === '--help' || sub === '-h' ? 0 : 2;
}
