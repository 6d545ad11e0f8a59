/**
 * The `pattern` facets of a SOAP mock's schemas, judged by the linear-time engine instead of
 * libxml2's backtracking one (issue 26: `((a|aa)+)+c` against a 381-byte request held the
 * listener for a second, twenty of them for 19 s; libxml2 cannot be interrupted).
 *
 * libxml2 still decides where a pattern applies (types, derivations, attributes, xsi:type...):
 * before the schemas are compiled, each restriction step's patterns are replaced by one marker
 * pattern that accepts nothing but the schema's own literals (enumeration values, defaults and
 * fixed values) that the step's patterns accept, so compiling the schema judges those literals
 * as before. Any other value of that type then fails the marker, and libxml2's error names the
 * marker and quotes the value (whitespace already normalised, as a pattern sees it); that value is
 * tested here against the step's own patterns and every pattern step it derives from (libxml2
 * reports only the first failing step of a derivation), and the error becomes the original
 * pattern's, or goes. A pattern libxml2 would apply silently (to a list's items, a union's
 * members), or one the engine cannot take, leaves the schema's patterns to libxml2; the mock host
 * then checks every request of that mock in its budgeted workers (`SoapContractCheck.inlineLimit`).
 */
import type { XmlElement } from 'libxml2-wasm';
import { elementChildren } from './envelope.js';
import { escapeXml } from '../render-response.js';
import { compileXsdPattern } from './xsd-regex.js';
import type { EcmaPattern } from '../../../checker/engine/regex.js';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
/** What libxml2 writes for a value its pattern facet refuses, around the value. */
const FACET_TEXT = "[facet 'pattern'] The value '";
const MARKER_TAIL = "' is not accepted by the pattern '";
const MARKER_ID = /^\\\{parley-pattern-(\d+)\\\}/;

interface PatternStep {
  id: number;
  /** The restriction's pattern facets, the first to carry the marker. */
  facets: XmlElement[];
  patterns: Array<{ source: string; pattern: EcmaPattern }>;
  /** This step, then every pattern step of the types it derives from. */
  chain: PatternStep[];
  marker: string;
}

export type PatternPlan =
  /** Patterns judged here; libxml2 gets markers (`mark`). */
  | { linear: true; steps: ReadonlyMap<number, PatternStep> }
  /** Patterns left to libxml2, for `reason`. */
  | { linear: false; reason: string };

export interface PatternVerdicts {
  problems: string[];
  /** Set when some value's pattern could not be judged. */
  notChecked?: string;
}

/**
 * Plans the patterns of these schema elements (every schema the validator will load, each an
 * `xs:schema` element). With no pattern at all the plan is linear with no steps.
 */
export function planPatterns(schemas: readonly XmlElement[]): PatternPlan {
  try {
    return new Planner(schemas).plan();
  } catch (err) {
    if (err instanceof LeftToLibxml2) return { linear: false, reason: err.reason };
    throw err;
  }
}

/** Puts each step's marker in place of its patterns (the plan's elements must still be alive). */
export function markPatterns(plan: PatternPlan): void {
  if (!plan.linear) return;
  for (const step of plan.steps.values()) {
    // libxml2 reads a new attribute value as attribute text with character references.
    step.facets[0]!.attr('value')!.value = escapeXml(step.marker);
    for (const extra of step.facets.slice(1)) extra.remove();
  }
}

/**
 * libxml2's validation messages with the markers' verdicts in place: a marker error becomes the
 * original pattern's when a pattern of its derivation refuses the value, and goes otherwise.
 * `format` writes one kept message (libxml2's, or one written like it).
 */
export function judgePatterns<D extends { message: string }>(plan: PatternPlan, details: readonly D[], format: (detail: D, message: string) => string, max: number): PatternVerdicts {
  const out: PatternVerdicts = { problems: [] };
  for (const detail of details) {
    if (out.problems.length >= max) break;
    const message = detail.message.trimEnd();
    const at = message.indexOf(FACET_TEXT);
    if (!plan.linear || at < 0) {
      out.problems.push(format(detail, message));
      continue;
    }
    const judged = judgeMarker(plan.steps, message, at);
    if (judged === undefined) {
      // Every pattern libxml2 runs is a marker: this is one whose message libxml2 cut short (at 64,000 characters).
      out.notChecked = 'a value too long for its pattern to be read back from the schema validator was not checked against it';
    } else if (judged !== null) {
      out.problems.push(format(detail, judged));
    } else continue;
  }
  return out;
}

/** The problem for one marker error, null when the value passes, undefined when it cannot be read. */
function judgeMarker(steps: ReadonlyMap<number, PatternStep>, message: string, at: number): string | null | undefined {
  const tail = message.lastIndexOf(`${MARKER_TAIL}\\{parley-pattern-`);
  if (tail < at) return undefined;
  const id = MARKER_ID.exec(message.slice(tail + MARKER_TAIL.length));
  const step = id ? steps.get(Number(id[1])) : undefined;
  if (!step || message.slice(tail + MARKER_TAIL.length) !== `${step.marker}'.`) return undefined;
  const value = message.slice(at + FACET_TEXT.length, tail);
  for (const s of step.chain) {
    let accepted = false;
    for (const p of s.patterns) {
      const verdict = p.pattern.testLinear(value);
      if (verdict === undefined) return undefined;
      if (verdict) {
        accepted = true;
        break;
      }
    }
    // Several patterns of one step are alternatives; libxml2 names the last.
    if (!accepted) return `${message.slice(0, at)}${FACET_TEXT}${value}${MARKER_TAIL}${s.patterns[s.patterns.length - 1]!.source}'.`;
  }
  return null;
}

