/**
 * One mock response: name, status, delay, headers, body, scenario, match conditions. A template's
 * values are shown read-only: they are edited in the response file, and kept on every other edit.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import type { MatchCheck, MatchCondition, MockBodyKind, MockHeader, MockOperation, MockResponse, ScenarioSettings, ValueSource } from '../../../../../protocol/model/mock.js';
import { RowsTable } from '../../components/RowsTable.js';
import { CloseIcon, PlusIcon } from '../../components/Icons.js';
import { formatBody } from '../request/format.js';
import { parseMarks } from '../request/BodyEditor.js';
import { CodeEditor } from '../../code/CodeEditor.js';
import { WrapToggle } from '../../code/WrapToggle.js';

/** A mock body's `{{name}}` template values stand for values: not parse errors. */
const TEMPLATES = { templates: true };
import { editOperation, editResponse, type MockTabState } from './mock-tabs.js';
import { IntegerInput } from '../../components/IntegerInput.js';
import { base64Bytes, bytesBase64, recogniseBytes } from '../../../../../protocol/binary-media.js';
import { essence } from '../../../../../protocol/media-type.js';
import { extensionFor } from '../response/download-name.js';

const BODY_KINDS: [MockBodyKind, string][] = [
  ['json', 'JSON'],
  ['xml', 'XML'],
  ['text', 'Text'],
  ['binary', 'Binary'],
  ['none', 'None'],
];
const CONTENT_TYPE: Record<MockBodyKind, string> = { json: 'application/json', xml: 'application/xml', text: 'text/plain', binary: 'application/octet-stream', none: '' };
/** A file read into a binary body is held in the draft as base64: past this, put it in the body file by hand. */
const MAX_BINARY_BYTES = 16 * 1024 * 1024;

export function ResponseEditor({ state, op, response }: { state: MockTabState; op: MockOperation; response: MockResponse }) {
  const change = (fn: (r: MockResponse) => MockResponse) => editResponse(state, op.id, response.id, fn);
  const index = op.responses.indexOf(response);
  const findings = (state.view.value?.findings ?? []).filter((f) => f.operationId === op.id && f.responseId === response.id);
  const template = Object.keys(response.values).length > 0;
  return (
    <div class="response-editor" aria-label={`Response ${response.name}`}>
      {findings.length > 0 && (
        <ul class="response-findings">
          {findings.map((f, i) => (
            <li key={i} class={f.severity}>
              <span class="badge">{f.rule}</span> {f.pointer ? <code>{f.pointer}</code> : null} {f.message}
            </li>
          ))}
        </ul>
      )}
      <div class="response-fields">
        <label>
          <span>Name</span>
          <input aria-label="Response name" value={response.name} onInput={(e) => renameResponse(state, op, response, (e.target as HTMLInputElement).value)} />
        </label>
        <label>
          <span>Status</span>
          <IntegerInput label="Status" value={response.status} min={100} max={599} onChange={(status) => change((r) => ({ ...r, status }))} />
        </label>
        <label>
          <span>Delay (ms)</span>
          <IntegerInput label="Delay (ms)" value={response.delayMs} min={0} max={600_000} step={100} onChange={(delayMs) => change((r) => ({ ...r, delayMs }))} />
        </label>
        <div class="response-actions">
          <button class="button small" disabled={index <= 0} title="Earlier in the order" onClick={() => move(state, op, index, -1)}>
            ↑
          </button>
          <button class="button small" disabled={index >= op.responses.length - 1} title="Later in the order" onClick={() => move(state, op, index, 1)}>
            ↓
          </button>
          <button class="button small danger" disabled={op.responses.length <= 1} onClick={() => removeResponse(state, op, response)}>
            Delete
          </button>
        </div>
      </div>

      {template && <TemplateValues values={response.values} />}

      <h4>Headers</h4>
      <RowsTable
        label="Response header"
        noToggle
        rows={response.headers.map((h) => ({ ...h, enabled: true }))}
        onChange={(rows) => change((r) => ({ ...r, headers: rows.map(({ name, value }): MockHeader => ({ name, value })) }))}
      />

      <h4>Body</h4>
      <BodySection response={response} change={change} soap={state.draft.value?.kind === 'soap'} />

      <h4>Scenario</h4>
      <ScenarioFields scenario={response.scenario} onChange={(scenario) => change((r) => withScenario(r, scenario))} />

      <h4>
        Match conditions{' '}
        {op.dispatch !== 'match' && <span class="muted small-note">(used when the operation dispatches By match conditions)</span>}
      </h4>
      <MatchConditions conditions={response.match} onChange={(match) => change((r) => ({ ...r, match }))} />
    </div>
  );
}

