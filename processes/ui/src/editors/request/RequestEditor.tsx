/** The request editor: breadcrumb, method and URL, Params / Body / Headers / Auth / Assertions / Captures / Settings, and the response below. */
import { useSignal } from '@preact/signals';
import type { Request } from '../../../../../protocol/model/request.js';
import { queryRows, splitUrlText, syncPathParams, withQueryRows } from '../../../../../protocol/request-url.js';
import type { Row } from '../../../../../protocol/model/common.js';
import { projectByRoot } from '../../state/app.js';
import { mod } from '../../state/commands.js';
import { METHODS } from '../../state/actions.js';
import { edit, requestTabState, save, send, stop, type RequestTabState, type Section } from '../../state/request-tabs.js';
import { RowsTable } from '../../components/RowsTable.js';
import { offPlaces, shownRows, splitShown } from './query-rows.js';
import { AuthEditor } from '../../components/AuthEditor.js';
import { InheritedRows } from '../../components/InheritedRows.js';
import { leftOutFields } from '../../state/secret-storage.js';
import type { EditorProps } from '../registry.js';
import { BodyEditor } from './BodyEditor.js';
import { AssertionsEditor } from './AssertionsEditor.js';
import { CapturesEditor } from './CapturesEditor.js';
import { ResponsePane } from '../response/ResponsePane.js';
import { IntegerInput } from '../../components/IntegerInput.js';
import { RequestCurlButton } from '../../history/RequestCurlButton.js';
import { Splitter } from '../../components/Splitter.js';
import { responseBeside, toggleResponseBeside } from '../../state/layout.js';
import { storedSize } from '../../components/Splitter.js';
import { useSize } from '../../components/use-size.js';
import { sendProblems } from './send-problems.js';
import type { InheritedSettings } from '../../../../../protocol/model/project.js';
import { inheritedHeadersFor } from '../../../../../protocol/inheritance.js';
import { requestScope, type EditorScope } from '../../state/variable-scope.js';
import { FieldScope, VarField } from '../../code/VarField.js';
import type { ReadonlySignal } from '@preact/signals';
import { SoapBar } from '../soap/SoapBar.js';
import { GraphqlBodyEditor } from '../../kinds/http/graphql/GraphqlBodyEditor.js';

const SECTIONS: [Section, string][] = [
  ['params', 'Params'],
  ['body', 'Body'],
  ['headers', 'Headers'],
  ['auth', 'Auth'],
  ['assertions', 'Assertions'],
  ['captures', 'Captures'],
  ['settings', 'Settings'],
];

/** Extra UI other features hang on the body editor (the schema Form switch). */
export const bodyExtras: ((state: RequestTabState) => preact.ComponentChildren)[] = [];

const scopes = new WeakMap<RequestTabState, ReadonlySignal<EditorScope>>();

/** The scope of the tab's request: its project's, with the variables its folders hand down ("from folder Orders"). */
function scopeOfTab(state: RequestTabState): ReadonlySignal<EditorScope> {
  let scope = scopes.get(state);
  if (!scope) scopes.set(state, (scope = requestScope(state.tab.project, state.inherited)));
  return scope;
}

