/**
 * A WebSocket request's editor (docs/websocket.md): its URL with Connect / Disconnect, then
 * Messages (the composer and the saved messages), Headers, Auth and Settings (subprotocols, the
 * handshake's timeout, cookies, what `parley run` waits for), and the session below.
 */
import type { WebSocketRequest } from '../../../../../protocol/model/websocket.js';
import { mod } from '../../state/commands.js';
import { RowsTable } from '../../components/RowsTable.js';
import { AuthEditor } from '../../components/AuthEditor.js';
import { IntegerInput } from '../../components/IntegerInput.js';
import { VarField } from '../../code/VarField.js';
import { leftOutFields } from '../../state/secret-storage.js';
import { saveTab } from '../../state/draft-actions.js';
import type { EditorProps } from '../../editors/registry.js';
import { Composer } from './Composer.js';
import { AssertionsEditor } from '../../editors/request/AssertionsEditor.js';
import { SocketResponse } from './SocketResponse.js';
import { connect, disconnect, editSocket, socketTabState, type SocketSection, type SocketTabState } from './socket-tabs.js';
import './websocket.css';

const SECTIONS: [SocketSection, string][] = [
  ['messages', 'Messages'],
  ['headers', 'Headers'],
  ['auth', 'Auth'],
  ['assertions', 'Assertions'],
  ['settings', 'Settings'],
];

export function WebSocketEditor({ tab }: EditorProps) {
  const state = socketTabState(tab);
  if (state.loadError.value) return <div class="pane-message">{state.loadError.value}</div>;
  const draft = state.draft.value;
  if (!draft) return <div class="pane-message">Loading…</div>;
  const change = (fn: (r: WebSocketRequest) => WebSocketRequest) => editSocket(state, fn);
  return (
    <div class="request-editor socket-editor">
      <div class="request-top">
        <div class="breadcrumb">
          <span class="crumb">{draft.name}</span>
          <span class="muted">WebSocket</span>
        </div>
        <UrlBar state={state} draft={draft} />
        {draft.description && (
          <p class="request-description muted" aria-label="Description" title={draft.description}>
            {draft.description}
          </p>
        )}
        <nav class="subtabs" role="tablist" aria-label="Request sections">
          {SECTIONS.map(([id, label]) => (
            <button key={id} role="tab" aria-selected={state.section.value === id} class={state.section.value === id ? 'active' : ''} onClick={() => (state.section.value = id)}>
              {label}
              {id === 'messages' && draft.messages.length > 0 && <span class="count">{draft.messages.length}</span>}
              {id === 'headers' && draft.headers.length > 0 && <span class="count">{draft.headers.length}</span>}
              {id === 'assertions' && (draft.assertions?.length ?? 0) > 0 && <span class="count">{draft.assertions!.length}</span>}
            </button>
          ))}
        </nav>
        <div class="section-body">
          {state.section.value === 'messages' && <Composer state={state} draft={draft} />}
          {state.section.value === 'headers' && <RowsTable label="Header" rows={draft.headers} onChange={(headers) => change((r) => ({ ...r, headers }))} />}
          {state.section.value === 'auth' && (
            <AuthEditor
              auth={draft.auth}
              project={state.tab.project}
              allowInherit
              inherited={state.api.value?.auth}
              leftOut={leftOutFields.value.get(state.tab.id)}
              onChange={(auth) => change((r) => ({ ...r, auth }))}
            />
          )}
          {state.section.value === 'assertions' && (
            <>
              <p class="muted">
                Checked by <code>parley run</code> once its wait is over: the status (101) and the time, and JSONPath over the messages received as one JSON array (<code>$[0].data</code>,{' '}
                <code>$[0].json.id</code>, <code>$[*].data</code>).
              </p>
              <AssertionsEditor assertions={draft.assertions ?? []} graphql={false} onChange={(assertions) => change((r) => ({ ...r, assertions }))} />
            </>
          )}
          {state.section.value === 'settings' && <Settings draft={draft} change={change} />}
        </div>
      </div>
      <SocketResponse state={state} />
    </div>
  );
}

function UrlBar({ state, draft }: { state: SocketTabState; draft: WebSocketRequest }) {
  const live = state.live.value;
  const open = state.sending.value;
  return (
    <div class="urlbar">
      <span class="method-select socket-badge" aria-hidden="true">
        WS
      </span>
      <VarField
        class="url-input mono"
        label="URL"
        project={state.tab.project}
        placeholder="wss://example.com/socket, or a path under the API's base URL"
        title="ws:// or wss:// (an http(s) base URL is read as ws(s)). ${name} is a variable."
        value={draft.url}
        onChange={(url) => editSocket(state, (r) => ({ ...r, url }))}
      />
      {open ? (
        <button class="button send stop" onClick={() => disconnect(state)} disabled={live?.stopping.value === true}>
          {live ? 'Disconnect' : 'Cancel'}
        </button>
      ) : (
        <button class="button primary send" title={`${mod}+Enter`} onClick={() => void connect(state)}>
          Connect
        </button>
      )}
      <button class="button" disabled={!state.doc.dirty.value} title={`${mod}+S`} onClick={() => void saveTab(state.tab.id)}>
        Save
      </button>
    </div>
  );
}

function Settings({ draft, change }: { draft: WebSocketRequest; change(fn: (r: WebSocketRequest) => WebSocketRequest): void }) {
  const s = draft.settings;
  return (
    <div class="form-grid settings-grid">
      <label>
        <span>Subprotocols, in order of preference (comma-separated)</span>
        <input
          class="mono"
          aria-label="Subprotocols"
          placeholder="graphql-transport-ws, chat.v2"
          value={draft.subprotocols.join(', ')}
          onChange={(e) => change((r) => ({ ...r, subprotocols: (e.target as HTMLInputElement).value.split(',').map((p) => p.trim()).filter((p) => p !== '') }))}
        />
      </label>
      <label>
        <span>Timeout until the handshake's answer (ms, 0 waits forever)</span>
        <IntegerInput label="Timeout" value={s.timeoutMs} min={0} step={1000} onChange={(timeoutMs) => change((r) => ({ ...r, settings: { ...r.settings, timeoutMs } }))} />
      </label>
      <label class="checkbox">
        <input type="checkbox" aria-label="Send cookies" checked={s.sendCookies} onChange={(e) => change((r) => ({ ...r, settings: { ...r.settings, sendCookies: (e.target as HTMLInputElement).checked } }))} />
        <span>Send cookies from the workspace's jar with the handshake. Cookies its answer sets go into the jar either way.</span>
      </label>
      <h4>parley run</h4>
      <label>
        <span>After sending the saved messages, wait for this many messages received (0: wait the whole time)</span>
        <IntegerInput label="Messages to wait for" value={draft.run.messages} min={0} onChange={(messages) => change((r) => ({ ...r, run: { ...r.run, messages } }))} />
      </label>
      <label>
        <span>…or at most this long (ms)</span>
        <IntegerInput label="Longest wait" value={draft.run.waitMs} min={0} step={1000} onChange={(waitMs) => change((r) => ({ ...r, run: { ...r.run, waitMs } }))} />
      </label>
    </div>
  );
}
