/**
 * `${name}` expansion for a send: values captured from earlier responses first (docs/captures.md),
 * then the active environment, then the project's properties, then the workspace globals;
 * `${secret:name}` from the keychain. Nothing is guessed: a name that resolves nowhere is
 * collected and the send is refused.
 */
import type { Row } from '../../../protocol/model/common.js';
import { EXPANSION, scopeValues, type ScopedValue } from '../../../protocol/variables.js';
import { carriedReplacements, replaceSecretValues, valueForms } from '../../../protocol/credentials/index.js';


export interface ExpansionScope {
  /**
   * Values captured from responses, over everything else. Taken as they are: a response's
   * `${secret:...}` or `${name}` is text, never expanded (a server cannot make a send read a secret).
   */
  captured?: Row[];
  environment: Row[];
  project: Row[];
  globals: Row[];
  /** Secret values by name, fetched before expansion starts. */
  secrets: Map<string, string>;
}

export class Expander {
  readonly unresolved = new Set<string>();
  /** Every secret value used, so it can be masked wherever the send is recorded. */
  readonly secretValues = new Map<string, string>();
  private readonly values: Map<string, ScopedValue>;

  constructor(private readonly scope: ExpansionScope) {
    this.values = scopeValues(scope);
  }

  /** Expands once: a value that itself contains `${...}` is expanded too, up to a small depth. */
  expand(text: string, depth = 0): string {
    if (!text.includes('${')) return text;
    return text.replace(EXPANSION, (whole, name: string) => {
      if (name.startsWith('secret:')) {
        const key = name.slice('secret:'.length);
        const value = this.scope.secrets.get(key);
        if (value === undefined) {
          this.unresolved.add(name);
          return whole;
        }
        this.secretValues.set(key, value);
        return value;
      }
      const found = this.values.get(name);
      if (found === undefined) {
        this.unresolved.add(name);
        return whole;
      }
      const { value } = found;
      // A captured value came from a response: taken as it is, so a server cannot make it read a secret.
      if (found.source === 'captured' || depth >= 5 || !value.includes('${')) return value;
      return this.expand(value, depth + 1);
    });
  }

  /** Expands as `expand` does, each expansion's value passed through `encode` where it stands (a URL's query takes it percent-encoded). */
  expandEncoded(text: string, encode: (value: string) => string): string {
    if (!text.includes('${')) return text;
    return text.replace(EXPANSION, (whole) => {
      const value = this.expand(whole);
      return value === whole ? whole : encode(value);
    });
  }
}

/** Every `${secret:name}` named in any of the texts, and in the variables they may expand through (captured values never do). */
export function secretNamesIn(texts: string[], scope: Omit<ExpansionScope, 'secrets' | 'captured'>): string[] {
  const names = new Set<string>();
  const all = [...texts, ...[scope.globals, scope.project, scope.environment].flat().filter((r) => r.enabled).map((r) => r.value)];
  for (const text of all) for (const match of text.matchAll(/\$\{secret:([^{}]+)\}/g)) names.add(match[1]!);
  return [...names];
}

/**
 * The replacements of one exchange's redaction: every form of each secret value (valueForms:
 * as is, percent-encoded in a URL, form-encoded or JSON-escaped in a body...) by its
 * `${secret:name}` reference, and every form of each credential value the exchange carried
 * (protocol/credentials/carried.ts) by the mask. Secrets come first, so a value that is both
 * becomes its reference.
 */
export function redactionPairs(secrets: Map<string, string>, carried: readonly string[] = []): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of secrets) {
    const ref = `\${secret:${name}}`;
    for (const form of valueForms(value)) pairs.push([form, ref]);
  }
  return [...pairs, ...carriedReplacements(carried)];
}

/** `text` with every secret value replaced by its reference and every carried credential value masked (redactionPairs). */
export function redactSecrets(text: string, secrets: Map<string, string>, carried: readonly string[] = []): string {
  if (secrets.size === 0 && carried.length === 0) return text;
  return replaceSecretValues(text, redactionPairs(secrets, carried));
}