export function RequestEditor({ tab }: EditorProps) {
  const state = requestTabState(tab);

  const [host, size] = useSize();
  if (state.loadError.value) return <div class="pane-message">{state.loadError.value}</div>;
  const draft = state.draft.value;
  if (!draft) return <div class="pane-message">Loading…</div>;
  const change = (fn: (r: Request) => Request) => edit(state, fn);
  const split = splitOf(size.value, responseBeside.value);

  return (
    <FieldScope.Provider value={scopeOfTab(state)}>
      <div ref={host} class={`request-editor${split.beside ? ' beside' : ''}`} style={split.beside ? { gridTemplateColumns: `${split.request}px auto minmax(0, 1fr)` } : { gridTemplateRows: `${split.request}px auto minmax(0, 1fr)` }}>
        <div class="request-top">
          <Breadcrumb state={state} draft={draft} />
          <UrlBar state={state} draft={draft} />
          <FragmentNote url={draft.url} />
          {draft.soap && <SoapBar state={state} draft={draft} />}
          {draft.description && (
            <p class="request-description muted" aria-label="Description" title={draft.description}>
              {draft.description}
            </p>
          )}
          <SendProblems state={state} draft={draft} />
          <nav class="subtabs" role="tablist" aria-label="Request sections">
            {SECTIONS.map(([id, label]) => (
              <button key={id} role="tab" aria-selected={state.section.value === id} class={state.section.value === id ? 'active' : ''} onClick={() => (state.section.value = id)}>
                {label}
                <SectionCount draft={draft} section={id} inherited={state.inherited.value} />
              </button>
            ))}
            <span class="spacer" />
            <button
              class="icon-button layout-toggle"
              title={split.beside ? 'Show the response below the request' : 'Show the response beside the request'}
              aria-pressed={split.beside}
              onClick={toggleResponseBeside}
            >
              {split.beside ? 'Response below' : 'Response beside'}
            </button>
          </nav>
          <div class="section-body">
            {state.section.value === 'params' && (
              <>
                {draft.pathParams.length > 0 && (
                  <>
                    <h4>Path parameters</h4>
                    <RowsTable
                      label="Path parameter"
                      project={state.tab.project}
                      fixedNames
                      noToggle
                      rows={draft.pathParams.map((p) => ({ ...p, enabled: true }))}
                      onChange={(rows) => change((r) => ({ ...r, pathParams: rows.map(({ name, value }) => ({ name, value })) }))}
                    />
                  </>
                )}
                <h4>Query parameters</h4>
                <QueryRows state={state} draft={draft} change={change} />
              </>
            )}
            {state.section.value === 'body' && (
              <BodyEditor
                body={draft.body}
                project={state.tab.project}
                onChange={(body) => change((r) => ({ ...r, body }))}
                extra={bodyExtras.map((render) => render(state))}
                kinds={{ graphql: () => <GraphqlBodyEditor state={state} /> }}
              />
            )}
            {state.section.value === 'headers' && (
              <>
                <RowsTable label="Header" project={state.tab.project} rows={draft.headers} onChange={(headers) => change((r) => ({ ...r, headers }))} />
                <InheritedRows
                  label="Header"
                  rows={state.inherited.value?.headers ?? []}
                  replacedBy={new Set(draft.headers.filter((h) => h.enabled && h.name.trim()).map((h) => h.name.trim().toLowerCase()))}
                  nameKey={(name) => name.trim().toLowerCase()}
                />
              </>
            )}
            {state.section.value === 'auth' && (
              <AuthEditor
                auth={draft.auth}
                project={state.tab.project}
                allowInherit
                inherited={state.inherited.value?.auth.auth}
                inheritedFrom={state.inherited.value?.auth.from}
                leftOut={leftOutFields.value.get(state.tab.id)}
                onChange={(auth) => change((r) => ({ ...r, auth }))}
              />
            )}
            {state.section.value === 'assertions' && <AssertionsEditor assertions={draft.assertions ?? []} graphql={draft.body.kind === 'graphql'} onChange={(assertions) => change((r) => ({ ...r, assertions }))} />}
            {state.section.value === 'captures' && <CapturesEditor captures={draft.captures ?? []} onChange={(captures) => change((r) => ({ ...r, captures }))} />}
            {state.section.value === 'settings' && <SettingsSection draft={draft} change={change} />}
          </div>
        </div>
        <Splitter
          pane={split.beside ? 'requestWidthShare' : 'requestShare'}
          label="Resize the request and response panes"
          orientation={split.beside ? 'vertical' : 'horizontal'}
          total={split.total}
          fallback={split.fallback}
          min={split.min}
          max={split.max}
        />
        <ResponsePane state={state} />
      </div>
    </FieldScope.Provider>
  );
}

/**
 * The request's part of the editor, in px, from its share (thousandths) of the editor's height,
 * or of its width with the response beside: the split follows the window, and each side keeps room
 * for what it must show (the URL bar and tabs; the status line and a few body lines).
 */
