/**
 * A .http / .rest file as written in the wild (JetBrains HTTP Client, httpyac, kulala, VS Code
 * REST Client), read line by line into requests in file order. Only reads: nothing here touches
 * the disk or maps onto Parley's model (convert.ts does). What the file means by each line:
 *
 * - `###` starts a request block; text after it names the request (`### Get pets`).
 * - `# @name X` / `// @name X` names the next request; other `# @word` lines are metadata.
 * - `#` and `//` lines are comments, `@name = value` lines file variables.
 * - The request line: `METHOD URL [HTTP/x]`, or a URL alone (GET). Lines right after it that
 *   start with `?` or `&`, or are indented and start with `/`, `?` or `&`, continue the URL.
 * - Headers `Name: value` up to the first blank line; then the body, up to the block's end.
 * - Scripts: `< {% ... %}` or `< ./file.js` before the request line (pre-request), `> {% ... %}`
 *   or `> ./file.js` after it (response handlers); httpyac's `{{ ... }}` blocks before it.
 * - A body that is `< ./file` (or `<@ ./file`, variables in it replaced) is read from a file.
 *
 * A request may follow another without `###` (httpyac reads it so): a request line after a
 * blank line, once a body or handler was seen, starts the next request.
 */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'REPORT', 'SEARCH', 'QUERY'];
/** Request lines of kinds that are not HTTP: recognised so they are reported, not misread. */
export const OTHER_METHODS = ['WEBSOCKET', 'WS', 'GRAPHQL', 'GRPC', 'SSE', 'EVENTSOURCE', 'MQTT', 'AMQP'];

