/** What the GraphQL editor reads from the query and the response, by graphql-js. */
import type { Exchange } from '../../../../../../protocol/model/history.js';
import type { CodeMark } from '../../../code/CodeEditor.js';

export { operationsOf, type GraphqlOperationInfo as Operation } from '../../../../../../protocol/graphql-operations.js';

/** Responses larger than this are not read for error locations (the body view still shows them). */
const MAX_READ = 4 * 1024 * 1024;

/**
 * The response's `errors` with `locations`, as marks in the query that was sent: only while the
 * editor still holds that query (a location in an edited text would point elsewhere).
 */
export function errorMarks(exchange: Exchange | null, query: string): CodeMark[] {
  if (!exchange || exchange.response.stream || exchange.response.body.bytes.byteLength > MAX_READ) return [];
  if (sentQuery(exchange) !== query) return [];
  let answer: unknown;
  try {
    answer = JSON.parse(new TextDecoder().decode(exchange.response.body.bytes));
  } catch {
    return [];
  }
  const errors = typeof answer === 'object' && answer !== null && Array.isArray((answer as { errors?: unknown }).errors) ? ((answer as { errors: unknown[] }).errors) : [];
  const marks: CodeMark[] = [];
  for (const error of errors.slice(0, 100)) {
    if (typeof error !== 'object' || error === null) continue;
    const { message, locations } = error as { message?: unknown; locations?: unknown };
    if (!Array.isArray(locations)) continue;
    for (const at of locations) {
      const { line, column } = (at ?? {}) as { line?: unknown; column?: unknown };
      if (typeof line !== 'number' || typeof column !== 'number') continue;
      // A location is where the name or token starts: the mark covers the whole of it.
      const word = /^[_A-Za-z0-9]+/.exec(query.split('\n')[line - 1]?.slice(column - 1) ?? '')?.[0].length ?? 1;
      marks.push({ severity: 'error', message: `The server: ${typeof message === 'string' ? message : 'an error'}`, line, column, endLine: line, endColumn: column + word });
    }
  }
  return marks;
}

/** The query an exchange sent: the POST body's `query`, or a GET's `query` parameter. */
function sentQuery(exchange: Exchange): string | undefined {
  const request = exchange.request;
  if (request.method === 'GET') {
    try {
      return new URL(request.url).searchParams.get('query') ?? undefined;
    } catch {
      return undefined;
    }
  }
  try {
    const body = JSON.parse(request.body) as { query?: unknown };
    return typeof body.query === 'string' ? body.query : undefined;
  } catch {
    return undefined;
  }
}