function splitOf(size: { width: number; height: number }, beside: boolean) {
  const total = Math.max(1, beside ? size.width : size.height);
  const [min, keep, share] = beside ? [360, 320, 500] : [150, 220, 400];
  const max = Math.max(min, total - keep);
  const fallback = Math.round((total * share) / 1000);
  const request = Math.max(min, Math.min(max, storedSize(beside ? 'requestWidthShare' : 'requestShare', fallback, total)));
  return { beside, total, min, max, fallback, request };
}

function SendProblems({ state, draft }: { state: RequestTabState; draft: Request }) {
  const problems = sendProblems(draft, state.api.value, scopeOfTab(state).value, state.inherited.value);
  if (problems.length === 0) return null;
  return (
    <ul class="send-problems" aria-label="Problems to fix before Send">
      {problems.map((p) => (
        <li key={p.text}>
          <span>{p.text}</span>
          {p.section && state.section.value !== p.section && (
            <button class="link-button inline" onClick={() => (state.section.value = p.section!)}>
              {p.section === 'auth' ? 'Auth' : 'Params'}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function SectionCount({ draft, section, inherited }: { draft: Request; section: Section; inherited: InheritedSettings | null }) {
  const n =
    section === 'params'
      ? queryRows(draft.url).filter(carries).length + draft.query.filter(carries).length + draft.pathParams.length
      : section === 'headers'
        ? draft.headers.filter((h) => h.enabled).length + inheritedHeadersFor(draft.headers, inherited?.headers ?? []).length
        : section === 'assertions'
          ? (draft.assertions ?? []).filter((a) => a.enabled).length
          : section === 'captures'
            ? (draft.captures ?? []).filter((c) => c.enabled).length
            : 0;
  if (section === 'body' && draft.body.kind !== 'none') return <span class="count-dot" />;
  return n > 0 ? <span class="count">{n}</span> : null;
}

function Breadcrumb({ state, draft }: { state: RequestTabState; draft: Request }) {
  const editing = useSignal(false);
  const tree = projectByRoot(state.tab.project);
  const trail: string[] = [];
  if (tree) {
    const byId = new Map(tree.items.map((i) => [i.id, i]));
    let parent = (byId.get(draft.id) as { parent?: string } | undefined)?.parent;
    while (parent) {
      const item = byId.get(parent);
      if (!item) break;
      trail.unshift(item.name);
      parent = (item as { parent?: string }).parent;
    }
    trail.unshift(tree.name);
  }
  return (
    <div class="breadcrumb">
      {trail.map((part, i) => (
        <span key={i} class="crumb">
          {part}
          <span class="crumb-sep">/</span>
        </span>
      ))}
      {editing.value ? (
        <input
          class="crumb-input"
          aria-label="Request name"
          value={draft.name}
          ref={(el) => el?.focus()}
          onInput={(e) => edit(state, (r) => ({ ...r, name: (e.target as HTMLInputElement).value }))}
          onBlur={() => (editing.value = false)}
          onKeyDown={(e) => (e.key === 'Enter' || e.key === 'Escape') && (editing.value = false)}
        />
      ) : (
        <button class="crumb-name" title="Rename" onClick={() => (editing.value = true)}>
          {draft.name}
        </button>
      )}
      {draft.operation && (
        <span class="badge" title="Linked to this operation of the imported definition">
          {draft.operation.method.toUpperCase()} {draft.operation.path}
        </span>
      )}
      {draft.orphaned && <span class="badge badge-warn">orphaned</span>}
    </div>
  );
}

const carries = (row: Row) => row.enabled && (row.name !== '' || row.value !== '');

/**
 * The query rows: the URL's pairs (read from the text, in its order) and the rows switched off,
 * which are kept out of the URL until switched back on, each where it was switched off
 * (query-rows.ts). Editing a row rewrites only its pair in the URL (`withQueryRows`).
 */
function QueryRows({ state, draft, change }: { state: RequestTabState; draft: Request; change(fn: (r: Request) => Request): void }) {
  return (
    <RowsTable
      label="Query parameter"
      project={state.tab.project}
      rows={shownRows(queryRows(draft.url), draft.query, offPlaces.get(state.doc))}
      onChange={(rows) => {
        const { on, off, offAt } = splitShown(rows);
        offPlaces.set(state.doc, offAt);
        change((r) => ({ ...r, url: withQueryRows(r.url, on), query: off }));
      }}
    />
  );
}

/** A fragment is the browser's: it stays in the field as typed and is never sent. */
function FragmentNote({ url }: { url: string }) {
  const { fragment } = splitUrlText(url);
  if (fragment === null) return null;
  return (
    <p class="url-note muted" role="note">
      <code>#{fragment.length > 40 ? `${fragment.slice(0, 40)}…` : fragment}</code> stays in the URL and is not sent: a fragment never leaves the client.
    </p>
  );
}

function UrlBar({ state, draft }: { state: RequestTabState; draft: Request }) {
  return (
    <div class="urlbar">
      <select
        class={`method-select method-${draft.method.toLowerCase()}`}
        aria-label="Method"
        value={METHODS.includes(draft.method) ? draft.method : '__custom'}
        onChange={(e) => {
          const value = (e.target as HTMLSelectElement).value;
          const method = value === '__custom' ? (prompt('Method', draft.method) ?? draft.method).toUpperCase() : value;
          edit(state, (r) => ({ ...r, method }));
        }}
      >
        {METHODS.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
        {!METHODS.includes(draft.method) && <option value="__custom">{draft.method}</option>}
        <option value="__custom">Other…</option>
      </select>
      <VarField
        class="url-input mono"
        label={draft.soap ? 'Endpoint' : 'URL'}
        project={state.tab.project}
        placeholder={draft.soap ? 'The service endpoint, e.g. https://api.example.com/service' : "https://api.example.com/items/{id} or /path under the API's base URL"}
        title="Kept as you type it. The query string is the Params rows; a #fragment stays here and is not sent. ${name} is a variable: type ${ for the names in scope."
        value={draft.url}
        onChange={(url) => {
          // A name typed into the URL takes over the row kept off under that name (it is on again, as typed).
          const typed = new Set(queryRows(url).map((row) => row.name));
          const places = offPlaces.get(state.doc);
          edit(state, (r) => {
            const kept = r.query.map((row, k) => [row, places?.[k]] as const).filter(([row]) => !typed.has(row.name));
            if (places && kept.length !== r.query.length) offPlaces.set(state.doc, kept.map(([, at]) => at!));
            return { ...r, url, query: kept.map(([row]) => row), pathParams: syncPathParams(url, r.pathParams) };
          });
        }}
      />
      {state.sending.value ? (
        <button class="button send stop" onClick={() => stop(state)}>
          Stop
        </button>
      ) : (
        <button class="button primary send" title={`${mod}+Enter`} onClick={() => void send(state)}>
          Send
        </button>
      )}
      <button class="button" disabled={!state.dirty.value} title={`${mod}+S`} onClick={() => void save(state)}>
        Save
      </button>
      <RequestCurlButton state={state} />
    </div>
  );
}

function SettingsSection({ draft, change }: { draft: Request; change(fn: (r: Request) => Request): void }) {
  const s = draft.settings;
  const set = (patch: Partial<Request['settings']>) => change((r) => ({ ...r, settings: { ...r.settings, ...patch } }));
  return (
    <div class="form-grid settings-grid">
      <label>
        <span>Timeout until response headers (ms, 0 waits forever)</span>
        <IntegerInput label="Timeout" value={s.timeoutMs} min={0} step={1000} onChange={(timeoutMs) => set({ timeoutMs })} />
      </label>
      <label>
        <span>HTTP version</span>
        <select aria-label="HTTP version" value={s.httpVersion} onChange={(e) => set({ httpVersion: (e.target as HTMLSelectElement).value as '1.1' | '2' })}>
          <option value="1.1">HTTP/1.1</option>
          <option value="2">HTTP/2 (negotiated by ALPN over TLS)</option>
        </select>
      </label>
      <label class="checkbox">
        <input type="checkbox" aria-label="Send cookies" checked={s.sendCookies} onChange={(e) => set({ sendCookies: (e.target as HTMLInputElement).checked })} />
        <span>
          Send cookies from the workspace's jar (those matching each hop's URL; a Cookie header set by hand wins). Cookies the responses set go into the jar either way.
        </span>
      </label>
    </div>
  );
}
