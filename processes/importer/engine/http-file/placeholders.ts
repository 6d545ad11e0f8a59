/**
 * `{{name}}` in a .http file becomes Parley's `${name}` (SPEC ".http import rules"). Only a plain
 * name is converted: dynamic variables (`{{$uuid}}`, `{{$random.integer(1, 9)}}`,
 * `{{$dotenv KEY}}`) and httpyac's JavaScript expressions (`{{ a + b }}`,
 * `{{login.response.body.$.token}}`) have no Parley meaning and are kept as written, with one
 * warning each kind names them.
 */

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
/** A name Parley's `${...}` can carry: a variable, with dots and hyphens as .http files write them. */
const PLAIN_NAME = /^[A-Za-z_][\w.-]*$/;

export class HttpPlaceholders {
  readonly dynamic = new Set<string>();
  readonly expressions = new Set<string>();

  convert(text: string): string {
    if (!text.includes('{{')) return text;
    return text.replace(PLACEHOLDER, (whole, inner: string) => {
      const name = inner.trim();
      if (name.startsWith('$')) {
        this.dynamic.add(name.split(/\s+/)[0]!);
        return whole;
      }
      if (!PLAIN_NAME.test(name) || name.includes('.response.') || name.includes('.request.')) {
        this.expressions.add(name.length > 60 ? `${name.slice(0, 60)}…` : name);
        return whole;
      }
      return `\${${name}}`;
    });
  }

  warnings(): string[] {
    const out: string[] = [];
    if (this.dynamic.size > 0) out.push(`Dynamic variables are kept as written (${shown(this.dynamic)}): Parley does not generate their values, so set them before sending.`);
    if (this.expressions.size > 0) out.push(`Expressions and references to other responses are kept as written (${shown(this.expressions)}): Parley does not evaluate them; use captures (docs/captures.md) or variables instead.`);
    return out;
  }
}

function shown(names: Set<string>): string {
  const list = [...names].sort().slice(0, 8).map((n) => `{{${n}}}`);
  return `${list.join(', ')}${names.size > 8 ? `, and ${names.size - 8} more` : ''}`;
}

/** True when `text` is made only of `{{...}}` placeholders (and white space): it holds no secret. */
export function isPlaceholderOnly(text: string): boolean {
  const trimmed = text.trim();
  return trimmed !== '' && trimmed.replace(PLACEHOLDER, '').trim() === '';
}
