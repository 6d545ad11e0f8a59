/**
 * Postman's `{{name}}` becomes Parley's `${name}` (SPEC). A dynamic variable (`{{$guid}}`,
 * `{{$timestamp}}`...) has no Parley meaning and is kept as written; the importer warns once.
 */

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export interface Converted {
  text: string;
  /** Dynamic variables kept as written. */
  dynamic: string[];
}

export function convertPlaceholders(text: string): Converted {
  const dynamic: string[] = [];
  const converted = text.replace(PLACEHOLDER, (whole, name: string) => {
    const trimmed = name.trim();
    if (trimmed.startsWith('$')) {
      dynamic.push(trimmed);
      return whole;
    }
    // `${` and `}` cannot be part of a Parley name; such a placeholder stays as written.
    if (trimmed === '' || /[${}]/.test(trimmed)) return whole;
    return `\${${trimmed}}`;
  });
  return { text: converted, dynamic };
}

/** Collects dynamic variables as it converts, for one warning per import. */
export class PlaceholderConverter {
  readonly dynamic = new Set<string>();

  convert(text: string | undefined | null): string {
    if (text === undefined || text === null || text === '') return '';
    const { text: out, dynamic } = convertPlaceholders(String(text));
    for (const d of dynamic) this.dynamic.add(d);
    return out;
  }

  /** The one warning SPEC asks for, or null when none was met. */
  warning(): string | null {
    if (this.dynamic.size === 0) return null;
    const names = [...this.dynamic].sort().slice(0, 10).map((d) => `{{${d}}}`);
    return `Dynamic variables are kept as written (${names.join(', ')}${this.dynamic.size > 10 ? ', …' : ''}): Parley does not generate their values, so set them before sending.`;
  }
}
