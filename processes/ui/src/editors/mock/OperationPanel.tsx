/** The operations of a mock (left) and the selected one: dispatch, its script, its responses (right). */
import type { DispatchMode, MockOperation, MockResponse } from '../../../../../protocol/model/mock.js';
import { MethodBadge, PlusIcon } from '../../components/Icons.js';
import { byPath, editOperation, newId, type MockTabState } from './mock-tabs.js';
import { ResponseEditor } from './ResponseEditor.js';
import { ScriptEditor, starterScript } from './ScriptEditor.js';

const DISPATCH: [DispatchMode, string, string][] = [
  ['in-order', 'In order', 'Sends the next response each time, and the first again after the last.'],
  ['random', 'At random', 'Sends any one of the responses.'],
  ['match', 'By match conditions', 'Sends the first response whose conditions all hold. A response without conditions matches anything, so keep it last.'],
  ['script', 'By script', 'dispatch.ts picks the response with respond(name), within one second. Without a pick, the default response is sent.'],
];

export function OperationList({ state }: { state: MockTabState }) {
  const mock = state.draft.value!;
  const findings = state.view.value?.findings ?? [];
  return (
    <nav class="mock-ops" aria-label="Operations">
      <h3>Operations</h3>
      <ul role="listbox" aria-label="Operations">
        {[...mock.operations].sort(byPath).map((op) => {
          const count = findings.filter((f) => f.operationId === op.id && f.severity === 'error').length;
          const selected = op.id === state.opId.value;
          return (
            <li
              key={op.id}
              role="option"
              aria-selected={selected}
              class={selected ? 'selected' : ''}
              onClick={() => {
                state.opId.value = op.id;
                state.responseId.value = op.responses[0]?.id ?? null;
              }}
            >
              <MethodBadge method={op.method} small />
              <span class="op-text">
                {/* A SOAP mock's operations share one endpoint: the WSDL operation names them. */}
                <span class="op-path mono">{mock.kind === 'soap' ? (op.operationId ?? op.name) : op.path}</span>
                <span class="op-name muted">
                  {op.name} · {op.responses.length} response{op.responses.length === 1 ? '' : 's'}
                </span>
              </span>
              {count > 0 && (
                <span class="finding-count" title={`${count} response${count === 1 ? '' : 's'} the contract does not allow`}>
                  {count}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function OperationPanel({ state }: { state: MockTabState }) {
  const mock = state.draft.value!;
  const op = mock.operations.find((o) => o.id === state.opId.value);
  if (!op) return <section class="mock-op pane-message">This mock has no operations.</section>;
  const change = (fn: (o: MockOperation) => MockOperation) => editOperation(state, op.id, fn);
  const selected = op.responses.find((r) => r.id === state.responseId.value);
  const mode = DISPATCH.find(([m]) => m === op.dispatch)!;
  return (
    <section class="mock-op" aria-label={`Operation ${op.name}`}>
      <header class="mock-op-header">
        <MethodBadge method={op.method} />
        <code class="mock-op-path">{mock.kind === 'soap' ? (op.operationId ?? op.name) : op.path}</code>
        {(mock.kind !== 'soap' || op.name !== op.operationId) && <span class="muted">{op.name}</span>}
        <span class="spacer" />
        <label class="inline-field">
          <span class="muted">Default response</span>
          <select aria-label="Default response" value={op.defaultResponse} onChange={(e) => change((o) => ({ ...o, defaultResponse: (e.target as HTMLSelectElement).value }))}>
            {op.responses.map((r) => (
              <option key={r.id} value={r.name}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
      </header>

      <div class="dispatch">
        <div class="segmented" role="radiogroup" aria-label="Dispatch">
          {DISPATCH.map(([m, label]) => (
            <button
              key={m}
              role="radio"
              aria-checked={op.dispatch === m}
              class={op.dispatch === m ? 'active' : ''}
              onClick={() => change((o) => ({ ...o, dispatch: m, ...(m === 'script' && o.script === undefined ? { script: starterScript(o) } : {}) }))}
            >
              {label}
            </button>
          ))}
        </div>
        <p class="muted dispatch-help">{mode[2]}</p>
      </div>

      {op.dispatch === 'script' && <ScriptEditor state={state} op={op} />}

      <div class="responses-strip" role="tablist" aria-label="Responses">
        {op.responses.map((r, i) => (
          <ResponseChip key={r.id} state={state} op={op} response={r} index={i} />
        ))}
        <button class="button small add-response" onClick={() => addResponse(state, op)}>
          <PlusIcon /> Add response
        </button>
      </div>
      {selected ? <ResponseEditor state={state} op={op} response={selected} /> : <p class="muted">This operation has no responses: add one.</p>}
    </section>
  );
}

function ResponseChip({ state, op, response, index }: { state: MockTabState; op: MockOperation; response: MockResponse; index: number }) {
  const selected = response.id === state.responseId.value;
  const findings = (state.view.value?.findings ?? []).filter((f) => f.operationId === op.id && f.responseId === response.id && f.severity === 'error');
  const statusClass = `s${String(response.status)[0]}`;
  return (
    <button role="tab" aria-selected={selected} class={`response-chip${selected ? ' active' : ''}`} onClick={() => (state.responseId.value = response.id)}>
      {op.dispatch === 'in-order' || op.dispatch === 'match' ? <span class="chip-order">{index + 1}</span> : null}
      <span class={`status ${statusClass}`}>{response.status}</span>
      <span>{response.name}</span>
      {response.name === op.defaultResponse && <span class="badge" title="Sent when dispatch picks nothing">default</span>}
      {Object.keys(response.values).length > 0 && <span class="badge" title="This response is a template">template</span>}
      {response.scenario && <span class="badge" title={`Scenario ${response.scenario.name}`}>{response.scenario.name}</span>}
      {findings.length > 0 && <span class="finding-count">{findings.length}</span>}
    </button>
  );
}

function addResponse(state: MockTabState, op: MockOperation): void {
  const taken = new Set(op.responses.map((r) => r.name.toLowerCase()));
  let name = 'Response';
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `Response ${n}`;
  const template = op.responses.find((r) => r.name === op.defaultResponse) ?? op.responses[0];
  const response: MockResponse = {
    id: newId('r'),
    name,
    status: template?.status ?? 200,
    delayMs: 0,
    headers: template ? template.headers.filter((h) => h.name.toLowerCase() === 'content-type') : [],
    body: template && Object.keys(template.values).length === 0 ? { ...template.body } : { kind: 'none', text: '' },
    values: {},
    match: [],
  };
  editOperation(state, op.id, (o) => ({ ...o, responses: [...o.responses, response] }));
  state.responseId.value = response.id;
}
