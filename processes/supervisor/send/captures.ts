/**
 * A request's captures after its send (docs/captures.md): `${...}` in their expressions expands
 * like the request's own fields; the status, headers and cookies are read here, body
 * expressions on the checker's query thread (on its budget); each value then goes where its
 * capture says (the session's or run's values in memory, or the active environment), in order.
 * What a result shows of a value is masked: a credential's is never shown, and any value has the
 * send's secret and carried credential values taken out.
 */
import { MASK } from '../../../protocol/credentials/index.js';
import { captureLabel, type Capture, type CaptureResult, type CapturedValue } from '../../../protocol/model/capture.js';
import type { SendResult } from '../../../protocol/model/exchange.js';
import { cookieCapture, cookieFromHeader, headerCapture, isCredentialCapture, readsBody, statusCapture } from '../../checker/engine/captures.js';
import type { ChildProcessHandle } from '../children/child-process.js';
import { shownValue, type CapturedValues } from './captured-values.js';
import { Expander, redactSecrets, type ExpansionScope } from './expand.js';

/** Where a send's captured values go. */
export interface CaptureSink {
  /** The session's values (the app's, per project) or the run's. */
  values: CapturedValues;
  /**
   * Puts a value into the active environment, answering a note when it went elsewhere or how it
   * is kept (in the keychain). Absent (a run, `parley run`'s or the app's): `environment` captures
   * stay in `values`, since a run changes no workspace.
   */
  toEnvironment?: (name: string, value: string, credential: boolean, from?: string) => Promise<string | undefined>;
}

/** The request's captures with their `${...}` expanded, and where their values go. */
export interface PreparedCaptures {
  items: { written: Capture; expanded: Capture; unresolved: string[] }[];
  sink: CaptureSink;
  /** The capturing request's name, kept with each value it sets (the app's Session values show it). */
  from?: string;
}

export interface CaptureDeps {
  checker: ChildProcessHandle;
  /** The Cookie header the jar would send to a URL: a cookie the response did not set itself is read there. */
  jarCookieHeader: (url: string) => Promise<string>;
}

export function prepareCaptures(captures: readonly Capture[] | undefined, scope: ExpansionScope, sink: CaptureSink, from?: string): PreparedCaptures | undefined {
  if (!captures || !captures.some((c) => c.enabled)) return undefined;
  const items = captures.map((written) => {
    const expander = new Expander(scope);
    const expanded = { ...written, name: written.name.trim(), expression: expander.expand(written.expression) };
    return { written, expanded, unresolved: [...expander.unresolved] };
  });
  return { items, sink, ...(from !== undefined ? { from } : {}) };
}

/** Why a variable cannot be called `name`, or undefined when it can. */
export function captureNameProblem(name: string): string | undefined {
  if (name === '') return 'no variable name';
  if (/[{}]/.test(name)) return `the variable name ${name} holds { or }, which \${...} cannot name`;
  if (name.startsWith('secret:')) return `\${${name}} names a secret in the secret store, not a variable`;
  return undefined;
}

/** What a send's captures did, and the credential values they read (masked by value in what the send itself records). */
export interface CaptureRun {
  results: CaptureResult[];
  credentials: string[];
}

/**
 * Reads each enabled capture from `response`, sets its variable, and answers what each did, in
 * the request's order (a later capture of one name wins). Never throws: a capture that cannot be
 * read says why, and its variable keeps the value it had.
 */
