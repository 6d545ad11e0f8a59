/**
 * The mock engine's ContractChecker, backed by the project's own checker engine, so a mock judges
 * requests and stubs exactly as a send's contract chip does. It reads the cached documents as
 * written through the same PreparedDefinition a send's check uses (Swagger 2.0 as 2.0, never the
 * converted bundle New Mock samples from), so a finding names the user's own file and pointer.
 *
 * validateValue is synchronous and nothing can interrupt it on the thread it runs on, so every
 * check carries its own deadline and stops by itself, keeping what it found. The mock host runs it
 * in a worker thread (check-task.ts) that is stopped past the budget, which is also what lets a
 * pattern only V8's backtracking engine can run be run (`backtracking`); elsewhere (stubs against
 * the contract) such a pattern makes the check give up, never pass.
 */
import type { MockProblem } from '../../../protocol/model/mock.js';
import type { Verdict } from '../../../protocol/model/verdict.js';
import { child, followed, listContractOperations, mediaList, prepare, type Contract, type ContractChecker, type CheckOutcome, type ContractRequest, type OperationRef } from './contract.js';
import {
  CHECK_LIMITS,
  NeedsWorker,
  TOO_LARGE_TEXT,
  reasoned,
  isJsonMediaType,
  parseJson,
  selectMediaType,
  selectResponseKey,
  validateValue,
  type Loc,
  type PreparedDefinition,
} from '../../checker/engine/index.js';
import { escapeSegment, isObject } from '../../../protocol/json-pointer.js';
import { COLLECTION_SEPARATORS, swaggerParameterSchemas } from './swagger2-parameters.js';
import { formKind, isFile, readForm, type FormRead, type FormValue } from './form-body.js';
import { formObject, formProblems } from './form-object.js';
import { scalar, typesOf } from './text-coercion.js';

/** Below the engine's 1000 ms race, so the checker's own stop (with its findings) comes first. */
const DEFAULT_DEADLINE_MS = 900;
/**
 * How long a check may hold the listener's thread before it is handed to a worker instead, and
 * the largest body checked there: most requests are checked in microseconds, and a hop to a
 * worker costs the listener about as much as answering the request (bench/README.md).
 */
const INLINE_LEASH_MS = 20;
const INLINE_BODY_MAX = 64 * 1024;
/**
 * A multipart body costs its reader some microseconds a part however small the part, and 64 KiB
 * of tiny parts comes to tens of milliseconds: past this size it is read in a worker.
 */
const INLINE_MULTIPART_MAX = 16 * 1024;
/** Header parameters OpenAPI says are ignored: they are described elsewhere. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

type Where = 'path' | 'query' | 'header' | 'formData';

interface Parameter {
  name: string;
  in: Where;
  required: boolean;
  /** The parameter's schema, when it has one (not for `content` parameters, nor Swagger 2.0 `type: file`). */
  schema?: Loc;
  /** Where `schema` is read: the documents as written, or (Swagger 2.0) their parameter mirror. */
  def: PreparedDefinition;
  /**
   * What separates an array's items in one value: `,` for OpenAPI's default styles and 2.0's
   * `csv`; undefined for 2.0's `multi` (the parameter repeated, one item each).
   */
  separator?: string;
  /** A Swagger 2.0 `type: file` form field: a file part of a multipart body. */
  file?: boolean;
}

interface PreparedOperation {
  loc: Loc;
  parameters: Parameter[];
  body?: PreparedBody;
}

interface PreparedBody {
  required: boolean;
  content: Map<string, Loc | undefined>;
  /** OpenAPI 3.x: each declared media type's Media Type Object (a form's `encoding` is read there). */
  media?: Map<string, Loc>;
  /** The declared media types, in order. */
  keys: string[];
  /** By request Content-Type: the declared media type it selects and whether it reads as JSON. Clients repeat theirs. */
  selected: Map<string, { key: string | undefined; json: boolean }>;
  /** Swagger 2.0 `in: formData` parameters: the fields of a urlencoded or multipart body. */
  form?: Parameter[];
}

