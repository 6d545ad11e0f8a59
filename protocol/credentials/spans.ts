/**
 * Where the credential values of a body are: the value under every credential-named JSON key (at
 * any depth), the content of every credential-named XML element and the value of every such
 * attribute, the value of every such form field. The scanners read text as written and never
 * need it to parse: a broken JSON body is still masked, and masking keeps its formatting.
 */
import { pointerOf } from '../json-pointer.js';
import { isCredentialName } from './names.js';

export type BodySyntax = 'json' | 'xml' | 'form';

/** A value's place: `path` names it the same way in two bodies of one shape (for filling masks back in). */
export interface CredentialSpan {
  path: string;
  start: number;
  end: number;
}

export function credentialSpans(text: string, syntax: BodySyntax): CredentialSpan[] {
  switch (syntax) {
    case 'json':
      return jsonSpans(text);
    case 'xml':
      return xmlSpans(text);
    case 'form':
      return formSpans(text, 0, text.length);
  }
}

// --- JSON ------------------------------------------------------------------------------------

interface JsonFrame {
  object: boolean;
  key: string;
  index: number;
  expectKey: boolean;
}

function jsonSpans(text: string): CredentialSpan[] {
  const spans: CredentialSpan[] = [];
  const stack: JsonFrame[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = jsonStringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        const colon = skipWhite(text, end);
        if (text.charCodeAt(colon) === 58 /* : */) {
          top.key = jsonStringValue(text.slice(i, end));
          top.expectKey = false;
          const start = skipWhite(text, colon + 1);
          if (isCredentialName(top.key)) {
            const valueEnd = jsonValueEnd(text, start);
            if (valueEnd > start) spans.push({ path: jsonPointer(stack), start, end: valueEnd });
            i = Math.max(valueEnd, start);
          } else {
            i = start;
          }
          continue;
        }
      }
      i = end;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      stack.push({ object: c === 123, key: '', index: 0, expectKey: c === 123 });
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      i++;
    } else if (c === 44 /* , */) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
      else if (top) top.index++;
      i++;
    } else {
      i++;
    }
  }
  return spans;
}

/** The index just past a string's closing quote (or the end of the text when it is not closed). */
function jsonStringEnd(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34) return i + 1;
  }
  return text.length;
}

function jsonStringValue(token: string): string {
  try {
    const value: unknown = JSON.parse(token);
    if (typeof value === 'string') return value;
  } catch {
    // An unterminated or badly escaped key is judged as written.
  }
  return token.replace(/^"|"$/g, '');
}

/** The end of the value starting at `start`: a string, a whole object or array, or a bare scalar. */
function jsonValueEnd(text: string, start: number): number {
  const c = text.charCodeAt(start);
  if (c === 34) return jsonStringEnd(text, start);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 34) i = jsonStringEnd(text, i) - 1;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return i + 1;
    }
    return text.length;
  }
  let i = start;
  while (i < text.length && !',}]\r\n'.includes(text[i]!)) i++;
  while (i > start && /\s/.test(text[i - 1]!)) i--;
  return i;
}