class LeftToLibxml2 {
  constructor(readonly reason: string) {}
}

/**
 * An XML Schema element as the planner reads it. libxml2-wasm hands out a new wrapper object at
 * every step through a tree, so the schema is read once into these, which keep their identity.
 */
interface XsdNode {
  name: string;
  element: XmlElement;
  parent: XsdNode | undefined;
  children: XsdNode[];
  attr(name: string): string | undefined;
}

/** The schema's XML Schema elements as XsdNodes (others, such as annotations' content, skipped). */
function readSchema(root: XmlElement): XsdNode[] {
  const all: XsdNode[] = [];
  const stack: Array<[XmlElement, XsdNode | undefined]> = [[root, undefined]];
  while (stack.length > 0) {
    const [element, parent] = stack.pop()!;
    if (element.namespaceUri !== XSD_NS) continue;
    const attrs = new Map(element.attrs.filter((a) => !a.namespaceUri).map((a) => [a.name, a.value]));
    const node: XsdNode = { name: element.name, element, parent, children: [], attr: (name) => attrs.get(name) };
    parent?.children.push(node);
    all.push(node);
    for (const child of elementChildren(element)) stack.push([child, node]);
  }
  // Children in document order (the stack reversed them).
  for (const node of all) node.children.reverse();
  return all;
}

/** Built-in types whose values libxml2 goes on to use (identity, references) once they pass. */
const USED_BUILT_INS = new Set(['ID', 'IDREF', 'IDREFS', 'ENTITY', 'ENTITIES', 'NOTATION']);

class Planner {
  /** Named simple and complex types by `{namespace}name`. */
  private readonly types = new Map<string, XsdNode>();
  private readonly steps = new Map<XsdNode, PatternStep>();
  private readonly literals = new Set<string>();
  /** The built-in types derivations walked so far ended at. */
  private readonly builtInsMet = new Set<string>();

  constructor(private readonly schemas: readonly XmlElement[]) {}

  plan(): PatternPlan {
    let nextId = 1;
    const lists: XsdNode[] = [];
    const fixed: XsdNode[] = [];
    let identity = false;
    for (const root of this.schemas) {
      const nodes = readSchema(root);
      const schema = nodes[0];
      if (!schema) continue;
      const tns = schema.attr('targetNamespace') ?? '';
      for (const child of schema.children) {
        const name = child.attr('name');
        if (name && (child.name === 'simpleType' || child.name === 'complexType')) this.types.set(`{${tns}}${name}`, child);
      }
      for (const node of nodes) {
        switch (node.name) {
          case 'redefine':
            throw new LeftToLibxml2('a schema redefines types (xs:redefine)');
          case 'pattern': {
            const restriction = node.parent;
            if (!restriction || restriction.name !== 'restriction') throw new LeftToLibxml2('a pattern stands outside a restriction');
            if (this.steps.has(restriction)) break;
            const facets = restriction.children.filter((c) => c.name === 'pattern');
            const patterns = facets.map((facet) => {
              const source = facet.attr('value') ?? '';
              const compiled = compileXsdPattern(source);
              if (!compiled.ok) throw new LeftToLibxml2(`the pattern ${JSON.stringify(source)} cannot run on the linear engine: ${compiled.reason}`);
              return { source, pattern: compiled.pattern };
            });
            this.steps.set(restriction, { id: nextId++, facets: facets.map((f) => f.element), patterns, chain: [], marker: '' });
            break;
          }
          case 'enumeration':
            this.literal(node.attr('value'));
            break;
          case 'element':
          case 'attribute':
            this.literal(node.attr('default'));
            this.literal(node.attr('fixed'));
            if (node.attr('fixed') !== undefined) fixed.push(node);
            break;
          case 'list':
          case 'union':
            lists.push(node);
            break;
          case 'key':
          case 'keyref':
          case 'unique':
            identity = true;
            break;
        }
      }
    }
    if (this.steps.size === 0) return { linear: true, steps: new Map() };
    // Past a failed marker libxml2 checks nothing more of the value: not a fixed value, an
    // identity constraint's field, an ID. Where those could meet a pattern, libxml2 keeps them.
    if (identity) throw new LeftToLibxml2('the schemas have identity constraints (xs:key, xs:keyref, xs:unique)');
    for (const declaration of fixed) {
      if (this.declarationSteps(declaration).length > 0) throw new LeftToLibxml2('a declaration with a fixed value has a type with a pattern');
    }
    // libxml2 checks the items of a list and the members of a union without saying which pattern
    // refused what, and a list stops at its first bad item: a marker there would hide verdicts.
    for (const node of lists) {
      const refs = node.name === 'list' ? [node.attr('itemType')] : (node.attr('memberTypes') ?? '').split(/\s+/);
      const below = [
        ...refs.filter((r): r is string => !!r).flatMap((r) => this.stepsOfType(this.resolve(node, r), new Set())),
        ...node.children.filter((c) => c.name === 'simpleType').flatMap((c) => this.stepsOf(c, new Set())),
      ];
      if (below.length > 0) throw new LeftToLibxml2(`a pattern applies to the ${node.name === 'list' ? 'items of a list type' : 'members of a union type'}`);
    }
    const byId = new Map<number, PatternStep>();
    for (const [restriction, step] of this.steps) {
      this.builtInsMet.clear();
      step.chain = [step, ...this.below(restriction, new Set())];
      for (const builtIn of this.builtInsMet) if (USED_BUILT_INS.has(builtIn)) throw new LeftToLibxml2(`a type with a pattern derives from xs:${builtIn}`);
      step.marker = this.marker(step);
      byId.set(step.id, step);
    }
    return { linear: true, steps: byId };
  }

