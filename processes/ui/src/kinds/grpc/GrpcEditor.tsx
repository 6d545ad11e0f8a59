/**
 * A gRPC request's editor (docs/grpc.md): the method picker (services > methods, each with its
 * call kind) and the target with Send / Cancel, then Message (the request message checked and
 * completed against the input type, Example, Format; a stream's further messages and, while it
 * runs, the composer with Half-close), Metadata, Auth, TLS, Assertions and Settings (deadline),
 * and the call's response below.
 */
import { useEffect, useMemo } from 'preact/hooks';
import type { GrpcRequest } from '../../../../../protocol/model/grpc.js';
import { mod } from '../../state/commands.js';
import { RowsTable } from '../../components/RowsTable.js';
import { AuthEditor } from '../../components/AuthEditor.js';
import { IntegerInput } from '../../components/IntegerInput.js';
import { chooseBodyFile } from '../../components/FileChooser.js';
import { CloseIcon } from '../../components/Icons.js';
import { CodeEditor } from '../../code/CodeEditor.js';
import { VarField, useVariableSupport } from '../../code/VarField.js';
import { leftOutFields } from '../../state/secret-storage.js';
import { saveTab } from '../../state/draft-actions.js';
import { formatBody } from '../../editors/request/format.js';
import { parseMarks } from '../../editors/request/BodyEditor.js';
import { AssertionsEditor } from '../../editors/request/AssertionsEditor.js';
import type { EditorProps } from '../../editors/registry.js';
import { GrpcResponse } from './GrpcResponse.js';
import { messageCompletion, schemaMarks } from './message-editor.js';
import { cancelCall, chosenMethod, describe, editGrpc, halfClose, sendCall, sendOnStream, grpcTabState, type GrpcSection, type GrpcTabState } from './grpc-tabs.js';
import './grpc.css';

const SECTIONS: [GrpcSection, string][] = [
  ['message', 'Message'],
  ['metadata', 'Metadata'],
  ['auth', 'Auth'],
  ['tls', 'TLS'],
  ['assertions', 'Assertions'],
  ['settings', 'Settings'],
];

const KIND_LABEL = { unary: 'unary', 'server-stream': 'server stream', 'client-stream': 'client stream', bidi: 'bidirectional' } as const;