function skipWhite(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

function jsonPointer(stack: JsonFrame[]): string {
  return pointerOf(stack.map((f) => (f.object ? f.key : f.index)));
}

// --- XML -------------------------------------------------------------------------------------

interface XmlFrame {
  name: string;
  path: string;
  credential: boolean;
  contentStart: number;
  children: Map<string, number>;
}

function xmlSpans(text: string): CredentialSpan[] {
  const spans: CredentialSpan[] = [];
  const stack: XmlFrame[] = [];
  const rootChildren = new Map<string, number>();
  const n = text.length;
  let masking = 0; // open credential elements: nothing inside them is listed again
  let i = 0;
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      i = after(text, '-->', lt + 4);
    } else if (text.startsWith('<![CDATA[', lt)) {
      i = after(text, ']]>', lt + 9);
    } else if (text.startsWith('<?', lt)) {
      i = after(text, '?>', lt + 2);
    } else if (text.startsWith('<!', lt)) {
      const gt = text.indexOf('>', lt);
      const bracket = text.indexOf('[', lt);
      i = bracket >= 0 && (gt < 0 || bracket < gt) ? after(text, ']>', bracket) : gt < 0 ? n : gt + 1;
    } else if (text.charCodeAt(lt + 1) === 47 /* / */) {
      const gt = text.indexOf('>', lt);
      const name = text.slice(lt + 2, gt < 0 ? n : gt).trim();
      let at = stack.length - 1;
      while (at >= 0 && stack[at]!.name !== name) at--;
      if (at >= 0) {
        for (let k = stack.length - 1; k >= at; k--) {
          const frame = stack[k]!;
          if (frame.credential) {
            masking--;
            // An element left open inside it ends here too.
            if (masking === 0) spans.push({ path: frame.path, start: frame.contentStart, end: lt });
          }
        }
        stack.length = at;
      }
      i = gt < 0 ? n : gt + 1;
    } else {
      i = startTag(text, lt, stack, rootChildren, masking > 0, spans, (frame) => {
        stack.push(frame);
        if (frame.credential) masking++;
      });
    }
  }
  return spans;
}

function after(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  return at < 0 ? text.length : at + marker.length;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** Reads a start tag at `lt`: its credential attributes become spans; an open element becomes a frame. */
function startTag(
  text: string,
  lt: number,
  stack: XmlFrame[],
  rootChildren: Map<string, number>,
  insideCredential: boolean,
  spans: CredentialSpan[],
  open: (frame: XmlFrame) => void,
): number {
  const nameMatch = /^[^\s/>]+/.exec(text.slice(lt + 1, lt + 1 + 1024));
  if (!nameMatch) return lt + 1;
  const name = nameMatch[0];
  const parent = stack[stack.length - 1];
  const siblings = parent ? parent.children : rootChildren;
  const ordinal = (siblings.get(name) ?? 0) + 1;
  siblings.set(name, ordinal);
  const path = `${parent?.path ?? ''}/${name}[${ordinal}]`;
  let i = lt + 1 + name.length;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '>') break;
    if (c === '/' && text[i + 1] === '>') break;
    const attr = /^([^\s=/>]+)\s*=\s*(["'])/.exec(text.slice(i, i + 1024));
    if (attr) {
      const valueStart = i + attr[0].length;
      const close = text.indexOf(attr[2]!, valueStart);
      const valueEnd = close < 0 ? n : close;
      const attrName = attr[1]!;
      const isNamespace = attrName === 'xmlns' || attrName.startsWith('xmlns:');
      if (!insideCredential && !isNamespace && isCredentialName(localName(attrName))) spans.push({ path: `${path}/@${attrName}`, start: valueStart, end: valueEnd });
      i = valueEnd + 1;
      continue;
    }
    i++;
  }
  if (i >= n) return n;
  const selfClosing = text[i] === '/';
  const end = selfClosing ? i + 2 : i + 1;
  if (!selfClosing) open({ name, path, credential: isCredentialName(localName(name)), contentStart: end, children: new Map() });
  return end;
}

// --- form (application/x-www-form-urlencoded, and query strings) -------------------------------

/** Credential fields of the form text in [from, to); a name's nth occurrence is `name` + NUL + n. */
export function formSpans(text: string, from: number, to: number): CredentialSpan[] {
  const spans: CredentialSpan[] = [];
  const seen = new Map<string, number>();
  let start = from;
  while (start <= to) {
    let end = text.indexOf('&', start);
    if (end < 0 || end > to) end = to;
    const eq = text.indexOf('=', start);
    if (eq >= 0 && eq < end) {
      const name = decodeFormName(text.slice(start, eq));
      if (isCredentialName(name)) {
        const nth = seen.get(name) ?? 0;
        seen.set(name, nth + 1);
        spans.push({ path: `${name}\u0000${nth}`, start: eq + 1, end });
      }
    }
    start = end + 1;
  }
  return spans;
}

function decodeFormName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // An undecodable name is judged as written.
    return raw;
  }
}
