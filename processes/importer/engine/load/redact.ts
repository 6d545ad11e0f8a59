/**
 * Keeps fetch credentials out of everything an import shows or records: a query key is cut
 * from URLs, and any secret value that still turns up in a message is masked.
 */
import { MIN_VALUE_LENGTH, replaceSecretValues, valueForms } from '../../../../protocol/credentials/index.js';

export class Redactor {
  private readonly secrets: string[];

  /** `queryKey`: name of the query parameter that carries an API key, if the job uses one. */
  constructor(secrets: string[] = [], private readonly queryKey?: string) {
    // Every form a secret can take in a URL or a message; replaceSecretValues masks the longest
    // first, so an encoded form is masked whole, and skips values too short to look for.
    this.secrets = [...new Set(secrets.filter((s) => s.length >= MIN_VALUE_LENGTH).flatMap(valueForms))];
  }

  /** A URL fit to record or show: no user info, no query key, no secret in any parameter. */
  url(input: string | URL): string {
    let url: URL;
    try {
      url = new URL(input.toString());
    } catch {
      return this.text(input.toString());
    }
    url.username = '';
    url.password = '';
    if (this.queryKey !== undefined) url.searchParams.delete(this.queryKey);
    for (const [name, value] of [...url.searchParams]) {
      if (this.isSecret(value)) url.searchParams.delete(name, value);
    }
    // An emptied query leaves a bare '?': drop it.
    const text = url.search === '' ? url.href.replace(/\?(?=#|$)/, '') : url.href;
    return this.text(text);
  }

  /** Free text with every secret value masked. */
  text(input: string): string {
    return replaceSecretValues(input, this.secrets.map((secret) => [secret, '***'] as const));
  }

  private isSecret(value: string): boolean {
    return this.secrets.includes(value);
  }
}