/** Content-Types remembered per operation; past it the memo starts again (odd clients cannot grow it). */
const SELECTED_MAX = 64;

export interface CheckerOptions {
  /** Milliseconds one check may take before it stops with what it found. */
  deadlineMs?: number;
  now?: () => number;
  /** Only where the thread is stopped past the budget: see CheckOptions.backtracking. */
  backtracking?: boolean;
}

/** The checker, plus a request check against a deadline of the caller's (a worker's own). */
export interface EngineContractChecker extends ContractChecker {
  /** The path prefixes the check strips before an operation's path (mock routing uses the same). */
  routePrefixes(op: OperationRef): readonly string[] | undefined;
  checkRequestNow(op: OperationRef, request: ContractRequest): CheckOutcome;
  checkRequestUntil(op: OperationRef, request: ContractRequest, deadline: number): CheckOutcome;
  /**
   * The check on a thread nothing could stop (the listener's), when it is quick and bounded
   * there: undefined when the body is large, a pattern needs the backtracking engine, a format
   * meets a long string, or `leashMs` runs out; the caller then runs it in a worker.
   */
  checkRequestInline(op: OperationRef, request: ContractRequest, leashMs?: number): CheckOutcome | undefined;
  checkResponseBodyUntil(op: OperationRef, response: { status: number; contentType: string; body: string }, deadline: number): CheckOutcome;
}

export function contractChecker(contract: Pick<Contract, 'definition'>, options: CheckerOptions = {}): EngineContractChecker {
  const def = prepare(contract.definition);
  const parameterDef = def.dialect === 'swagger2' ? swaggerParameterSchemas(def) : def;
  let prefixes: Map<string, string[] | undefined> | undefined;
  const now = options.now ?? Date.now;
  const budget = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const operations = new Map<string, PreparedOperation | null>();
  // The mock engine passes the same operation object with every request for it: found without a key.
  const byRef = new WeakMap<OperationRef, PreparedOperation | null>();

  const operation = (op: OperationRef): PreparedOperation | null => {
    let prepared = byRef.get(op);
    if (prepared !== undefined) return prepared;
    const key = `${op.method.toLowerCase()} ${op.path}`;
    prepared = operations.get(key);
    if (prepared === undefined) operations.set(key, (prepared = prepareOperation(def, parameterDef, op)));
    byRef.set(op, prepared);
    return prepared;
  };

  const backtracking = options.backtracking ?? false;
  const checkRequestUntil = (op: OperationRef, request: ContractRequest, deadline: number, inline = false): CheckOutcome => {
    const prepared = operation(op);
    if (!prepared) return { problems: [] };
    const limits: Limits = { deadline, now, backtracking, inline };
    const outcome: CheckOutcome = { problems: [] };
    for (const parameter of prepared.parameters) {
      checkParameter(parameter, parameterValues(parameter, request), outcome, limits);
      if (outcome.gaveUp) return outcome;
    }
    if (prepared.body) checkRequestBody(def, prepared.body, request, outcome, limits);
    if (outcome.problems.length > CHECK_LIMITS.maxProblems) outcome.problems = outcome.problems.slice(0, CHECK_LIMITS.maxProblems);
    return outcome;
  };
  const checkRequestNow = (op: OperationRef, request: ContractRequest): CheckOutcome => checkRequestUntil(op, request, now() + budget);
  const checkRequestInline = (op: OperationRef, request: ContractRequest, leashMs = INLINE_LEASH_MS): CheckOutcome | undefined => {
    const size = request.bodySize ?? request.bodyBytes?.byteLength ?? encoder.encode(request.body).byteLength;
    if (size > INLINE_BODY_MAX) return undefined;
    try {
      return checkRequestUntil(op, request, now() + leashMs, true);
    } catch (err) {
      if (err instanceof NeedsWorker) return undefined;
      throw err;
    }
  };
  const checkResponseBodyUntil = (op: OperationRef, response: { status: number; contentType: string; body: string }, deadline: number): CheckOutcome => {
    const prepared = operation(op);
    if (!prepared) return { problems: [] };
    const schema = responseSchema(def, prepared.loc, response.status, response.contentType);
    if (!schema) return { problems: [] };
    const outcome: CheckOutcome = { problems: [] };
    checkJson(def, schema, response.body, 'response', outcome, { deadline, now, backtracking, inline: false });
    return outcome;
  };

  return {
    routePrefixes(op) {
      prefixes ??= new Map(listContractOperations(def).map((o) => [`${o.method} ${o.path}`, o.prefixes]));
      return prefixes.get(`${op.method.toUpperCase()} ${op.path}`);
    },
    checkRequestNow,
    checkRequestUntil,
    checkRequestInline,

    async checkRequest(op, request) {
      return checkRequestNow(op, request);
    },

    checkResponseBodyUntil,

    async checkResponseBody(op, response) {
      return checkResponseBodyUntil(op, response, now() + budget);
    },
  };
}

