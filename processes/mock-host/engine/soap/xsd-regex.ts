/**
 * An XML Schema `pattern` (XSD 1.0 Part 2, Appendix F) run in linear time: translated into an
 * ECMA-262 pattern with the same meaning, anchored as XSD's always are, and handed to the
 * checker's regular-expression engine (`compileEcmaPattern`: re2js, or V8 for strings too short
 * for its worst case to matter). libxml2 runs patterns on a backtracking automaton that cannot be
 * interrupted (`((a|aa)+)+c` against 40 `a`s does not finish), so the SOAP mock's XSD check
 * leaves no pattern to it (xsd-patterns.ts).
 *
 * What has no faithful translation is refused with a reason, never approximated: `\i`, `\c` and
 * their complements (XML 1.0's name-character tables), block escapes (`\p{IsBasicLatin}`), a
 * subtraction whose sets are not plain characters and ranges, `\w` in a negated class. Categories
 * (`\p{Lu}`, `\d` as `\p{Nd}`) follow the engines' Unicode tables, newer than libxml2's.
 */
import { compileEcmaPattern, type EcmaPattern } from '../../../checker/engine/regex.js';

export type XsdPattern = { ok: true; source: string; pattern: EcmaPattern } | { ok: false; source: string; reason: string };

/** `source` as written in the schema (the attribute's value). */
export function compileXsdPattern(source: string): XsdPattern {
  let ecma: string;
  try {
    ecma = new XsdTranslator(source).translate();
  } catch (err) {
    if (err instanceof Untranslatable) return { ok: false, source, reason: err.reason };
    throw err;
  }
  const compiled = compileEcmaPattern(`^(?:${ecma})$`);
  if (!compiled.ok) return { ok: false, source, reason: `its translation does not compile (${compiled.message})` };
  if (!compiled.pattern.linear) return { ok: false, source, reason: compiled.pattern.backtrackingReason ?? 'it needs a backtracking engine' };
  return { ok: true, source, pattern: compiled.pattern };
}

class Untranslatable {
  constructor(readonly reason: string) {}
}

type Range = [number, number];

/**
 * One member of a character class: explicit ranges, a category (`\p{..}` / `\P{..}`), XSD's `\w`
 * (everything outside punctuation, separators and "other": an intersection of complements, which
 * an ECMA class cannot hold beside other members) or `\W`, or a negated group of ranges and
 * categories. A set is the union of its members.
 */
type Member =
  | { kind: 'ranges'; ranges: Range[] }
  | { kind: 'category'; text: string }
  | { kind: 'word'; negated: boolean }
  | { kind: 'not'; ranges: Range[]; categories: string[] };

const MAX_CP = 0x10ffff;
/** XSD's `\s`: space, tab, newline, carriage return. */
const SPACE: Range[] = [
  [0x09, 0x0a],
  [0x0d, 0x0d],
  [0x20, 0x20],
];
/** XSD's `.`: anything but newline and carriage return. */
const DOT: Range[] = complement([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
]);
/** XSD 1.0's category names (Appendix F, "Character Properties"). */
const CATEGORIES = new Set('L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po Z Zs Zl Zp S Sm Sc Sk So C Cc Cf Co Cn'.split(' '));
/** SingleCharEsc: `\n \r \t` and the metacharacters escaped. */
const SINGLE_ESCAPES = new Map<string, number>([
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
  ...[...'\\|.-^?*+{}()[]'].map((c): [string, number] => [c, c.codePointAt(0)!]),
]);