export function GrpcEditor({ tab }: EditorProps) {
  const state = grpcTabState(tab);
  const draft = state.draft.value;
  useEffect(() => {
    if (draft) void describe(state, draft);
  }, [draft?.service, draft?.method, state.api.value]);
  if (state.loadError.value) return <div class="pane-message">{state.loadError.value}</div>;
  if (!draft) return <div class="pane-message">Loading…</div>;
  const change = (fn: (r: GrpcRequest) => GrpcRequest) => editGrpc(state, fn);
  return (
    <div class="request-editor grpc-editor">
      <div class="request-top">
        <div class="breadcrumb">
          <span class="crumb">{draft.name}</span>
          <span class="muted">gRPC</span>
          {draft.orphaned && <span class="chip warn">not in the definition any more</span>}
        </div>
        <CallBar state={state} draft={draft} />
        <nav class="subtabs" role="tablist" aria-label="Request sections">
          {SECTIONS.map(([id, label]) => (
            <button key={id} role="tab" aria-selected={state.section.value === id} class={state.section.value === id ? 'active' : ''} onClick={() => (state.section.value = id)}>
              {label}
              {id === 'metadata' && draft.metadata.length > 0 && <span class="count">{draft.metadata.length}</span>}
              {id === 'assertions' && (draft.assertions?.length ?? 0) > 0 && <span class="count">{draft.assertions!.length}</span>}
            </button>
          ))}
        </nav>
        <div class="section-body">
          {state.section.value === 'message' && <MessageSection state={state} draft={draft} />}
          {state.section.value === 'metadata' && <RowsTable label="Metadata" project={state.tab.project} rows={draft.metadata} namePlaceholder="key" onChange={(metadata) => change((r) => ({ ...r, metadata }))} />}
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
          {state.section.value === 'tls' && <TlsSection state={state} draft={draft} />}
          {state.section.value === 'assertions' && (
            <>
              <p class="muted">
                Checked after each call and by <code>parley run</code>: the status by name (<code>status equals OK</code>) or number, the time, and JSONPath over the response message (
                <code>$.id</code>); for a stream, over the messages received as one JSON array (<code>$[0].json.id</code>).
              </p>
              <AssertionsEditor assertions={draft.assertions ?? []} graphql={false} onChange={(assertions) => change((r) => ({ ...r, assertions }))} />
            </>
          )}
          {state.section.value === 'settings' && (
            <div class="form-grid settings-grid">
              <label>
                <span>Deadline (ms, 0: none; a run's --timeout then sets it)</span>
                <IntegerInput label="Deadline" value={draft.deadlineMs} min={0} max={86_400_000} step={1000} onChange={(deadlineMs) => change((r) => ({ ...r, deadlineMs }))} />
              </label>
            </div>
          )}
        </div>
      </div>
      <GrpcResponse state={state} />
    </div>
  );
}

function CallBar({ state, draft }: { state: GrpcTabState; draft: GrpcRequest }) {
  const methods = state.methods.value ?? [];
  const services = [...new Set(methods.map((m) => m.service))];
  const value = draft.service && draft.method ? `${draft.service}/${draft.method}` : '';
  const known = methods.some((m) => `${m.service}/${m.method}` === value);
  const running = state.running.value;
  return (
    <div class="urlbar grpc-bar">
      <span class="method-select grpc-badge" aria-hidden="true">
        gRPC
      </span>
      <select
        class="grpc-method"
        aria-label="Method"
        value={value}
        onChange={(e) => {
          const [service, method] = splitMethod((e.target as HTMLSelectElement).value);
          editGrpc(state, (r) => ({ ...r, service, method }));
        }}
      >
        <option value="" disabled>
          {state.methods.value === null ? 'Reading the definition…' : 'Choose a method'}
        </option>
        {value !== '' && !known && <option value={value}>{value} (not in the definition)</option>}
        {services.map((service) => (
          <optgroup key={service} label={service}>
            {methods
              .filter((m) => m.service === service)
              .map((m) => (
                <option key={m.method} value={`${m.service}/${m.method}`}>
                  {m.method} · {KIND_LABEL[m.kind]}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
      <VarField
        class="url-input mono"
        label="Target"
        project={state.tab.project}
        placeholder={state.api.value?.baseUrl ? `${state.api.value.baseUrl} (the API's)` : 'grpc://host:port or grpcs://host:port'}
        title="grpc://host:port (plaintext) or grpcs://host:port (TLS); empty: the API's base URL. ${name} is a variable."
        value={draft.url}
        onChange={(url) => editGrpc(state, (r) => ({ ...r, url }))}
      />
      {running ? (
        <button class="button send stop" onClick={() => cancelCall(state)} disabled={state.live.value?.stopping.value === true}>
          Cancel
        </button>
      ) : (
        <button class="button primary send" title={`${mod}+Enter`} onClick={() => void sendCall(state)}>
          Send
        </button>
      )}
      <button class="button" disabled={!state.doc.dirty.value} title={`${mod}+S`} onClick={() => void saveTab(state.tab.id)}>
        Save
      </button>
    </div>
  );
}

function splitMethod(value: string): [string, string] {
  const slash = value.lastIndexOf('/');
  return [value.slice(0, slash), value.slice(slash + 1)];
}

function MessageSection({ state, draft }: { state: GrpcTabState; draft: GrpcRequest }) {
  const method = chosenMethod(state, draft);
  const key = `${draft.service}/${draft.method}`;
  const input = state.input.value?.key === key ? state.input.value : null;
  const schema = input?.schema;
  const sources = useMemo(() => [messageCompletion(() => (state.input.peek()?.key === `${state.draft.peek()?.service}/${state.draft.peek()?.method}` ? state.input.peek()?.schema : undefined))], [state]);
  const variables = useVariableSupport(state.tab.project, sources);
  const streamsRequests = method?.kind === 'client-stream' || method?.kind === 'bidi';
  const problem = state.composer.problem;
  const format = (text: string, set: (t: string) => void) => {
    const result = formatBody('json', text);
    if (result.ok) set(result.text);
    else problem.value = result.message;
  };
  const check = (text: string) => (text.trim() === '' ? [] : [...parseMarks('json', text.replace(/\$\{[^{}\n]*\}/g, (m) => '1'.padEnd(m.length, '0'))), ...(text.includes('${') ? [] : schemaMarks(schema, text))]);
  const open = state.live.value?.state.value === 'open' && state.running.value;
  if (draft.service === '' || draft.method === '') return <p class="muted">Choose a method above: its input type's fields are then checked and completed here, and Example writes one.</p>;
  return (
    <div class="grpc-message">
      <div class="toolbar">
        <span class="muted" data-testid="input-type">
          {method ? `${method.requestType} → ${method.responseType}` : ''}
        </span>
        <span class="spacer" />
        <button class="button small" disabled={!input} title="Replace the message with one made from the input type" onClick={() => input && editGrpc(state, (r) => ({ ...r, message: input.example }))}>
          Example
        </button>
        <button class="button small" onClick={() => format(draft.message, (message) => editGrpc(state, (r) => ({ ...r, message })))}>
          Format
        </button>
      </div>
      <CodeEditor class="grpc-message-text" label="Message" language="json" value={draft.message} extensions={variables} check={check} onChange={(message) => editGrpc(state, (r) => ({ ...r, message }))} />
      {streamsRequests && (
        <>
          <h4>Further messages, sent in order after it</h4>
          {draft.messages.length === 0 ? (
            <p class="muted">None. Add one to send it with the first when the call starts (and in a run).</p>
          ) : (
            <ol class="saved-messages" aria-label="Further messages">
              {draft.messages.map((saved, index) => (
                <li key={index}>
                  <strong>{saved.name}</strong>
                  <code class="saved-preview">{saved.text.replace(/\s+/g, ' ').slice(0, 120)}</code>
                  <span class="spacer" />
                  <button class="button small" disabled={!open} aria-label={`Send ${saved.name}`} onClick={() => void sendOnStream(state, saved.text)}>
                    Send
                  </button>
                  <button class="icon-button" aria-label={`Remove ${saved.name}`} onClick={() => editGrpc(state, (r) => ({ ...r, messages: r.messages.filter((_, i) => i !== index) }))}>
                    <CloseIcon />
                  </button>
                </li>
              ))}
            </ol>
          )}
          <h4>Composer</h4>
          <CodeEditor class="grpc-composer" label="Stream message" language="json" value={state.composer.text.value} extensions={variables} check={check} onChange={(text) => (state.composer.text.value = text)} />
          <div class="toolbar">
            <button class="button small" onClick={() => editGrpc(state, (r) => ({ ...r, messages: [...r.messages, { name: `Message ${r.messages.length + 2}`, text: state.composer.text.value }] }))}>
              Add to further messages
            </button>
            <span class="spacer" />
            <button class="button primary small" disabled={!open || state.composer.sending.value} title={open ? 'Send on the open stream' : 'Send the call first'} onClick={() => void sendOnStream(state, state.composer.text.value)}>
              Send message
            </button>
            <button class="button small" disabled={!open} title="Tell the server no more messages come" onClick={() => void halfClose(state)}>
              Half-close
            </button>
          </div>
        </>
      )}
      {problem.value && (
        <p class="form-error" role="alert">
          {problem.value}
        </p>
      )}
    </div>
  );
}

function TlsSection({ state, draft }: { state: GrpcTabState; draft: GrpcRequest }) {
  const tls = draft.tls;
  const set = (patch: Partial<GrpcRequest['tls']>) => editGrpc(state, (r) => ({ ...r, tls: { ...r.tls, ...patch } }));
  const file = (label: string, field: 'caFile' | 'certFile' | 'keyFile', placeholder: string) => (
    <label>
      <span>{label}</span>
      <div class="grpc-file">
        <input class="mono" aria-label={label} placeholder={placeholder} value={tls[field]} onChange={(e) => set({ [field]: (e.target as HTMLInputElement).value.trim() })} />
        <button
          class="button small"
          onClick={() =>
            void chooseBodyFile(state.tab.project).then((path) => {
              if (path) set({ [field]: path });
            })
          }
        >
          Choose…
        </button>
      </div>
    </label>
  );
  return (
    <div class="form-grid settings-grid">
      <p class="muted">For a grpcs:// target. Files are read from the project folder (a file chosen elsewhere is copied in).</p>
      {file('CA certificate (PEM)', 'caFile', 'certs/ca.pem')}
      {file('Client certificate (PEM)', 'certFile', 'certs/client.pem')}
      {file('Client key (PEM)', 'keyFile', 'certs/client.key')}
      <label class="checkbox">
        <input type="checkbox" aria-label="Insecure" checked={tls.insecure} onChange={(e) => set({ insecure: (e.target as HTMLInputElement).checked })} />
        <span>Accept a server certificate that does not verify (self-signed, another name). For testing only.</span>
      </label>
    </div>
  );
}
