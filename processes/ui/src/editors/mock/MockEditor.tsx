/** The mock tab: address and Start/Stop, settings, operations with their responses, the log and the findings. */
import { REFUSAL_ANSWER, type ContractCheckMode, type Mock } from '../../../../../protocol/model/mock.js';
import { projectByRoot } from '../../state/app.js';
import { mod } from '../../state/commands.js';
import { toast } from '../../state/toasts.js';
import type { EditorProps } from '../registry.js';
import { edit, mockTabState, resetState, save, startOrStop, type MockTabState } from './mock-tabs.js';
import { OperationList, OperationPanel } from './OperationPanel.js';
import { BottomPanel } from './BottomPanel.js';
import { LoadProblemItems } from '../../components/LoadProblemItems.js';
import { IntegerInput } from '../../components/IntegerInput.js';
import './mock.css';

/** The Contract check choices; what a refusal answers depends on the mock's kind. */
function checkModes(kind: Mock['kind']): [ContractCheckMode, string][] {
  return [
    ['log', 'Answer anyway, log the problems'],
    ['refuse', `Refuse requests that break the contract (${REFUSAL_ANSWER[kind]})`],
    ['off', 'Do not check requests (only route)'],
  ];
}

export function MockEditor({ tab }: EditorProps) {
  const state = mockTabState(tab);

  if (state.loadError.value) return <div class="pane-message">{state.loadError.value}</div>;
  const view = state.view.value;
  if (!view) return <div class="pane-message">Loading…</div>;

  return (
    <div class="mock-editor">
      <MockHeader state={state} />
      <Notices state={state} />
      {state.draft.value ? (
        <>
          <Settings state={state} />
          <div class="mock-body">
            <OperationList state={state} />
            <OperationPanel state={state} />
          </div>
        </>
      ) : (
        <div class="mock-body mock-body-empty" />
      )}
      <BottomPanel state={state} />
    </div>
  );
}

function MockHeader({ state }: { state: MockTabState }) {
  const view = state.view.value!;
  const running = view.running;
  const busy = state.busy.value;
  const name = view.mock?.name ?? state.tab.title;
  const apiName = apiNameOf(state);
  return (
    <header class="mock-header">
      <div class="mock-title">
        <h2>{name}</h2>
        <span class={`mock-state ${running ? 'on' : 'off'}`} data-testid="mock-state">
          <span class="dot" />
          {running ? 'Running' : 'Stopped'}
        </span>
        {apiName && (
          <span class="muted mock-api" title={view.mock?.kind === 'soap' ? `SOAP binding ${view.mock.binding ?? ''}` : undefined}>
            mocks {apiName}
            {view.mock?.kind === 'soap' ? ' · SOAP' : ''}
          </span>
        )}
      </div>
      <div class="mock-address">
        {running ? (
          <>
            <code class="mock-url" data-testid="mock-url">
              {running.url}
            </code>
            <button class="button small" onClick={() => void copy(running.url)}>
              Copy
            </button>
            {view.mock?.kind === 'soap' && (
              <a class="button small" data-testid="mock-wsdl" href={wsdlUrl(running.url)} target="_blank" rel="noopener noreferrer" title="The WSDL, with every address rewritten to this mock">
                WSDL
              </a>
            )}
          </>
        ) : (
          <span class="muted">{view.blocked ?? 'Not serving. Start it to get its address.'}</span>
        )}
      </div>
      <span class="spacer" />
      <button class="button" disabled={!running || !!busy} title="Every scenario back to Started, every In order turn back to the first response" onClick={() => void resetState(state)}>
        Reset state
      </button>
      <button class="button" disabled={!state.dirty.value || !!busy} title={`${mod}+S`} onClick={() => void save(state)}>
        {busy === 'save' ? 'Saving…' : 'Save'}
      </button>
      <button
        class={`button ${running ? 'stop-button' : 'primary'}`}
        disabled={!!busy || (!running && (!view.mock || !!view.blocked))}
        onClick={() => void startOrStop(state)}
      >
        {busy === 'start' ? 'Starting…' : busy === 'stop' ? 'Stopping…' : running ? 'Stop' : 'Start'}
      </button>
    </header>
  );
}

/** `<mock url>?wsdl`, with the `/` a mock at the root needs before the query. */
function wsdlUrl(url: string): string {
  return /^https?:\/\/[^/]+$/.test(url) ? `${url}/?wsdl` : `${url}?wsdl`;
}

function apiNameOf(state: MockTabState): string | undefined {
  const api = state.view.value?.mock?.api;
  const item = projectByRoot(state.tab.project)?.items.find((i) => i.kind === 'api' && i.id === api);
  return item?.name;
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast('info', 'Mock URL copied.');
  } catch {
    toast('warning', `Copy it by hand: ${text}`);
  }
}

function Notices({ state }: { state: MockTabState }) {
  const view = state.view.value!;
  return (
    <>
      {view.problems.length > 0 && (
        <div class="mock-notice err" role="alert">
          <strong>These files do not load, so the mock cannot be edited or started until they are fixed on disk:</strong>
          <ul>
            <LoadProblemItems problems={view.problems} />
          </ul>
        </div>
      )}
      {view.warnings.map((w, i) => (
        <div key={i} class="mock-notice warn">
          {w}
        </div>
      ))}
    </>
  );
}

function Settings({ state }: { state: MockTabState }) {
  const mock = state.draft.value!;
  const running = state.view.value?.running;
  return (
    <section class="mock-settings" aria-label="Mock settings">
      <label>
        <span>Port</span>
        <IntegerInput label="Port" value={mock.port} min={0} max={65535} onChange={(port) => edit(state, (m) => ({ ...m, port }))} />
        {mock.port === 0 && <small class="muted">{running ? `any free port, now ${running.port}` : 'any free port, kept while you edit'}</small>}
      </label>
      <label>
        <span>Path</span>
        <input
          class="mono"
          aria-label="Path"
          value={mock.path}
          onInput={(e) => {
            const path = (e.target as HTMLInputElement).value;
            edit(state, (m) => ({ ...m, path: path.startsWith('/') ? path : `/${path}` }));
          }}
        />
      </label>
      <label>
        <span>Contract check</span>
        <select aria-label="Contract check" value={mock.contractCheck} onChange={(e) => edit(state, (m) => ({ ...m, contractCheck: (e.target as HTMLSelectElement).value as ContractCheckMode }))}>
          {checkModes(mock.kind).map(([mode, label]) => (
            <option key={mode} value={mode}>
              {label}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}