function BodySection({ response, change, soap }: { response: MockResponse; change(fn: (r: MockResponse) => MockResponse): void; soap: boolean }) {
  const error = useSignal('');
  const setKind = (kind: MockBodyKind) =>
    change((r) => {
      const previous = CONTENT_TYPE[r.body.kind];
      const has = r.headers.find((h) => h.name.toLowerCase() === 'content-type');
      let headers = r.headers;
      // Follow the kind while Content-Type is the one Parley would have picked for the old kind.
      if (kind !== 'none' && !has) headers = [...headers, { name: 'Content-Type', value: CONTENT_TYPE[kind] }];
      else if (has && previous && has.value === previous && kind !== 'none') headers = headers.map((h) => (h === has ? { ...h, value: CONTENT_TYPE[kind] } : h));
      // Text carries over between JSON, XML and Text; bytes and text do not turn into each other.
      const keep = kind !== 'none' && (kind === 'binary') === (r.body.kind === 'binary');
      return { ...r, headers, body: { kind, text: keep ? r.body.text : '' } };
    });
  return (
    <div class="mock-body-editor">
      <div class="toolbar">
        <div class="segmented" role="radiogroup" aria-label="Body kind">
          {/* A SOAP answer is an envelope: bytes are no choice there (one written by hand still shows). */}
          {BODY_KINDS.filter(([kind]) => !soap || kind !== 'binary' || response.body.kind === 'binary').map(([kind, label]) => (
            <button key={kind} role="radio" aria-checked={response.body.kind === kind} class={response.body.kind === kind ? 'active' : ''} onClick={() => setKind(kind)}>
              {label}
            </button>
          ))}
        </div>
        {(response.body.kind === 'json' || response.body.kind === 'xml') && (
          <button
            class="button small"
            onClick={() => {
              const result = formatBody(response.body.kind, response.body.text, TEMPLATES);
              if (result.ok) {
                error.value = '';
                change((r) => ({ ...r, body: { ...r.body, text: result.text } }));
              } else error.value = result.message;
            }}
          >
            Format
          </button>
        )}
        {response.body.kind !== 'none' && response.body.kind !== 'binary' && <WrapToggle />}
      </div>
      {error.value && (
        <p class="inline-error" role="alert">
          {error.value}
        </p>
      )}
      {response.body.kind === 'none' ? (
        <p class="muted">This response has no body.</p>
      ) : response.body.kind === 'binary' ? (
        <BinaryBody response={response} change={change} error={error} />
      ) : (
        <CodeEditor
          class="mock-body-code"
          label="Response body"
          language={response.body.kind}
          value={response.body.text}
          check={(text) => parseMarks(response.body.kind, text, TEMPLATES)}
          onChange={(text) => change((r) => ({ ...r, body: { ...r.body, text } }))}
        />
      )}
    </div>
  );
}

/**
 * A binary body: its size and what its bytes are, a preview of an image, Replace from file… and
 * Download. The page reads only the file the user picks in the browser's own chooser, so no
 * supervisor call hands the page the bytes of a file by its path.
 */
function BinaryBody({ response, change, error }: { response: MockResponse; change(fn: (r: MockResponse) => MockResponse): void; error: { value: string } }) {
  const text = response.body.text;
  const type = essence(response.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '') || 'application/octet-stream';
  const bytes = useMemo(() => base64Bytes(text), [text]);
  const seen = recogniseBytes(bytes);
  // One object URL for the preview and Download, let go when the bytes change or the body closes.
  const url = useMemo(() => (bytes.length > 0 ? URL.createObjectURL(new Blob([bytes], { type })) : ''), [bytes, type]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  // An image's size once the browser decoded it: a 1x1 sample shows as a dot, its size says what it is.
  const size = useSignal('');
  const replace = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Cleared, so picking the same file again after an undo is a change too.
    input.value = '';
    if (!file) return;
    if (file.size > MAX_BINARY_BYTES) {
      error.value = `${file.name} is ${Math.ceil(file.size / (1024 * 1024))} MB, over the 16 MB the editor takes: copy it over the response's .body.bin file instead.`;
      return;
    }
    error.value = '';
    const next = bytesBase64(new Uint8Array(await file.arrayBuffer()));
    change((r) => {
      // A body with no type of its own yet takes the file's (the browser's guess from its name).
      const headers = file.type && (type === 'application/octet-stream') ? withContentType(r.headers, file.type) : r.headers;
      return { ...r, headers, body: { kind: 'binary', text: next } };
    });
  };
  return (
    <div class="mock-binary-body" role="group" aria-label="Binary body">
      <p data-testid="binary-size">
        {bytes.length === 0 ? 'No bytes yet: replace them from a file.' : `${bytes.length.toLocaleString('en')} byte${bytes.length === 1 ? '' : 's'}${seen ? `, ${seen}` : ''}${size.value && seen?.endsWith(' image') ? `, ${size.value}` : ''}.`}{' '}
        Saved as the response's <code>.body.bin</code> file and sent as it is.
      </p>
      {url && seen?.endsWith(' image') && (
        <img
          class="mock-binary-preview"
          alt="The body as an image"
          src={url}
          onLoad={(e) => {
            const img = e.currentTarget as HTMLImageElement;
            size.value = `${img.naturalWidth} × ${img.naturalHeight} px`;
          }}
          onError={() => (size.value = 'which the browser cannot show')}
        />
      )}
      <div class="toolbar">
        <label class="button small file-button">
          Replace from file…
          <input type="file" class="visually-hidden" aria-label="Replace the body from a file" onChange={(e) => void replace(e.target as HTMLInputElement)} />
        </label>
        {url && (
          <a class="button small" href={url} download={`${response.name}.${extensionFor(type)}`}>
            Download
          </a>
        )}
      </div>
    </div>
  );
}

