/**
 * The body formatter: pretty-prints JSON or XML, and reports a body that does not parse
 * (with where) instead of rewriting it.
 */
export type FormatResult = { ok: true; text: string } | { ok: false; message: string };

export function formatBody(language: string, text: string): FormatResult {
  if (language === 'json') return formatJson(text);
  if (language === 'xml') return formatXml(text);
  return { ok: true, text };
}

export function formatJson(text: string): FormatResult {
  if (!text.trim()) return { ok: true, text };
  // `${name}` expansions outside strings are not JSON; keep them as opaque tokens while parsing.
  const tokens: string[] = [];
  const shielded = text.replace(/\$\{[^{}]+\}/g, (m) => {
    tokens.push(m);
    return `"\u0000${tokens.length - 1}\u0000"`;
  });
  try {
    const pretty = JSON.stringify(JSON.parse(shielded), null, 2);
    return { ok: true, text: pretty.replace(/"\\u0000(\d+)\\u0000"/g, (_m, i: string) => tokens[Number(i)]!) };
  } catch (err) {
    return { ok: false, message: `The JSON does not parse: ${jsonErrorWhere(text, (err as Error).message)}. It was left as it is.` };
  }
}

function jsonErrorWhere(text: string, message: string): string {
  const at = /position (\d+)/.exec(message);
  if (!at) return message;
  const pos = Number(at[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `${message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '')} at line ${line}, column ${column}`;
}

export function formatXml(text: string): FormatResult {
  if (!text.trim()) return { ok: true, text };
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  const error = doc.querySelector('parsererror');
  if (error) {
    const detail = (error.textContent ?? '').split('\n').find((l) => /line|error/i.test(l)) ?? 'not well-formed';
    return { ok: false, message: `The XML does not parse: ${detail.trim()}. It was left as it is.` };
  }
  return { ok: true, text: indentXml(text) };
}

/** Re-indents XML by tags, keeping text content and CDATA as they are. */
export function indentXml(xml: string): string {
  const parts = xml.replace(/>\s+</g, '><').split(/(<[^>]+>)/).filter((p) => p !== '');
  let depth = 0;
  const lines: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith('</')) {
      depth = Math.max(0, depth - 1);
      lines.push('  '.repeat(depth) + part);
    } else if (part.startsWith('<') && !part.startsWith('<?') && !part.startsWith('<!') && !part.endsWith('/>')) {
      const text = parts[i + 1];
      const close = parts[i + 2];
      if (text !== undefined && !text.startsWith('<') && close?.startsWith('</')) {
        lines.push('  '.repeat(depth) + part + text + close);
        i += 2;
      } else {
        lines.push('  '.repeat(depth) + part);
        depth++;
      }
    } else {
      lines.push('  '.repeat(depth) + part);
    }
  }
  return lines.join('\n');
}