  private literal(value: string | undefined): void {
    if (value === undefined) return;
    this.literals.add(value);
    // Compared as the type's whitespace facet leaves it.
    this.literals.add(value.replace(/[\t\n\r]/g, ' '));
    this.literals.add(value.replace(/[\t\n\r ]+/g, ' ').trim());
  }

  /**
   * `\{parley-pattern-<id>\}` followed by an empty class matches nothing; the literals the
   * step's patterns accept are its alternatives.
   */
  private marker(step: PatternStep): string {
    let marker = `\\{parley-pattern-${step.id}\\}[a-[a]]`;
    for (const literal of this.literals) if (step.patterns.some((p) => p.pattern.testLinear(literal) === true)) marker += `|${xsdLiteral(literal)}`;
    return marker;
  }

  /** The pattern steps of an element or attribute declaration's type (a reference's too). */
  private declarationSteps(declaration: XsdNode): PatternStep[] {
    const type = declaration.attr('type');
    if (type) return this.stepsOfType(this.resolve(declaration, type), new Set());
    if (declaration.attr('ref')) throw new LeftToLibxml2('a reference to a declaration carries a fixed value');
    return declaration.children.filter((c) => c.name === 'simpleType' || c.name === 'complexType').flatMap((c) => this.stepsOf(c, new Set()));
  }

  /** Pattern steps of the types a restriction derives from (its base). */
  private below(restriction: XsdNode, seen: Set<XsdNode>): PatternStep[] {
    const nested = restriction.children.filter((c) => c.name === 'simpleType');
    const base = restriction.attr('base');
    const type = base ? this.resolve(restriction, base) : undefined;
    if (type && 'builtIn' in type) this.builtInsMet.add(type.builtIn);
    return [...nested.flatMap((c) => this.stepsOf(c, seen)), ...(type ? this.stepsOfType(type, seen) : [])];
  }

  private stepsOfType(type: XsdNode | { builtIn: string }, seen: Set<XsdNode>): PatternStep[] {
    return 'builtIn' in type ? [] : this.stepsOf(type, seen);
  }

  /** The pattern steps of a simple or complex type and of what it derives from. */
  private stepsOf(type: XsdNode, seen: Set<XsdNode>): PatternStep[] {
    if (seen.has(type)) return [];
    seen.add(type);
    for (const child of type.children) {
      if (child.name === 'restriction') {
        const own = this.steps.get(child);
        return [...(own ? [own] : []), ...this.below(child, seen)];
      }
      if (child.name === 'simpleContent') {
        for (const derivation of child.children) {
          if (derivation.name === 'restriction') {
            const own = this.steps.get(derivation);
            return [...(own ? [own] : []), ...this.below(derivation, seen)];
          }
          const base = derivation.attr('base');
          if (derivation.name === 'extension' && base) return this.stepsOfType(this.resolve(derivation, base), seen);
        }
      }
    }
    // A list or union, complex content, or nothing: no pattern of its own reaches its values.
    return [];
  }

  /** A type named by a QName in `at`'s scope; one the schemas do not hold leaves the patterns to libxml2. */
  private resolve(at: XsdNode, qname: string): XsdNode | { builtIn: string } {
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const local = qname.slice(colon + 1);
    const namespaces = at.element.namespaces;
    const ns = Object.hasOwn(namespaces, prefix) ? namespaces[prefix]! : '';
    if (ns === XSD_NS) return { builtIn: local };
    // A schema without a target namespace takes its includer's (a chameleon include).
    const type = this.types.get(`{${ns}}${local}`) ?? this.types.get(`{}${local}`);
    if (!type) throw new LeftToLibxml2(`the type ${JSON.stringify(qname)} a pattern's derivation names is not among the schemas`);
    return type;
  }
}

/** A literal as an XSD regular expression branch matching exactly it. */
function xsdLiteral(value: string): string {
  return value.replace(/[\\.?*+{}()|[\]^\n\r\t]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\${c}`));
}
