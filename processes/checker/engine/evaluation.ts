/**
 * The running state of one validation: where in the body we are, the problems found, the step
 * and depth budgets, the dynamic scope for `$dynamicRef`, and the annotations that
 * `unevaluatedProperties` / `unevaluatedItems` read. Keywords are plain closures over it.
 */
import type { ContractProblem } from '../../../protocol/model/verdict.js';
import { pointerOf } from '../../../protocol/json-pointer.js';

export type Dialect = 'oas30' | 'oas31' | 'swagger2';

/** A request body is checked with readOnly properties optional, a response with writeOnly ones. */
export type Direction = 'response' | 'request';

export type StopReason = 'too-many-steps' | 'too-deep' | 'budget' | 'enough-problems';

/** Thrown to unwind a validation that must stop; the problems found so far are kept. */
export class StopEvaluation {
  constructor(readonly reason: StopReason) {}
}

/**
 * Thrown out of an `inline` validation (one on a thread nothing could stop, such as the mock's
 * listener) when it meets work it cannot bound there: a pattern only V8's backtracking engine can
 * run, a format test on a long string, or its short leash running out. The caller runs the check
 * again where a budget is enforced by killing the thread (a worker). Never a verdict.
 */
export class NeedsWorker {
  constructor(readonly why: string) {}
}

/** A string format (a regular expression or a function of ajv-formats) is run inline only on strings up to this long. */
export const INLINE_FORMAT_MAX = 512;
/** After a pattern or format test on a string this long, the clock is looked at again. */
const LONG_STRING = 1024;

/** A schema resource: a document root or a subschema with `$id`. */
export interface Resource {
  readonly uri: string;
  readonly docUri: string;
  readonly pointer: string;
  readonly anchors: Map<string, string>;
  readonly dynamicAnchors: Set<string>;
}

/** Returns false when the value fails; reports problems unless the evaluation is silent. */
export type Keyword = (value: unknown, ev: Evaluation) => boolean;

export interface SchemaNode {
  readonly key: string;
  readonly resource: Resource;
  /** Compiles the node on first use; a document can reach far more schemas than a check uses. */
  pending?: () => void;
  keywords: Keyword[];
  /** Set when the node has unevaluatedProperties/Items: it collects its own annotations. */
  ownsAnnotations: boolean;
  /** Types the node accepts by its `type` keyword, when it has one; used to pick which alternative to explain. */
  types?: readonly string[];
  /** For a node that is only a `$ref` (OpenAPI 3.0, Swagger 2.0), the node it stands for. */
  refTarget?: () => SchemaNode | undefined;
  /** Things the check cannot evaluate here: reported as notes when the node is used. */
  notes: string[];
  /** Schema errors here (bad regex, unresolved ref): the verdict can then never be a pass. */
  errors: string[];
}

/** Which properties and items of the current value some schema already evaluated. */
export interface Annotations {
  props: Set<string>;
  allProps: boolean;
  items: number;
  allItems: boolean;
  itemSet: Set<number> | null;
}

export function newAnnotations(): Annotations {
  return { props: new Set(), allProps: false, items: 0, allItems: false, itemSet: null };
}

export function mergeAnnotations(into: Annotations, from: Annotations): void {
  for (const p of from.props) into.props.add(p);
  if (from.allProps) into.allProps = true;
  if (from.items > into.items) into.items = from.items;
  if (from.allItems) into.allItems = true;
  if (from.itemSet) {
    into.itemSet ??= new Set();
    for (const i of from.itemSet) into.itemSet.add(i);
  }
}

export interface Limits {
  maxSteps: number;
  maxDepth: number;
  maxProblems: number;
  /** Time (by `now`) at which the evaluation gives up on its own, keeping what it found. */
  deadline: number;
  now: () => number;
  /**
   * Whether a pattern the linear engine cannot run may use V8's backtracking one, which no
   * deadline interrupts: only in a worker whose thread is killed past the budget.
   */
  backtracking: boolean;
  /**
   * Running on a thread nothing could stop: past the deadline, or at work that cannot be bounded,
   * throw NeedsWorker instead of giving up, so the check can run again in a worker.
   */
  inline: boolean;
}

/** Resolves the node a `$dynamicAnchor` names inside a resource. */
export type DynamicLookup = (resource: Resource, anchor: string) => SchemaNode | undefined;

