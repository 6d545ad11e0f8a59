/**
 * SoapUI property expansions in text Parley keeps (envelopes, endpoints, header and property
 * values). `${#Project#name}` and `${#Global#name}` are Parley's `${name}` (project properties,
 * then globals). The rest has no Parley meaning and is kept as written, counted for a warning:
 * `${#Env#...}` and `${#System#...}` (the OS environment and Java properties), test case, suite
 * and mock scopes, step properties `${Step#prop}` and Groovy `${=...}`.
 */
const EXPANSION = /\$\{([^{}]*)\}/g;
const MAPPED = /^#(?:Project|Global)#([^#{}]+)$/;

export interface Expanded {
  text: string;
  /** The expansions kept as written, as they appear. */
  kept: string[];
}

export function convertExpansions(text: string): Expanded {
  const kept: string[] = [];
  const out = text.replace(EXPANSION, (whole, inner: string) => {
    const mapped = MAPPED.exec(inner);
    if (mapped) return `\${${mapped[1]!.trim()}}`;
    // A plain ${name} already reads as Parley's property reference.
    if (/^[\w.-]+$/.test(inner)) return whole;
    kept.push(whole);
    return whole;
  });
  return { text: out, kept };
}