/** Where an operation is: a fixed field of its path item, or (OpenAPI 3.2) one of its additionalOperations. */
function operationAt(def: PreparedDefinition, item: { loc: Loc; value: Record<string, unknown> }, method: string): { loc: Loc; value: Record<string, unknown> } | undefined {
  const fixed = method.toLowerCase();
  if (Object.hasOwn(item.value, fixed)) return followed(def, child(item.loc, fixed));
  const extra = def.dialect === 'swagger2' ? undefined : item.value.additionalOperations;
  const name = isObject(extra) ? Object.keys(extra).find((m) => m.toUpperCase() === method.toUpperCase()) : undefined;
  return name === undefined ? undefined : followed(def, child(item.loc, 'additionalOperations', name));
}

/**
 * Parameters (path item's, overridden by the operation's) and the request body, looked up once.
 * Swagger 2.0 is read as 2.0: a non-body parameter's schema is the parameter itself (read in
 * `parameterDef`, the mirror), the body is the `in: body` parameter's schema for each type the
 * operation (else the document) `consumes`, and `in: formData` parameters are a form body's fields.
 */
function prepareOperation(def: PreparedDefinition, parameterDef: PreparedDefinition, op: OperationRef): PreparedOperation | null {
  const swagger = def.dialect === 'swagger2';
  const item = followed(def, { docUri: def.entryUri, pointer: `/paths/${escapeSegment(op.path)}` });
  if (!item) return null;
  const opLoc = operationAt(def, item, op.method);
  if (!opLoc) return null;
  const byKey = new Map<string, Parameter>();
  let swaggerBody: { loc: Loc; value: Record<string, unknown> } | undefined;
  for (const owner of [item, opLoc]) {
    const list = owner.value.parameters;
    if (!Array.isArray(list)) continue;
    list.forEach((_, i) => {
      const p = followed(def, child(owner.loc, 'parameters', String(i)));
      if (!p) return;
      if (swagger && p.value.in === 'body') {
        swaggerBody = p;
        return;
      }
      if (typeof p.value.name !== 'string') return;
      const where = p.value.in;
      if (where !== 'path' && where !== 'query' && where !== 'header' && !(swagger && where === 'formData')) return;
      if (where === 'header' && IGNORED_HEADERS.has(p.value.name.toLowerCase())) return;
      const parameter: Parameter = { name: p.value.name, in: where, required: where === 'path' || p.value.required === true, def };
      if (swagger) {
        if (parameterDef.has(p.loc)) parameter.schema = p.loc;
        parameter.def = parameterDef;
        const format = typeof p.value.collectionFormat === 'string' ? p.value.collectionFormat : 'csv';
        if (format !== 'multi') parameter.separator = COLLECTION_SEPARATORS.get(format) ?? ',';
        if (where === 'formData' && p.value.type === 'file') parameter.file = true;
      } else {
        parameter.separator = ',';
        if (p.value.schema !== undefined) parameter.schema = child(p.loc, 'schema');
      }
      byKey.set(`${where}:${where === 'header' ? p.value.name.toLowerCase() : p.value.name}`, parameter);
    });
  }
  const all = [...byKey.values()];
  const prepared: PreparedOperation = { loc: opLoc.loc, parameters: all.filter((p) => p.in !== 'formData') };
  if (swagger) {
    const form = all.filter((p) => p.in === 'formData');
    const consumes = mediaList(opLoc.value.consumes) ?? mediaList(def.entry.consumes);
    if (swaggerBody) {
      const keys = consumes ?? ['application/json'];
      const schema = swaggerBody.value.schema === undefined ? undefined : child(swaggerBody.loc, 'schema');
      prepared.body = { required: swaggerBody.value.required === true, content: new Map(keys.map((k) => [k, schema])), keys, selected: new Map() };
    } else if (form.length > 0) {
      const keys = consumes ?? ['application/x-www-form-urlencoded', 'multipart/form-data'];
      prepared.body = { required: form.some((p) => p.required), content: new Map(keys.map((k) => [k, undefined])), keys, selected: new Map(), form };
    }
    return prepared;
  }
  const body = opLoc.value.requestBody === undefined ? undefined : followed(def, child(opLoc.loc, 'requestBody'));
  if (body) {
    const content = new Map<string, Loc | undefined>();
    const mediaLocs = new Map<string, Loc>();
    if (isObject(body.value.content)) {
      for (const key of Object.keys(body.value.content)) {
        const media = followed(def, child(body.loc, 'content', key));
        content.set(key, media && media.value.schema !== undefined ? child(media.loc, 'schema') : undefined);
        if (media) mediaLocs.set(key, media.loc);
      }
    }
    prepared.body = { required: body.value.required === true, content, media: mediaLocs, keys: [...content.keys()], selected: new Map() };
  }
  return prepared;
}

