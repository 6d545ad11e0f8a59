/**
 * Auto-detect as a table (SPEC "Auto-detect rules"): each format contributes rules that look
 * at the file name or at the content. A file name that settles a format wins over text that
 * only looks like another format, so every file-name rule is tried before any content rule;
 * within each kind, rules run in table order.
 */
import type { Detection, ImportInput } from './importer.js';

export interface DetectRule {
  format: string;
  by: 'file-name' | 'content';
  /** What the badge shows and the declared version when the rule matches; null otherwise. */
  match(input: ImportInput): { label: string; version?: string } | null;
}

/** The detection the rules give for an input, or null when none matches. */
export function runDetectRules(rules: readonly DetectRule[], input: ImportInput): Detection | null {
  for (const by of ['file-name', 'content'] as const) {
    for (const rule of rules) {
      if (rule.by !== by) continue;
      if (by === 'file-name' && !input.name) continue;
      const hit = rule.match(input);
      if (!hit) continue;
      // A name settles the format; the content may still tell the version for the badge.
      const content = by === 'file-name' ? rules.find((r) => r.format === rule.format && r.by === 'content')?.match(input) : null;
      return { format: rule.format, label: content?.label ?? hit.label, ...((content?.version ?? hit.version) ? { version: content?.version ?? hit.version } : {}), settledBy: by };
    }
  }
  return null;
}

/** The last path segment of a file name or URL, without query or fragment. */
export function baseName(name: string): string {
  const noQuery = name.split(/[?#]/)[0] ?? name;
  const parts = noQuery.split(/[\\/]/);
  return parts[parts.length - 1] ?? noQuery;
}

/** The XML declaration, comments and processing instructions that may come before the root. */
const XML_PROLOG = /^\uFEFF?\s*(?:<\?[^]*?\?>\s*|<!--[^]*?-->\s*)*/;

/**
 * True when the text's root element (after the XML declaration and comments) is `local` in the
 * namespace `ns`, declared on the root tag itself, as WSDL and SoapUI files write it. Looks at the first 64 KB.
 */
export function xmlRootIs(text: string, local: string, ns: string): boolean {
  const head = text.slice(0, 64 * 1024);
  const rest = head.slice(XML_PROLOG.exec(head)?.[0].length ?? 0);
  const root = new RegExp(`^<(?:([A-Za-z_][\\w.-]*):)?${local}[\\s>/]`).exec(rest);
  if (!root) return false;
  const end = rest.indexOf('>');
  const tag = end === -1 ? rest : rest.slice(0, end);
  const prefix = root[1];
  const nsPattern = ns.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const decl = prefix ? new RegExp(`xmlns:${prefix.replace(/[.-]/g, '\\$&')}\\s*=\\s*["']${nsPattern}["']`) : new RegExp(`xmlns\\s*=\\s*["']${nsPattern}["']`);
  return decl.test(tag);
}