// Methods in capitals, as every dialect writes them: `query test($id: ID!)` in a GraphQL body is not a QUERY request.
const METHOD_LINE = new RegExp(`^(${[...HTTP_METHODS, ...OTHER_METHODS].join('|')})\\s+(\\S.*?)(?:\\s+(HTTP\\/[0-9.]+))?\\s*$`);
/** Where a request line's target starts when it splits a body from the next request (no `###`). */
const TARGET_START = /^(?:[a-z][a-z0-9+.-]*:\/\/|\{\{|\/)/i;
const URL_LINE = /^((?:https?|wss?):\/\/\S*|\{\{[^{}]+\}\}\S*)(?:\s+(HTTP\/[0-9.]+))?\s*$/i;
const SEPARATOR = /^###(.*)$/;
const VARIABLE = /^@([A-Za-z_][\w.-]*)\s*=\s?(.*)$/;
const META = /^(?:#|\/\/)\s*@([\w-]+)(?:\s+(.*))?$/;
const COMMENT = /^(?:#|\/\/)(.*)$/;
const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s?(.*)$/;

export interface Located {
  /** 1-based line of the file. */
  line: number;
}

export type ScriptRef = Located & ({ kind: 'inline'; text: string } | { kind: 'file'; path: string });

export interface ParsedHeader extends Located {
  name: string;
  value: string;
}

export interface ParsedRequest extends Located {
  /** `# @name`, else the `###` title, else none. */
  name?: string;
  title?: string;
  method: string;
  /** As written, continuation lines joined. */
  url: string;
  httpVersion?: string;
  headers: ParsedHeader[];
  /** The body text as written (trailing blank lines cut), or null when there is none. */
  body: string | null;
  bodyLine?: number;
  comments: string[];
  /** `# @word value` lines other than name, in order. */
  metadata: { key: string; value: string; line: number }[];
  preScripts: ScriptRef[];
  handlers: ScriptRef[];
  /** Text before the request line that is none of the above (a GraphQL fragment, stray lines). */
  preText: string[];
}

export interface ParsedVariable extends Located {
  name: string;
  value: string;
}

export interface ParsedHttpFile {
  variables: ParsedVariable[];
  requests: ParsedRequest[];
  /** Lines that could not be read as anything (headers that are not headers...). */
  skipped: (Located & { text: string; reason: string })[];
}

type State = 'pre' | 'headers' | 'body';

export function parseHttpFile(text: string): ParsedHttpFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const out: ParsedHttpFile = { variables: [], requests: [], skipped: [] };
  let state: State = 'pre';
  let pending = freshPending();
  let current: ParsedRequest | null = null;
  let bodyLines: string[] = [];
  /** A handler closed the request: what follows can only be more handlers or a new request. */
  let afterHandler = false;
  let title: string | undefined;

  const finish = () => {
    if (current) {
      const body = trimTrailingBlank(bodyLines);
      current.body = body.length > 0 ? body.join('\n') : null;
      if (current.body === null) delete current.bodyLine;
      out.requests.push(current);
    }
    current = null;
    bodyLines = [];
    afterHandler = false;
    state = 'pre';
  };

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const lineNo = i + 1;
    const sep = SEPARATOR.exec(raw);
    if (sep) {
      finish();
      pending = freshPending();
      title = sep[1]!.replace(/^#+/, '').trim() || undefined;
      continue;
    }
    const trimmed = raw.trim();

    if (state === 'pre') {
      if (trimmed === '') continue;
      const meta = META.exec(trimmed);
      if (meta) {
        if (meta[1]!.toLowerCase() === 'name' && meta[2]?.trim()) pending.name = meta[2].trim();
        else pending.metadata.push({ key: meta[1]!, value: (meta[2] ?? '').trim(), line: lineNo });
        continue;
      }
      const variable = VARIABLE.exec(trimmed);
      if (variable) {
        out.variables.push({ name: variable[1]!, value: variable[2]!.trim(), line: lineNo });
        continue;
      }
      if (trimmed.startsWith('< {%') || trimmed === '<{%') {
        const end = readUntil(lines, i, '%}', trimmed.slice(trimmed.indexOf('{%') + 2));
        pending.preScripts.push({ kind: 'inline', text: end.text, line: lineNo });
        i = end.last;
        continue;
      }
      if (/^<\s+\S/.test(trimmed)) {
        pending.preScripts.push({ kind: 'file', path: trimmed.slice(1).trim(), line: lineNo });
        continue;
      }
      if (trimmed.startsWith('{{') && !URL_LINE.test(trimmed)) {
        // httpyac: a JavaScript block run before the request.
        const end = readUntil(lines, i, '}}', trimmed.slice(2));
        pending.preScripts.push({ kind: 'inline', text: end.text, line: lineNo });
        i = end.last;
        continue;
      }
      const request = requestLine(trimmed);
      if (request) {
        current = {
          ...request,
          line: lineNo,
          headers: [],
          body: null,
          comments: pending.comments,
          metadata: pending.metadata,
          preScripts: pending.preScripts,
          handlers: [],
          preText: pending.preText,
          ...(pending.name ? { name: pending.name } : {}),
          ...(title ? { title } : {}),
        };
        title = undefined;
        pending = freshPending();
        // The URL may go on over the next lines.
        while (i + 1 < lines.length && continuesUrl(lines[i + 1]!)) current.url += lines[++i]!.trim();
        state = 'headers';
        continue;
      }
      const comment = COMMENT.exec(trimmed);
      if (comment) {
        const c = comment[1]!.trim();
        if (c !== '') pending.comments.push(c);
        continue;
      }
      pending.preText.push(raw);
      continue;
    }

    const req = current!;
    if (state === 'headers') {
      if (trimmed === '') {
        state = 'body';
        continue;
      }
      if (COMMENT.test(trimmed)) {
        const meta = META.exec(trimmed);
        if (meta) req.metadata.push({ key: meta[1]!, value: (meta[2] ?? '').trim(), line: lineNo });
        continue;
      }
      const header = HEADER.exec(raw);
      if (header) {
        req.headers.push({ name: header[1]!, value: header[2]!.trim(), line: lineNo });
        continue;
      }
      // No blank line before the body (a `< ./file` body or a handler right under the headers).
      state = 'body';
    }

    // state === 'body'
    if (trimmed.startsWith('> {%') || trimmed === '>{%') {
      const end = readUntil(lines, i, '%}', trimmed.slice(trimmed.indexOf('{%') + 2));
      req.handlers.push({ kind: 'inline', text: end.text, line: lineNo });
      i = end.last;
      afterHandler = true;
      continue;
    }
    if (/^>\s+\S/.test(trimmed) && !trimmed.startsWith('>>')) {
      req.handlers.push({ kind: 'file', path: trimmed.slice(1).trim(), line: lineNo });
      afterHandler = true;
      continue;
    }
    if (/^<>\s/.test(trimmed) || /^>>!?\s/.test(trimmed)) {
      // A previous response (`<> ./file`) or "save the response to" (`>> file`): nothing to send.
      req.metadata.push({ key: trimmed.startsWith('<>') ? 'previous-response' : 'save-response', value: trimmed.replace(/^(<>|>>!?)\s*/, ''), line: lineNo });
      continue;
    }
    // A new request without `###`: a request line after a blank line or a handler (as httpyac
    // reads it; a body line that reads exactly like a request line is that rare).
    const prev = i > 0 ? lines[i - 1]!.trim() : '';
    // A `< ./file` body is one line: a request line may follow it directly.
    const prevBlank = prev === '' || (bodyLines.length === 1 && /^<@?\w*\s+\S/.test(prev));
    const next = trimmed === '' ? null : requestLine(trimmed);
    if ((afterHandler || prevBlank) && next && TARGET_START.test(next.url)) {
      finish();
      i--;
      continue;
    }
    if (afterHandler) {
      if (trimmed === '') continue;
      const meta = META.exec(trimmed);
      if (meta || COMMENT.test(trimmed)) {
        // Comments and `# @name` after a handler belong to the next request.
        finish();
        i--;
        continue;
      }
      out.skipped.push({ line: lineNo, text: raw, reason: 'text after a response handler' });
      continue;
    }
    if (bodyLines.length === 0) {
      if (trimmed === '') continue;
      req.bodyLine = lineNo;
    }
    bodyLines.push(raw);
  }
  finish();
  return out;
}

function freshPending() {
  return { name: undefined as string | undefined, comments: [] as string[], metadata: [] as ParsedRequest['metadata'], preScripts: [] as ScriptRef[], preText: [] as string[] };
}

function requestLine(trimmed: string): { method: string; url: string; httpVersion?: string } | null {
  const m = METHOD_LINE.exec(trimmed);
  if (m) return { method: m[1]!.toUpperCase(), url: m[2]!, ...(m[3] ? { httpVersion: m[3].toUpperCase() } : {}) };
  const u = URL_LINE.exec(trimmed);
  if (u) return { method: 'GET', url: u[1]!, ...(u[2] ? { httpVersion: u[2].toUpperCase() } : {}) };
  return null;
}

/** `?a=1` / `&b=2` under the request line, or an indented `/path` part. */
function continuesUrl(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed === '') return false;
  if (/^[?&]/.test(trimmed)) return true;
  return /^\s+\//.test(line);
}

/** Lines from `start` up to the one holding `close` (that line included); `first` is the text after the opener. */
function readUntil(lines: string[], start: number, close: string, first: string): { text: string; last: number } {
  const collected: string[] = [];
  const firstEnd = first.indexOf(close);
  if (firstEnd >= 0) return { text: first.slice(0, firstEnd).trim(), last: start };
  if (first.trim() !== '') collected.push(first);
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const end = line.indexOf(close);
    if (end >= 0) {
      if (line.slice(0, end).trim() !== '') collected.push(line.slice(0, end));
      return { text: dedent(collected).join('\n'), last: i };
    }
    collected.push(line);
  }
  // Never closed: the rest of the file is the script.
  return { text: dedent(collected).join('\n'), last: lines.length - 1 };
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length);
  const min = indents.reduce((a, b) => Math.min(a, b), indents[0] ?? 0);
  return lines.map((l) => l.slice(min));
}

function trimTrailingBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  return lines.slice(0, end);
}