function withContentType(headers: MockHeader[], value: string): MockHeader[] {
  const at = headers.findIndex((h) => h.name.toLowerCase() === 'content-type');
  return at < 0 ? [...headers, { name: 'Content-Type', value }] : headers.map((h, i) => (i === at ? { ...h, value } : h));
}

function describeSource(source: ValueSource): string {
  if (source.from === 'body') return `body, ${source.language === 'jsonpath' ? 'JSONPath' : 'XPath'} ${source.expression}`;
  const where = { header: 'header', query: 'query parameter', path: 'path parameter' }[source.from];
  return `${where} ${source.name}`;
}

function TemplateValues({ values }: { values: Record<string, ValueSource> }) {
  return (
    <section class="template-values" aria-label="Template values">
      <p>
        <strong>Template.</strong> Each <code>{'{{name}}'}</code> in the body and in header values is replaced by a value read from the request.{' '}
        <span class="muted">Editing template values in the app is unavailable: edit the response file directly. Every other edit here keeps them.</span>
      </p>
      <table class="kv-table">
        <tbody>
          {Object.entries(values).map(([name, source]) => (
            <tr key={name}>
              <th>
                <code>{`{{${name}}}`}</code>
              </th>
              <td>{describeSource(source)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function withScenario(r: MockResponse, scenario: ScenarioSettings | undefined): MockResponse {
  const next = { ...r };
  if (scenario) next.scenario = scenario;
  else delete next.scenario;
  return next;
}

function ScenarioFields({ scenario, onChange }: { scenario: ScenarioSettings | undefined; onChange(s: ScenarioSettings | undefined): void }) {
  const set = (patch: Partial<Record<'name' | 'onlyInState' | 'thenMoveTo', string>>) => {
    const merged = { name: scenario?.name ?? '', onlyInState: scenario?.onlyInState ?? '', thenMoveTo: scenario?.thenMoveTo ?? '', ...patch };
    // No scenario name, no scenario: the state fields mean nothing without one.
    onChange(merged.name.trim() ? { name: merged.name, ...clean(merged) } : undefined);
  };
  return (
    <div class="scenario-fields">
      <label>
        <span>Scenario</span>
        <input aria-label="Scenario" placeholder="checkout" value={scenario?.name ?? ''} onInput={(e) => set({ name: (e.target as HTMLInputElement).value })} />
      </label>
      <label>
        <span>Only in state</span>
        <input aria-label="Only in state" placeholder="any state" disabled={!scenario} value={scenario?.onlyInState ?? ''} onInput={(e) => set({ onlyInState: (e.target as HTMLInputElement).value })} />
      </label>
      <label>
        <span>Then move to</span>
        <input aria-label="Then move to" placeholder="stay" disabled={!scenario} value={scenario?.thenMoveTo ?? ''} onInput={(e) => set({ thenMoveTo: (e.target as HTMLInputElement).value })} />
      </label>
      <p class="muted scenario-help">Every scenario starts at Started. A response with Only in state is a candidate only in that state; sending one with Then move to moves the scenario.</p>
    </div>
  );
}

function clean(s: { onlyInState: string; thenMoveTo: string }): Partial<ScenarioSettings> {
  return { ...(s.onlyInState ? { onlyInState: s.onlyInState } : {}), ...(s.thenMoveTo ? { thenMoveTo: s.thenMoveTo } : {}) };
}

type SourceKind = 'jsonpath' | 'xpath' | 'header' | 'query' | 'path';
const SOURCES: [SourceKind, string][] = [
  ['query', 'Query parameter'],
  ['header', 'Header'],
  ['path', 'Path parameter'],
  ['jsonpath', 'Body (JSONPath)'],
  ['xpath', 'Body (XPath)'],
];
const CHECKS: [MatchCheck, string][] = [
  ['equals', 'equals'],
  ['regex', 'matches regex'],
  ['present', 'is present'],
  ['absent', 'is absent'],
];

function sourceKind(source: ValueSource): SourceKind {
  return source.from === 'body' ? source.language : source.from;
}

function sourceText(source: ValueSource): string {
  return source.from === 'body' ? source.expression : source.name;
}

function makeSource(kind: SourceKind, text: string): ValueSource {
  if (kind === 'jsonpath' || kind === 'xpath') return { from: 'body', language: kind, expression: text };
  return { from: kind, name: text };
}

function MatchConditions({ conditions, onChange }: { conditions: MatchCondition[]; onChange(c: MatchCondition[]): void }) {
  const update = (i: number, next: MatchCondition) => onChange(conditions.map((c, j) => (j === i ? next : c)));
  return (
    <div class="match-conditions">
      {conditions.length === 0 && <p class="muted">No conditions: this response matches any request.</p>}
      {conditions.map((c, i) => {
        const kind = sourceKind(c.source);
        const needsValue = c.check === 'equals' || c.check === 'regex';
        return (
          <div class="match-row" key={i}>
            <select aria-label="Condition source" value={kind} onChange={(e) => update(i, { ...c, source: makeSource((e.target as HTMLSelectElement).value as SourceKind, sourceText(c.source)) })}>
              {SOURCES.map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </select>
            <input
              class="mono"
              aria-label="Condition name or expression"
              placeholder={kind === 'jsonpath' ? '$.order.kind' : kind === 'xpath' ? '/order/@kind' : 'name'}
              value={sourceText(c.source)}
              onInput={(e) => update(i, { ...c, source: makeSource(kind, (e.target as HTMLInputElement).value) })}
            />
            <select
              aria-label="Condition check"
              value={c.check}
              onChange={(e) => {
                const check = (e.target as HTMLSelectElement).value as MatchCheck;
                const next: MatchCondition = { source: c.source, check };
                if (check === 'equals' || check === 'regex') next.value = c.value ?? '';
                update(i, next);
              }}
            >
              {CHECKS.map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </select>
            {needsValue ? (
              <input
                class="mono"
                aria-label="Condition value"
                placeholder={c.check === 'regex' ? '^vip-' : 'value'}
                value={c.value ?? ''}
                onInput={(e) => update(i, { ...c, value: (e.target as HTMLInputElement).value })}
              />
            ) : (
              <span />
            )}
            <button class="icon-button" aria-label="Remove condition" onClick={() => onChange(conditions.filter((_, j) => j !== i))}>
              <CloseIcon />
            </button>
          </div>
        );
      })}
      <button class="button small" onClick={() => onChange([...conditions, { source: { from: 'query', name: '' }, check: 'equals', value: '' }])}>
        <PlusIcon /> Add condition
      </button>
    </div>
  );
}

function renameResponse(state: MockTabState, op: MockOperation, response: MockResponse, name: string): void {
  editOperation(state, op.id, (o) => ({
    ...o,
    // The default follows its response's new name.
    defaultResponse: o.defaultResponse === response.name ? name : o.defaultResponse,
    responses: o.responses.map((r) => (r.id === response.id ? { ...r, name } : r)),
  }));
}

function move(state: MockTabState, op: MockOperation, index: number, by: number): void {
  editOperation(state, op.id, (o) => {
    const responses = [...o.responses];
    const [item] = responses.splice(index, 1);
    responses.splice(index + by, 0, item!);
    return { ...o, responses };
  });
}

function removeResponse(state: MockTabState, op: MockOperation, response: MockResponse): void {
  if (!confirm(`Delete the response "${response.name}"? Its files are removed when you save.`)) return;
  editOperation(state, op.id, (o) => {
    const responses = o.responses.filter((r) => r.id !== response.id);
    return { ...o, responses, defaultResponse: o.defaultResponse === response.name ? (responses[0]?.name ?? o.defaultResponse) : o.defaultResponse };
  });
  state.responseId.value = op.responses.find((r) => r.id !== response.id)?.id ?? null;
}