interface Limits {
  deadline: number;
  now: () => number;
  backtracking: boolean;
  inline: boolean;
}

function checkParameter(p: Parameter, values: string[], outcome: CheckOutcome, limits: Limits): void {
  // A form field is part of the body; its problem says so, by the field's name.
  const where = p.in === 'formData' ? 'body' : p.in;
  if (values.length === 0) {
    if (p.required) outcome.problems.push({ in: where, pointer: p.name, message: `The ${p.in} parameter ${p.name} is required.` });
    return;
  }
  if (!p.schema) return;
  const value = coerce(p, values);
  if (value === SKIP) return;
  const { verdict } = validateValue(p.def, p.schema, value, 'request', limits);
  for (const problem of verdict.problems) {
    const at = problem.pointer ? `${p.name}${problem.pointer}` : p.name;
    outcome.problems.push({ in: where, pointer: p.name, message: `${at}: ${problem.message}` });
  }
  if (verdict.kind === 'not-checked') outcome.gaveUp = whyNotChecked(verdict);
}

/** Why a validation stopped; for a schema that could not be evaluated, what could not be. */
function whyNotChecked(verdict: Verdict): string {
  const reason = verdict.reason?.message ?? 'the check stopped early';
  return verdict.reason?.code === 'schema-error' && verdict.notes[0] ? `${reason}: ${verdict.notes[0]}` : reason;
}

function parameterValues(p: Parameter, request: ContractRequest): string[] {
  if (p.in === 'path') {
    const v = request.pathParams[p.name];
    return v === undefined ? [] : [v];
  }
  if (p.in === 'query') return request.query[p.name] ?? [];
  const lower = p.name.toLowerCase();
  const found = request.headers.filter(([name]) => name.toLowerCase() === lower).map(([, v]) => v);
  return found.length === 0 ? [] : [found.join(', ')];
}

const SKIP = Symbol('skip');