export class Evaluation {
  readonly path: (string | number)[] = [];
  readonly problems: ContractProblem[] = [];
  moreProblems = false;
  /** Above zero while probing (anyOf branches, not, if, contains): problems are not recorded. */
  silent = 0;
  steps = 0;
  ann: Annotations | null = null;
  readonly scope: Resource[] = [];
  readonly notes = new Set<string>();
  readonly schemaErrors = new Set<string>();
  /**
   * `$ref` targets being evaluated, with the depth they were entered at, to catch cycles; a
   * null node marks a discriminator dispatch, which is progress of its own.
   */
  readonly refStack: { node: SchemaNode | null; depth: number }[] = [];
  /** Discriminator dispatches under way: base node and depth. */
  readonly dispatching: { node: SchemaNode; depth: number }[] = [];

  constructor(
    readonly direction: Direction,
    readonly limits: Limits,
    readonly dynamicLookup: DynamicLookup,
  ) {}

  /** After a test on a long string: the clock, now rather than at the next 256 steps. */
  afterStringTest(length: number): void {
    if (length >= LONG_STRING && this.limits.now() > this.limits.deadline) throw pastDeadline(this.limits);
  }

  report(keyword: string, message: string, extra?: string | number): void {
    if (this.silent > 0) return;
    if (this.problems.length >= this.limits.maxProblems) {
      this.moreProblems = true;
      throw new StopEvaluation('enough-problems');
    }
    const pointer = pointerOf(this.path) + (extra === undefined ? '' : pointerOf([extra]));
    this.problems.push({ pointer, message, keyword });
  }
}

function pastDeadline(limits: Limits): StopEvaluation | NeedsWorker {
  return limits.inline ? new NeedsWorker('it took longer than the time a check may hold the listener') : new StopEvaluation('budget');
}

export function ensureCompiled(node: SchemaNode): SchemaNode {
  const pending = node.pending;
  if (pending) {
    node.pending = undefined;
    pending();
  }
  return node;
}

/** Applies one schema node to the value at the current location. */
export function evaluate(node: SchemaNode, value: unknown, ev: Evaluation): boolean {
  if (node.pending) ensureCompiled(node);
  const limits = ev.limits;
  if (++ev.steps > limits.maxSteps) throw new StopEvaluation('too-many-steps');
  if ((ev.steps & 255) === 0 && limits.now() > limits.deadline) throw pastDeadline(limits);
  if (node.notes.length > 0) for (const n of node.notes) ev.notes.add(n);
  if (node.errors.length > 0) for (const e of node.errors) ev.schemaErrors.add(e);
  const keywords = node.keywords;
  if (keywords.length === 0) return true;

  const scope = ev.scope;
  const entered = scope[scope.length - 1] !== node.resource;
  if (entered) scope.push(node.resource);
  const outer = ev.ann;
  const own = node.ownsAnnotations ? newAnnotations() : null;
  if (own) ev.ann = own;

  let ok = true;
  for (let i = 0; i < keywords.length; i++) {
    if (!keywords[i]!(value, ev)) {
      ok = false;
      if (ev.silent > 0) break;
    }
  }

  if (own) {
    ev.ann = outer;
    if (ok && outer) mergeAnnotations(outer, own);
  }
  if (entered) scope.pop();
  return ok;
}

/** Applies a node to a child of the current value (a property or an item). */
export function evaluateAt(node: SchemaNode, value: unknown, key: string | number, ev: Evaluation): boolean {
  const path = ev.path;
  path.push(key);
  if (path.length > ev.limits.maxDepth) throw new StopEvaluation('too-deep');
  const outer = ev.ann;
  ev.ann = null;
  const ok = evaluate(node, value, ev);
  ev.ann = outer;
  path.pop();
  return ok;
}

/** Applies a node without recording problems; annotations go to `ann` (or nowhere). */
export function probe(node: SchemaNode, value: unknown, ev: Evaluation, ann: Annotations | null): boolean {
  ev.silent++;
  const outer = ev.ann;
  ev.ann = ann;
  const ok = evaluate(node, value, ev);
  ev.ann = outer;
  ev.silent--;
  return ok;
}

/** Like probe, but for a child of the current value (contains, propertyNames). */
export function probeAt(node: SchemaNode, value: unknown, key: string | number, ev: Evaluation): boolean {
  ev.silent++;
  const ok = evaluateAt(node, value, key, ev);
  ev.silent--;
  return ok;
}
