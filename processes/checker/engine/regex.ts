/**
 * Regular expressions from contracts (`pattern`, `patternProperties`) and from users (a mock's
 * "matches a regular expression" condition), read as ECMA-262 says and run in linear time.
 *
 * V8's own engine backtracks: `^(a+)+$` against forty `a`s and a `!` runs for minutes, and one
 * `RegExp.test` cannot be interrupted. So each pattern is translated into RE2 syntax (re2js, a
 * pure-JS port of RE2: time linear in the input) with ECMA-262's meaning kept where the two
 * differ (`.`, `\s`, `\u`, `[`...). What RE2 cannot express (lookaround, backreferences, a repeat
 * count over 1,000, `\p` names RE2 lacks) keeps V8's engine, and `linear` says so: such a test
 * may run only where a runaway can be stopped by killing its thread (a checker or mock-check
 * worker). Callers never get a silent pass: they ask `testLinear`, which answers `undefined`
 * when this input needs the backtracking engine.
 */
import { RE2JS } from 're2js';

export interface EcmaPattern {
  readonly source: string;
  /** True when every input is tested in linear time. */
  readonly linear: boolean;
  /** Why some input needs the backtracking engine (set when `linear` is false). */
  readonly backtrackingReason?: string;
  /** The answer in linear time, or undefined when this input needs the backtracking engine. */
  testLinear(input: string): boolean | undefined;
  /** The answer on whichever engine the input needs: call it only where a runaway test can be stopped. */
  test(input: string): boolean;
}

export type CompiledPattern = { ok: true; pattern: EcmaPattern } | { ok: false; message: string };

export interface PatternOptions {
  /**
   * Also accept a pattern that is valid only without the `u` flag (OpenAPI 3.0 documents hold
   * many, such as `[\w-.]`). JSON Schema's patterns are Unicode ones; a user's are too.
   */
  legacy?: boolean;
}

/** Compiles `source` as an ECMA-262 pattern (Unicode mode, or legacy when allowed and needed). */
export function compileEcmaPattern(source: string, options: PatternOptions = {}): CompiledPattern {
  let native: RegExp;
  let unicode = true;
  try {
    native = new RegExp(source, 'u');
  } catch (err) {
    if (!options.legacy) return { ok: false, message: syntaxMessage(err) };
    try {
      native = new RegExp(source);
      unicode = false;
    } catch {
      return { ok: false, message: syntaxMessage(err) };
    }
  }
  const translated = translate(source, unicode);
  let re2: RE2JS | undefined;
  let reason = typeof translated === 'string' ? undefined : translated.unsupported;
  if (typeof translated === 'string') {
    try {
      re2 = RE2JS.compile(translated);
    } catch {
      reason = 'it is beyond the linear engine (a repeat count over 1,000, or a pattern too large)';
    }
  }
  if (!re2) {
    const backtracking = native;
    return {
      ok: true,
      pattern: { source, linear: false, backtrackingReason: reason, testLinear: () => undefined, test: (s) => backtracking.test(s) },
    };
  }
  const linear = re2;
  if (unicode) return { ok: true, pattern: { source, linear: true, testLinear: (s) => linear.test(s), test: (s) => linear.test(s) } };
  // Without `u` the pattern reads code units: the same thing as code points, unless the input
  // holds a character outside the Basic Multilingual Plane (a surrogate pair).
  const backtracking = native;
  return {
    ok: true,
    pattern: {
      source,
      linear: false,
      backtrackingReason: 'it is not a Unicode pattern, and the text holds characters outside the Basic Multilingual Plane',
      testLinear: (s) => (SURROGATE.test(s) ? undefined : linear.test(s)),
      test: (s) => (SURROGATE.test(s) ? backtracking.test(s) : linear.test(s)),
    },
  };
}

const SURROGATE = /[\ud800-\udfff]/;

function syntaxMessage(err: unknown): string {
  // V8's message repeats the pattern: "Invalid regular expression: /x(/u: Unterminated group".
  const text = err instanceof Error ? err.message : String(err);
  const colon = text.lastIndexOf(': ');
  return colon >= 0 ? text.slice(colon + 2) : text;
}