const hex = (cp: number) => `\\u{${cp.toString(16)}}`;
const rangeText = ([a, b]: Range) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`);

class XsdTranslator {
  private i = 0;

  constructor(private readonly src: string) {}

  translate(): string {
    const out = this.regExp();
    if (this.i < this.src.length) throw new Untranslatable(`it has an unexpected ${JSON.stringify(this.src[this.i])} at ${this.i}`);
    return out;
  }

  /** regExp ::= branch ( '|' branch )* */
  private regExp(): string {
    let out = this.branch();
    while (this.src[this.i] === '|') {
      this.i++;
      out += `|${this.branch()}`;
    }
    return out;
  }

  /** branch ::= piece*, up to `|`, `)` or the end. */
  private branch(): string {
    let out = '';
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') out += this.piece();
    return out;
  }

  /** piece ::= atom quantifier? */
  private piece(): string {
    const atom = this.atom();
    const c = this.src[this.i];
    if (c === '?' || c === '*' || c === '+') {
      this.i++;
      return `(?:${atom})${c}`;
    }
    if (c === '{') {
      const quantity = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!quantity) throw new Untranslatable(`it has a "{" that starts no quantifier at ${this.i}`);
      this.i += quantity[0].length;
      return `(?:${atom})${quantity[0]}`;
    }
    return atom;
  }

  /** atom ::= Char | charClass | '(' regExp ')' */
  private atom(): string {
    const c = this.src[this.i]!;
    switch (c) {
      case '(': {
        this.i++;
        const inner = this.regExp();
        if (this.src[this.i] !== ')') throw new Untranslatable('it has an unclosed group');
        this.i++;
        return `(?:${inner})`;
      }
      case '[':
        return memberText(this.classExpression());
      case '.':
        this.i++;
        return `[${DOT.map(rangeText).join('')}]`;
      case '\\':
        return memberText([this.escape()]);
      case '?':
      case '*':
      case '+':
      case '{':
      case '}':
      case ']':
        throw new Untranslatable(`it has a ${JSON.stringify(c)} with nothing to apply to at ${this.i}`);
      default: {
        const cp = this.src.codePointAt(this.i)!;
        this.i += cp > 0xffff ? 2 : 1;
        return hex(cp);
      }
    }
  }

  /** `\` and what follows, outside or inside a class. */
  private escape(): Member {
    const c = this.src[this.i + 1];
    if (c === undefined) throw new Untranslatable('it ends with a lone "\\"');
    this.i += 2;
    const single = SINGLE_ESCAPES.get(c);
    if (single !== undefined) return { kind: 'ranges', ranges: [[single, single]] };
    switch (c) {
      case 's':
        return { kind: 'ranges', ranges: SPACE };
      case 'S':
        return { kind: 'ranges', ranges: complement(SPACE) };
      case 'd':
        return { kind: 'category', text: '\\p{Nd}' };
      case 'D':
        return { kind: 'category', text: '\\P{Nd}' };
      case 'w':
        return { kind: 'word', negated: false };
      case 'W':
        return { kind: 'word', negated: true };
      case 'i':
      case 'I':
      case 'c':
      case 'C':
        throw new Untranslatable(`it uses \\${c} (XML name characters)`);
      case 'p':
      case 'P': {
        const end = this.src.indexOf('}', this.i);
        if (this.src[this.i] !== '{' || end < 0) throw new Untranslatable(`it has a \\${c} without {...}`);
        const name = this.src.slice(this.i + 1, end);
        this.i = end + 1;
        if (name.startsWith('Is')) throw new Untranslatable(`it uses the block escape \\${c}{${name}}`);
        if (!CATEGORIES.has(name)) throw new Untranslatable(`it uses the unknown category \\${c}{${name}}`);
        return { kind: 'category', text: `\\${c}{${name}}` };
      }
      default:
        throw new Untranslatable(`it uses the escape \\${c}, which XML Schema does not define`);
    }
  }

  /** charClassExpr ::= '[' charGroup ']'; the members of the set it stands for. */
  private classExpression(): Member[] {
    this.i++; // [
    let negated = false;
    if (this.src[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const members: Member[] = [];
    let subtracted: Member[] | undefined;
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) throw new Untranslatable('it has an unclosed class');
      if (c === ']') {
        if (members.length === 0) throw new Untranslatable('it has an empty class');
        this.i++;
        break;
      }
      if (c === '-' && this.src[this.i + 1] === '[') {
        this.i++;
        subtracted = this.classExpression();
        if (this.src[this.i] !== ']') throw new Untranslatable('a class subtraction must end its class');
        this.i++;
        break;
      }
      if (c === '[') throw new Untranslatable(`it has a "[" inside a class at ${this.i}`);
      members.push(this.classMember(members.length === 0));
    }
    // [^A-[B]] is everything outside A and B.
    if (negated) return [negate(subtracted ? [...members, ...subtracted] : members)];
    if (!subtracted) return members;
    const from = explicit(members);
    const minus = explicit(subtracted);
    if (!from || !minus) throw new Untranslatable('it subtracts classes that are not plain characters and ranges');
    return [{ kind: 'ranges', ranges: subtract(from, minus) }];
  }

  /** charRange | charClassEsc, inside a class. */
  private classMember(first: boolean): Member {
    const c = this.src[this.i]!;
    if (c === '\\') {
      // A single-character escape may start a range; a class escape (\d, \p{L}...) may not.
      const single = SINGLE_ESCAPES.has(this.src[this.i + 1] ?? '');
      const member = this.escape();
      if (single && member.kind === 'ranges' && this.rangeDashFollows()) return this.rangeFrom(member.ranges[0]![0]);
      return member;
    }
    // `-` is itself only first, last, or before a subtraction; elsewhere XSD 1.0 refuses it.
    if (c === '-' && !first && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== '[') throw new Untranslatable(`it has a "-" that is neither a range nor first or last in its class at ${this.i}`);
    const cp = this.src.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    if (c !== '-' && this.rangeDashFollows()) return this.rangeFrom(cp);
    return { kind: 'ranges', ranges: [[cp, cp]] };
  }

  /** A `-` that makes a range: not before `]` and not a subtraction. */
  private rangeDashFollows(): boolean {
    return this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== '[' && this.i + 1 < this.src.length;
  }

  private rangeFrom(low: number): Member {
    this.i++; // -
    let high: number;
    if (this.src[this.i] === '\\') {
      const end = this.escape();
      if (end.kind !== 'ranges' || end.ranges.length !== 1 || end.ranges[0]![0] !== end.ranges[0]![1]) throw new Untranslatable('a range ends with a class escape');
      high = end.ranges[0]![0];
    } else {
      high = this.src.codePointAt(this.i)!;
      this.i += high > 0xffff ? 2 : 1;
    }
    if (high < low) throw new Untranslatable('it has a range whose end comes before its start');
    return { kind: 'ranges', ranges: [[low, high]] };
  }
}

/** A set as ECMA text: one class when it can be, an alternation of classes when it cannot. */
function memberText(members: Member[]): string {
  const ranges = normalize(members.flatMap((m) => (m.kind === 'ranges' ? m.ranges : [])));
  let inClass = ranges.map(rangeText).join('');
  const parts: string[] = [];
  for (const m of members) {
    if (m.kind === 'category') inClass += m.text;
    else if (m.kind === 'word' && m.negated) inClass += '\\p{P}\\p{Z}\\p{C}';
    else if (m.kind === 'word') parts.push('[^\\p{P}\\p{Z}\\p{C}]');
    else if (m.kind === 'not') parts.push(`[^${normalize(m.ranges).map(rangeText).join('')}${m.categories.join('')}]`);
  }
  if (inClass !== '') parts.unshift(`[${inClass}]`);
  // An empty class (`[a-[a]]`) matches nothing.
  if (parts.length === 0) return '[^\\u{0}-\\u{10ffff}]';
  return parts.length === 1 ? parts[0]! : `(?:${parts.join('|')})`;
}

/** The complement of a union of ranges and categories. */
function negate(members: Member[]): Member {
  const all = explicit(members);
  if (all) return { kind: 'ranges', ranges: complement(all) };
  if (members.some((m) => m.kind === 'word' || m.kind === 'not')) throw new Untranslatable('it uses \\w, \\W or a negated group inside a negated class');
  return {
    kind: 'not',
    ranges: members.flatMap((m) => (m.kind === 'ranges' ? m.ranges : [])),
    categories: members.flatMap((m) => (m.kind === 'category' ? [m.text] : [])),
  };
}

/** The set's ranges when it is only characters and ranges, else undefined. */
function explicit(members: Member[]): Range[] | undefined {
  if (members.some((m) => m.kind !== 'ranges')) return undefined;
  return normalize(members.flatMap((m) => (m.kind === 'ranges' ? m.ranges : [])));
}

function normalize(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

function complement(ranges: Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [a, b] of normalize(ranges)) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

function subtract(from: Range[], minus: Range[]): Range[] {
  const keep = complement(minus);
  const out: Range[] = [];
  for (const [a, b] of from) for (const [c, d] of keep) if (Math.max(a, c) <= Math.min(b, d)) out.push([Math.max(a, c), Math.min(b, d)]);
  return normalize(out);
}