/**
 * A parameter arrives as text; its schema speaks of numbers, booleans and arrays. This reads the
 * text the way OpenAPI's default styles (simple, form with explode) or Swagger 2.0's
 * `collectionFormat` write it. Objects (deepObject, exploded forms) are left unchecked rather than
 * guessed at.
 */
function coerce(p: Parameter, values: string[]): unknown {
  const resolved = followed(p.def, p.schema!);
  const types = typesOf(resolved?.value);
  if (types.includes('object')) return SKIP;
  if (types.includes('array')) {
    const items = resolved && isObject(resolved.value.items) ? typesOf(followed(p.def, child(resolved.loc, 'items'))?.value) : [];
    const parts = values.length === 1 && p.separator !== undefined ? values[0]!.split(p.separator) : values;
    return parts.map((part) => scalar(part, items));
  }
  return scalar(values[0]!, types);
}

function checkRequestBody(def: PreparedDefinition, body: PreparedBody, request: ContractRequest, outcome: CheckOutcome, limits: Limits): void {
  if (request.body === '' && !request.bodySize) {
    if (!body.required) return;
    // An empty form names each required field it lacks, as a form with some fields would.
    if (body.form) for (const field of body.form) checkParameter(field, [], outcome, limits);
    else outcome.problems.push({ in: 'body', pointer: '', message: 'The operation requires a request body.' });
    return;
  }
  if (body.content.size === 0) return;
  let selected = body.selected.get(request.contentType);
  if (selected === undefined) {
    selected = { key: selectMediaType(body.keys, request.contentType || undefined), json: isJsonMediaType(request.contentType || 'application/json') };
    if (body.selected.size >= SELECTED_MAX) body.selected.clear();
    body.selected.set(request.contentType, selected);
  }
  const key = selected.key;
  if (key === undefined) {
    const declared = body.keys.slice(0, 6).join(', ');
    outcome.problems.push({ in: 'header', pointer: 'Content-Type', message: `Content-Type ${request.contentType || '(none)'} is not declared for the request body (declared: ${declared}).` });
    return;
  }
  if (body.form) {
    const form = formFields(request, key, outcome, limits);
    if (form) for (const field of body.form) checkFormField(field, form.fields.get(field.name) ?? [], form.kind === 'multipart', outcome, limits);
    return;
  }
  const schema = body.content.get(key);
  if (!schema) return;
  if (!selected.json) {
    const form = formFields(request, key, outcome, limits);
    if (form) checkFormObject(def, schema, body.media?.get(key), form, outcome, limits);
    return;
  }
  checkJson(def, schema, request.bodyBytes ?? request.body, 'request', outcome, limits, request.bodySize);
}

/**
 * A form body's fields (urlencoded or multipart, by the request's Content-Type, else the declared
 * one); undefined for a body of any other type (not checked), or when it was not read: too large
 * (the check gives up), or a multipart body that does not parse (a problem naming what was wrong).
 */
function formFields(request: ContractRequest, declared: string, outcome: CheckOutcome, limits: Limits): Extract<FormRead, { ok: true }> | undefined {
  const contentType = request.contentType || declared;
  const kind = formKind(contentType);
  if (!kind) return undefined;
  const size = request.bodySize ?? request.bodyBytes?.byteLength ?? request.body.length;
  if (size > CHECK_LIMITS.maxBodyBytes) {
    outcome.gaveUp = TOO_LARGE_TEXT;
    return undefined;
  }
  if (kind === 'multipart' && limits.inline && size > INLINE_MULTIPART_MAX) throw new NeedsWorker('a multipart body over 16 KiB is read in a worker');
  // A urlencoded body is text; a multipart one is read from its bytes (a file part need not be UTF-8).
  const read = readForm(kind, contentType, kind === 'multipart' ? (request.bodyBytes ?? request.body) : request.body);
  if (read.ok) return read;
  outcome.problems.push({ in: 'body', pointer: '', message: read.message });
  return undefined;
}