// --- translation ---------------------------------------------------------------------------

type Translation = string | { unsupported: string };

/** ECMA-262's WhiteSpace and LineTerminator, what `\s` matches (RE2's `\s` is ASCII only). */
const SPACE_RANGES: [number, number][] = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029],
  [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

const hex = (cp: number) => `\\x{${cp.toString(16)}}`;
const rangeText = ([a, b]: [number, number]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`);
const SPACE_CLASS = SPACE_RANGES.map(rangeText).join('');
const NOT_SPACE_CLASS = complement(SPACE_RANGES).map(rangeText).join('');
/** ECMA-262's `.`: anything but a line terminator. */
const DOT = `[^\\n\\r\\x{2028}\\x{2029}]`;

function complement(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of ranges) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** General categories by their long names; RE2 knows only the short ones. */
const CATEGORY_ALIASES: Record<string, string> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm', Other_Letter: 'Lo', Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc', Enclosing_Mark: 'Me', Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl',
  Other_Number: 'No', Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps', Close_Punctuation: 'Pe', Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po', Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk',
  Other_Symbol: 'So', Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};
const SHORT_CATEGORY = new Set('L LC Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So Z Zs Zl Zp C Cc Cf Cs Co Cn'.split(' '));

class Unsupported {
  constructor(readonly reason: string) {}
}

/**
 * Rewrites an ECMA-262 pattern (already known to be valid) into RE2 syntax with the same meaning
 * for `test`, or says why it cannot. Literals are written as `\x{...}` so that nothing RE2 reads
 * differently (`[[:alpha:]]`, a `#`) can slip through; groups become non-capturing.
 */
function translate(source: string, unicode: boolean): Translation {
  try {
    return new Translator(source, unicode).pattern();
  } catch (err) {
    if (err instanceof Unsupported) return { unsupported: err.reason };
    throw err;
  }
}

class Translator {
  private i = 0;
  private out = '';

  constructor(
    private readonly src: string,
    private readonly unicode: boolean,
  ) {}

  pattern(): string {
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i]!;
      switch (c) {
        case '\\':
          this.out += this.atomEscape();
          break;
        case '[':
          this.out += this.characterClass();
          break;
        case '(':
          this.out += this.groupOpen();
          break;
        case ')':
        case '|':
        case '^':
        case '$':
          this.out += c;
          this.i++;
          break;
        case '.':
          this.out += DOT;
          this.i++;
          break;
        case '*':
        case '+':
        case '?':
          this.out += c;
          this.i++;
          if (src[this.i] === '?') {
            this.out += '?';
            this.i++;
          }
          break;
        case '{': {
          const quantifier = /^\{(\d+)(,(\d*))?\}\??/.exec(src.slice(this.i));
          if (quantifier) {
            // A count RE2 refuses (over 1,000) fails its compile and keeps the backtracking engine.
            this.out += quantifier[0];
            this.i += quantifier[0].length;
          } else {
            // Legacy patterns read a `{` that starts no quantifier as itself.
            this.out += hex(0x7b);
            this.i++;
          }
          break;
        }
        default:
          this.out += this.literal();
      }
    }
    return this.out;
  }

  /** One literal character (a whole code point in Unicode mode) as `\x{...}`, or as itself when it is a letter or digit. */
  private literal(): string {
    const cp = this.codePointHere();
    return /^[A-Za-z0-9]$/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : hex(cp);
  }

  private codePointHere(): number {
    const cp = this.unicode ? this.src.codePointAt(this.i)! : this.src.charCodeAt(this.i);
    if (cp >= 0xd800 && cp <= 0xdfff) throw new Unsupported('it holds a lone surrogate');
    this.i += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private groupOpen(): string {
    const rest = this.src.slice(this.i, this.i + 4);
    if (rest.startsWith('(?=') || rest.startsWith('(?!')) throw new Unsupported('it uses a lookahead');
    if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) throw new Unsupported('it uses a lookbehind');
    if (rest.startsWith('(?:')) {
      this.i += 3;
      return '(?:';
    }
    if (rest.startsWith('(?<')) {
      const end = this.src.indexOf('>', this.i);
      this.i = end + 1;
      return '(?:';
    }
    // Pattern modifiers `(?i:...)` fold case as ECMA-262 does, which RE2 does not copy exactly.
    if (rest.startsWith('(?')) throw new Unsupported('it uses a pattern modifier');
    this.i++;
    return '(?:';
  }

  /** An escape outside a class. */
  private atomEscape(): string {
    const src = this.src;
    const c = src[this.i + 1]!;
    switch (c) {
      case 'b':
      case 'B':
        // A word boundary is ASCII \w in both (no `i` flag here).
        this.i += 2;
        return `\\${c}`;
      case 'k':
        if (this.unicode || /\(\?<[^=!]/.test(src)) throw new Unsupported('it uses a backreference');
        break;
      default:
        if (c >= '1' && c <= '9') throw new Unsupported('it uses a backreference');
    }
    const single = this.classEscape();
    return single.kind === 'set' ? single.text : hex(single.cp);
  }

  /**
   * An escape that stands for one character or a set, inside or outside a class (`\b` is handled
   * by the caller outside a class). Leaves `i` after it.
   */
  private classEscape(inClass = false): { kind: 'char'; cp: number } | { kind: 'set'; text: string; inner: string } {
    const src = this.src;
    const c = src[this.i + 1]!;
    this.i += 2;
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        // ASCII digits and word characters in both engines.
        return { kind: 'set', text: `\\${c}`, inner: `\\${c}` };
      case 's':
        return { kind: 'set', text: `[${SPACE_CLASS}]`, inner: SPACE_CLASS };
      case 'S':
        return { kind: 'set', text: `[${NOT_SPACE_CLASS}]`, inner: NOT_SPACE_CLASS };
      case 'p':
      case 'P': {
        if (!this.unicode) return { kind: 'char', cp: c.charCodeAt(0) };
        const end = src.indexOf('}', this.i);
        const name = propertyName(src.slice(this.i + 1, end));
        this.i = end + 1;
        const text = `\\${c}{${name}}`;
        return { kind: 'set', text, inner: text };
      }
      case 't':
        return { kind: 'char', cp: 0x09 };
      case 'n':
        return { kind: 'char', cp: 0x0a };
      case 'v':
        return { kind: 'char', cp: 0x0b };
      case 'f':
        return { kind: 'char', cp: 0x0c };
      case 'r':
        return { kind: 'char', cp: 0x0d };
      case 'b':
        // Only inside a class: backspace.
        return { kind: 'char', cp: 0x08 };
      case '0':
        if (/[0-9]/.test(src[this.i] ?? '')) throw new Unsupported('it uses an octal escape');
        return { kind: 'char', cp: 0 };
      case 'c': {
        const letter = src[this.i];
        if (letter && /[A-Za-z]/.test(letter)) {
          this.i++;
          return { kind: 'char', cp: letter.charCodeAt(0) % 32 };
        }
        // Legacy: a `\c` not followed by a letter is a backslash and a `c`; in a class, more cases.
        throw new Unsupported('it uses a `\\c` that is not a control escape');
      }
      case 'x': {
        const digits = /^[0-9A-Fa-f]{2}/.exec(src.slice(this.i));
        if (!digits) return { kind: 'char', cp: 0x78 };
        this.i += 2;
        return { kind: 'char', cp: parseInt(digits[0], 16) };
      }
      case 'u':
        return { kind: 'char', cp: this.unicodeEscape() };
      default: {
        if (c >= '1' && c <= '9') {
          // Reached only inside a class: an octal escape in a legacy pattern (invalid in Unicode mode).
          throw new Unsupported('it uses an octal escape');
        }
        if (c === 'k' && inClass) throw new Unsupported('it uses `\\k` in a class');
        // An identity escape: the character itself (any code point in legacy patterns).
        this.i -= 1;
        return { kind: 'char', cp: this.codePointHere() };
      }
    }
  }

  /** After `\u`: `XXXX`, a surrogate pair of two such escapes (Unicode mode), or `{X...}`. */
  private unicodeEscape(): number {
    const src = this.src;
    if (this.unicode && src[this.i] === '{') {
      const end = src.indexOf('}', this.i);
      const cp = parseInt(src.slice(this.i + 1, end), 16);
      this.i = end + 1;
      if (cp >= 0xd800 && cp <= 0xdfff) throw new Unsupported('it holds a lone surrogate');
      return cp;
    }
    const four = /^[0-9A-Fa-f]{4}/.exec(src.slice(this.i));
    if (!four) return 0x75; // legacy: `\u` not followed by four digits is a `u`
    this.i += 4;
    const unit = parseInt(four[0], 16);
    if (unit >= 0xd800 && unit <= 0xdbff && this.unicode) {
      const low = /^\\u(d[c-f][0-9a-f]{2})/i.exec(src.slice(this.i));
      if (low) {
        this.i += 6;
        return 0x10000 + ((unit - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) throw new Unsupported('it holds a lone surrogate');
    return unit;
  }

  /** `[...]` or `[^...]`. */
  private characterClass(): string {
    const src = this.src;
    this.i++;
    let negated = false;
    if (src[this.i] === '^') {
      negated = true;
      this.i++;
    }
    let body = '';
    let members = 0;
    while (src[this.i] !== ']') {
      if (this.i >= src.length) throw new Unsupported('it has an unterminated class');
      const first = this.classAtom();
      if (src[this.i] === '-' && src[this.i + 1] !== ']' && this.i + 1 < src.length) {
        this.i++;
        const second = this.classAtom();
        if (first.kind === 'char' && second.kind === 'char') {
          body += `${hex(first.cp)}-${hex(second.cp)}`;
          members++;
          continue;
        }
        // Legacy: a class escape as an end makes the `-` a plain character.
        body += (first.kind === 'char' ? hex(first.cp) : first.inner) + hex(0x2d) + (second.kind === 'char' ? hex(second.cp) : second.inner);
        members += 3;
        continue;
      }
      body += first.kind === 'char' ? hex(first.cp) : first.inner;
      members++;
    }
    this.i++;
    if (members === 0) return negated ? `[\\x{0}-\\x{10ffff}]` : `[^\\x{0}-\\x{10ffff}]`;
    return `[${negated ? '^' : ''}${body}]`;
  }

  private classAtom(): { kind: 'char'; cp: number } | { kind: 'set'; text: string; inner: string } {
    if (this.src[this.i] === '\\') {
      const next = this.src[this.i + 1];
      if (next === '-') {
        this.i += 2;
        return { kind: 'char', cp: 0x2d };
      }
      if (next === 'B') throw new Unsupported('it uses `\\B` in a class');
      return this.classEscape(true);
    }
    return { kind: 'char', cp: this.codePointHere() };
  }
}

/** The RE2 name for an ECMA-262 `\p{...}` body, or Unsupported when RE2 has no exact equivalent. */
function propertyName(body: string): string {
  const eq = body.indexOf('=');
  if (eq >= 0) {
    const key = body.slice(0, eq);
    const value = body.slice(eq + 1);
    if (key === 'General_Category' || key === 'gc') return category(value) ?? unsupportedProperty(body);
    // RE2 names scripts by their long names; Script_Extensions it does not have.
    if ((key === 'Script' || key === 'sc') && /^[A-Z][a-z]+(?:_[A-Z][a-z]+)*$/.test(value)) return value;
    return unsupportedProperty(body);
  }
  return category(body) ?? body;
}

function category(name: string): string | undefined {
  if (SHORT_CATEGORY.has(name)) return name;
  return Object.hasOwn(CATEGORY_ALIASES, name) ? CATEGORY_ALIASES[name] : undefined;
}

function unsupportedProperty(body: string): never {
  throw new Unsupported(`it uses the property \\p{${body}}`);
}