export async function runCaptures(deps: CaptureDeps, prepared: PreparedCaptures, response: SendResult, secrets: Map<string, string>, carried: readonly string[], signal?: AbortSignal): Promise<CaptureRun> {
  const values = await readValues(deps, prepared, response, signal);
  const results: CaptureResult[] = [];
  const credentials: string[] = [];
  for (const [index, item] of prepared.items.entries()) {
    if (!item.written.enabled) continue;
    const c = item.expanded;
    const base = { index, name: c.name, label: captureLabel(item.written), scope: c.scope };
    const read = values[index]!;
    if ('error' in read) {
      results.push({ ...base, ok: false, message: redactSecrets(read.error, secrets, carried) });
      continue;
    }
    const credential = isCredentialCapture(c);
    if (credential && read.value !== '') credentials.push(read.value);
    const shown = credential ? MASK : redactSecrets(shownValue(read.value, false), secrets, carried);
    const message = await put(prepared.sink, c, read.value, credential, shown, prepared.from);
    results.push({ ...base, ok: true, value: shown, ...(credential ? { credential } : {}), message: credential ? withoutValue(message, read.value) : redactSecrets(message, secrets, carried) });
  }
  return { results, credentials };
}

/** Each capture's value or why there is none, by index (disabled ones too, as errors nobody reads). */
async function readValues(deps: CaptureDeps, prepared: PreparedCaptures, response: SendResult, signal?: AbortSignal): Promise<CapturedValue[]> {
  const values: CapturedValue[] = [];
  const pending: { index: number; capture: Capture }[] = [];
  for (const [index, { written, expanded, unresolved }] of prepared.items.entries()) {
    const problem = !written.enabled ? 'disabled' : (captureNameProblem(expanded.name) ?? (unresolved.length > 0 ? `${unresolved.map((n) => `\${${n}}`).join(', ')} not defined` : undefined));
    values.push({ error: problem ?? 'not read' });
    if (problem === undefined) pending.push({ index, capture: expanded });
  }
  const body = pending.filter((p) => readsBody(p.capture));
  for (const { index, capture } of pending) {
    if (readsBody(capture)) continue;
    if (capture.source === 'status') values[index] = statusCapture(response.status);
    else if (capture.source === 'header') values[index] = headerCapture(capture.expression, response.headers);
    else {
      const set = cookieCapture(capture.expression, [...response.hops.map((h) => h.headers), response.headers]);
      values[index] = set ?? cookieFromHeader(capture.expression, await deps.jarCookieHeader(response.url).catch(() => ''));
    }
  }
  if (body.length === 0) return values;
  if (response.stream !== undefined) {
    for (const { index } of body) values[index] = { error: "an event stream's body is not captured: capture from its headers or status" };
    return values;
  }
  const job = {
    captures: body.map(({ capture }) => ({ source: capture.source as 'jsonpath' | 'xpath', expression: capture.expression })),
    body: response.body.bytes,
    bodyComplete: response.body.spooledTo === undefined,
  };
  try {
    const read = (await deps.checker.call('checker.capture', job, signal ? { signal } : {})).values;
    body.forEach(({ index }, i) => (values[index] = read[i] ?? { error: 'not read' }));
  } catch (err) {
    const reason = (err as Error).message;
    for (const { index } of body) values[index] = { error: `not read: ${reason}` };
  }
  return values;
}

/** Sets the variable where the capture says; answers a note when it went elsewhere. */
async function put(sink: CaptureSink, c: Capture, value: string, credential: boolean, shown: string, from: string | undefined): Promise<string> {
  if (c.scope === 'session') {
    sink.values.set(c.name, value, credential, shown, from);
    return '';
  }
  if (!sink.toEnvironment) {
    sink.values.set(c.name, value, credential, shown, from);
    return "kept in memory: a run does not change the workspace's environments";
  }
  try {
    // An environment value is read under the session's captured one: the newest capture wins.
    sink.values.delete(c.name);
    return (await sink.toEnvironment(c.name, value, credential, from)) ?? '';
  } catch (err) {
    sink.values.set(c.name, value, credential, shown, from);
    return `not written to the environment (${(err as Error).message}): kept for this session`;
  }
}

/** `text` with every occurrence of a credential's value masked (an error message that quoted it). */
function withoutValue(text: string, value: string): string {
  return value === '' ? text : text.split(value).join(MASK);
}
