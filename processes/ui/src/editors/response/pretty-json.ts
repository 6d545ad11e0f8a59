import { escapeSegment } from '../../../../../protocol/json-pointer.js';
/**
 * Pretty-prints parsed JSON like JSON.stringify(v, null, 2) and records the line where each
 * JSON Pointer starts, so contract problems can be marked at their property.
 */
export interface PrettyJson {
  lines: string[];
  lineOf: Map<string, number>;
}

export function prettyJson(value: unknown): PrettyJson {
  const lines: string[] = [];
  const lineOf = new Map<string, number>();
  const write = (v: unknown, pointer: string, indent: string, prefix: string, suffix: string) => {
    lineOf.set(pointer, lines.length);
    if (Array.isArray(v)) {
      if (v.length === 0) {
        lines.push(`${indent}${prefix}[]${suffix}`);
        return;
      }
      lines.push(`${indent}${prefix}[`);
      v.forEach((item, i) => write(item, `${pointer}/${i}`, `${indent}  `, '', i < v.length - 1 ? ',' : ''));
      lines.push(`${indent}]${suffix}`);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      if (entries.length === 0) {
        lines.push(`${indent}${prefix}{}${suffix}`);
        return;
      }
      lines.push(`${indent}${prefix}{`);
      entries.forEach(([k, item], i) => write(item, `${pointer}/${escapePointer(k)}`, `${indent}  `, `${JSON.stringify(k)}: `, i < entries.length - 1 ? ',' : ''));
      lines.push(`${indent}}${suffix}`);
    } else {
      lines.push(`${indent}${prefix}${JSON.stringify(v)}${suffix}`);
    }
  };
  write(value, '', '', '', '');
  return { lines, lineOf };
}

export const escapePointer = escapeSegment;

/** The line of a pointer, or of its nearest ancestor that exists (a missing required property). */
export function lineForPointer(pretty: PrettyJson, pointer: string): number {
  let p = pointer;
  for (;;) {
    const line = pretty.lineOf.get(p);
    if (line !== undefined) return line;
    if (p === '') return 0;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}
