/**
 * Recorded examples on the response pane: Save as example on the status line, the Examples (N)
 * menu, and an example shown read-only under a banner saying it is a recorded example and not a
 * live response (Body and Headers; Close returns to the live response; Delete example removes it).
 */
import { effect, signal, type Signal } from '@preact/signals';
import { EXAMPLE_BODY_LIMIT, type Example } from '../../../../protocol/model/example.js';
import type { Exchange } from '../../../../protocol/model/history.js';
import type { SendResult } from '../../../../protocol/model/exchange.js';
import { HeaderTable } from '../editors/response/ResponsePane.js';
import { BodyView } from '../editors/response/BodyView.js';
import { bodyKind } from '../editors/response/body-view.js';
import { formatBytes } from '../components/FileChooser.js';
import { openMenu } from '../state/overlays.js';
import type { RequestTabState } from '../state/request-tabs.js';
import { call } from '../state/rpc.js';
import { onTabClosed } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { statusClass, when } from './format.js';
import './history.css';

interface ExamplesState {
  list: Signal<Example[] | null>;
  problems: Signal<string[]>;
  /** The status of the example shown instead of the live response, or null. */
  open: Signal<number | null>;
  view: Signal<'body' | 'headers'>;
  busy: Signal<boolean>;
  dispose: () => void;
}

const states = new Map<string, ExamplesState>();
onTabClosed((id) => {
  states.get(id)?.dispose();
  states.delete(id);
});

/** The examples of a request tab, loaded on first use; a new send closes an example being shown. */
export function examplesOf(tab: RequestTabState): ExamplesState {
  const state = states.get(tab.tab.id);
  if (state) return state;
  const created: ExamplesState = { list: signal(null), problems: signal([]), open: signal(null), view: signal('body'), busy: signal(false), dispose: () => {} };
  states.set(tab.tab.id, created);
  created.dispose = effect(() => {
    if (tab.sending.value) created.open.value = null;
  });
  call('examples.list', { project: tab.tab.project, requestId: tab.tab.itemId }).then(
    (r) => {
      created.list.value = r.examples;
      created.problems.value = r.problems;
    },
    () => (created.list.value = []),
  );
  return created;
}

export function exampleLabel(e: Example): string {
  return `${e.status} ${e.statusText} · ${when(e.recordedAt)}`;
}

export async function saveAsExample(tab: RequestTabState, exchange: Exchange): Promise<void> {
  const state = examplesOf(tab);
  const r = exchange.response;
  state.busy.value = true;
  try {
    // The supervisor cuts at 256 KB after masking; a little more than that is all it needs to see.
    const body = r.body.bytes.subarray(0, EXAMPLE_BODY_LIMIT + 64 * 1024);
    // The exchange's id: the supervisor redacts the example with the values History's entry was redacted with.
    const saved = await call('examples.save', { project: tab.tab.project, requestId: tab.tab.itemId, exchange: exchange.id, response: { status: r.status, statusText: r.statusText, headers: r.headers, body, size: r.body.size } });
    state.list.value = saved.examples;
    const notes = [saved.replaced ? `it replaces the earlier ${r.status} example` : '', saved.example.masked ? 'credential values were masked' : '', saved.example.truncated ? 'the body was cut at 256 KB' : ''].filter(Boolean);
    toast('success', `Saved ${r.status} ${r.statusText} as an example${notes.length ? `: ${notes.join('; ')}` : ''}.`);
  } catch (err) {
    toast('error', (err as Error).message);
  } finally {
    state.busy.value = false;
  }
}

/** Save as example (with a live response) and the Examples (N) menu, for the status line. */
export function ExampleControls({ tab, exchange }: { tab: RequestTabState; exchange?: Exchange }) {
  const state = examplesOf(tab);
  const list = state.list.value ?? [];
  return (
    <span class="example-controls">
      {exchange && (
        <button class="button small" disabled={state.busy.value} title="Keep this response as a recorded example (up to 5, one per status)" onClick={() => void saveAsExample(tab, exchange)}>
          Save as example
        </button>
      )}
      {list.length > 0 && (
        <button
          class="button small"
          aria-haspopup="menu"
          onClick={(e) => {
            e.stopPropagation();
            openMenu(
              e,
              list.map((example) => ({
                label: exampleLabel(example),
                run: () => {
                  state.view.value = 'body';
                  state.open.value = example.status;
                },
              })),
            );
          }}
        >
          Examples ({list.length})
        </button>
      )}
    </span>
  );
}

export function hasExamples(tab: RequestTabState): boolean {
  return (examplesOf(tab).list.value?.length ?? 0) > 0;
}

/** The example being shown, if any. */
export function openExample(tab: RequestTabState): Example | null {
  const state = examplesOf(tab);
  const status = state.open.value;
  return status === null ? null : (state.list.value?.find((e) => e.status === status) ?? null);
}

export function ExampleView({ tab, example }: { tab: RequestTabState; example: Example }) {
  const state = examplesOf(tab);
  const result = asResult(example);
  const close = () => (state.open.value = null);
  const remove = async () => {
    if (!confirm(`Delete the recorded example ${example.status} ${example.statusText}?`)) return;
    try {
      const r = await call('examples.delete', { project: tab.tab.project, requestId: tab.tab.itemId, status: example.status });
      state.list.value = r.examples;
      close();
      toast('info', `Deleted the ${example.status} example.`);
    } catch (err) {
      toast('error', (err as Error).message);
    }
  };
  return (
    <section class="response-pane example-pane" aria-label="Recorded example">
      <div class="example-banner" role="note">
        <strong>Recorded example, not a live response.</strong>
        <span>
          {example.name}, recorded {when(example.recordedAt)}
          {example.masked ? '; credential values masked' : ''}
          {example.truncated ? `; body cut at 256 KB of ${formatBytes(example.size)}` : ''}.
        </span>
        <span class="spacer" />
        <button class="button small" onClick={close}>
          Close
        </button>
        <button class="button small danger" onClick={() => void remove()}>
          Delete example
        </button>
      </div>
      <div class="status-line">
        <span class={`status ${statusClass(example.status)}`} data-testid="example-status">
          {example.status} {example.statusText}
        </span>
        <span class="muted">{formatBytes(example.body.byteLength)}</span>
        <ExampleControls tab={tab} />
      </div>
      <nav class="subtabs" role="tablist" aria-label="Example views">
        {(['body', 'headers'] as const).map((v) => (
          <button key={v} role="tab" aria-selected={state.view.value === v} class={state.view.value === v ? 'active' : ''} onClick={() => (state.view.value = v)}>
            {v === 'body' ? 'Body' : `Headers (${example.headers.length})`}
          </button>
        ))}
      </nav>
      <div class="response-body">{state.view.value === 'body' ? <BodyView result={result} kind={bodyKind(result)} /> : <HeaderTable headers={example.headers} />}</div>
    </section>
  );
}

/** An example in the shape the body view reads a response in. */
function asResult(e: Example): SendResult {
  const timing = { dns: 0, connect: 0, tls: 0, send: 0, wait: 0, download: 0, total: 0 };
  return { status: e.status, statusText: e.statusText, httpVersion: '', headers: e.headers, body: { bytes: e.body, size: e.body.byteLength, wireSize: e.body.byteLength }, hops: [], timing, raw: { request: '', response: '' }, url: '', remoteAddress: '' };
}