/**
 * A Swagger 2.0 form field, checked as a query parameter is. In a multipart body a `type: file`
 * field must be a file part and any other a text part; a file sent where text is expected is not
 * read (the check never reads a file's content).
 */
function checkFormField(field: Parameter, values: FormValue[], multipart: boolean, outcome: CheckOutcome, limits: Limits): void {
  if (multipart && values.length > 0) {
    const files = values.filter(isFile).length;
    if (field.file && files < values.length) {
      outcome.problems.push({ in: 'body', pointer: field.name, message: `The formData parameter ${field.name} must be a file, but a text field was sent.` });
      return;
    }
    if (!field.file && files > 0) {
      outcome.problems.push({ in: 'body', pointer: field.name, message: `The formData parameter ${field.name} must be a text field, but a file was sent.` });
      return;
    }
  }
  checkParameter(field, values.map((v) => (isFile(v) ? v.filename : v)), outcome, limits);
}

/** An OpenAPI 3.x form body against its schema, as the object of its fields (form-object.ts). */
function checkFormObject(def: PreparedDefinition, schema: Loc, media: Loc | undefined, form: Extract<FormRead, { ok: true }>, outcome: CheckOutcome, limits: Limits): void {
  const object = formObject(def, schema, media, form.kind, form.fields, limits);
  outcome.problems.push(...object.problems);
  if (object.stopped) {
    outcome.gaveUp = whyNotChecked(reasoned('not-checked', 'budget'));
    return;
  }
  const { verdict } = validateValue(def, schema, object.value, 'request', limits);
  outcome.problems.push(...formProblems(verdict.problems, object.unread));
  if (verdict.kind === 'not-checked') outcome.gaveUp = whyNotChecked(verdict);
}

/** The schema a response body of this status and Content-Type is held to, if the contract gives one. */
function responseSchema(def: PreparedDefinition, opLoc: Loc, status: number, contentType: string): Loc | undefined {
  const responses = followed(def, child(opLoc, 'responses'));
  if (!responses) return undefined;
  const key = selectResponseKey(Object.keys(responses.value), status);
  if (key === undefined) return undefined;
  const response = followed(def, child(responses.loc, key));
  if (def.dialect === 'swagger2') {
    // One schema per response, for whatever the operation produces: checked when the body is JSON, as a send's is.
    if (!response || response.value.schema === undefined || !isJsonMediaType(contentType || 'application/json')) return undefined;
    return child(response.loc, 'schema');
  }
  if (!response || !isObject(response.value.content)) return undefined;
  const mediaKey = selectMediaType(Object.keys(response.value.content), contentType || undefined);
  if (mediaKey === undefined || !isJsonMediaType(contentType || 'application/json')) return undefined;
  const media = followed(def, child(response.loc, 'content', mediaKey));
  return media && media.value.schema !== undefined ? child(media.loc, 'schema') : undefined;
}

const encoder = new TextEncoder();

/**
 * A JSON body against its schema. Given the bytes as received (a request), they are read as the
 * checker reads a send's body: strict UTF-8, so a body that is not UTF-8 is reported rather than
 * read with replacement characters; given text, it is encoded first.
 */
function checkJson(
  def: PreparedDefinition,
  schema: Loc,
  body: string | Uint8Array,
  direction: 'request' | 'response',
  outcome: CheckOutcome,
  limits: Limits,
  size?: number,
): void {
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  if ((size ?? bytes.byteLength) > CHECK_LIMITS.maxBodyBytes) {
    outcome.gaveUp = TOO_LARGE_TEXT;
    return;
  }
  const parsed = parseJson(bytes);
  if (!parsed.ok) {
    outcome.problems.push({ in: 'body', pointer: '', message: parsed.message });
    return;
  }
  const { verdict } = validateValue(def, schema, parsed.value, direction, limits);
  outcome.problems.push(...verdict.problems.map((p): MockProblem => ({ in: 'body', pointer: p.pointer, message: p.message })));
  if (verdict.kind === 'not-checked') outcome.gaveUp = whyNotChecked(verdict);
}
