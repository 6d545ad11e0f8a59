/**
 * A gRPC request's tab state (docs/grpc.md), kept outside the components as the other kinds'
 * are: the draft, its API's methods and the chosen method's input schema (`grpc.describe`), the
 * call while it runs (a stream's head and rows in a LiveStream, as a WebSocket session's), the
 * finished exchange, the composer of a client or bidirectional stream, and the chosen sections.
 */
import { signal, type Signal } from '@preact/signals';
import type { Api } from '../../../../../protocol/model/api.js';
import type { Exchange } from '../../../../../protocol/model/history.js';
import type { WireError } from '../../../../../protocol/errors.js';
import type { GrpcRequest } from '../../../../../protocol/model/grpc.js';
import type { MessageSchema } from '../../../../../protocol/grpc/message-check.js';
import { lastRowNumber } from '../../../../../protocol/model/stream.js';
import type { QueryLanguage, QueryResult } from '../../../../../protocol/model/query.js';
import { literalSecrets } from '../../../../../protocol/credentials/auth-secrets.js';
import type { ResOf } from '../../../../../protocol/messages.js';
import { projectByRoot } from '../../state/app.js';
import { editDraft, openDraft, whenLoaded, type Draft } from '../../state/drafts.js';
import { call } from '../../state/rpc.js';
import { onTabClosed, retitleTab, type Tab } from '../../state/tabs.js';
import { onStreamProgress, type LiveStream } from '../../state/live-stream.js';
import { noteLeftOut } from '../../state/secret-storage.js';
import { withSecretStore } from '../../components/SecretStoreDialog.js';
import type { QueryState } from '../../state/request-tabs.js';

export type GrpcSection = 'message' | 'metadata' | 'auth' | 'tls' | 'assertions' | 'settings';
export type GrpcView = 'body' | 'events' | 'headers' | 'trailers' | 'timing' | 'raw' | 'query';
export type GrpcMethodDescription = ResOf<'grpc.describe'>['methods'][number];

export interface GrpcTabState {
  tab: Tab;
  doc: Draft<GrpcRequest>;
  draft: Signal<GrpcRequest | null>;
  loadError: Signal<string | null>;
  api: Signal<Api | null>;
  /** The API's methods, or why they could not be read. */
  methods: Signal<GrpcMethodDescription[] | null>;
  methodsError: Signal<string | null>;
  /** The chosen method's input type and an example message, for the method it was asked for. */
  input: Signal<{ key: string; schema: MessageSchema; example: string } | null>;
  section: Signal<GrpcSection>;
  view: Signal<GrpcView>;
  /** The call runs: its send answers when it ends. */
  running: Signal<boolean>;
  /** A streaming call, from its head on. */
  live: Signal<LiveStream | null>;
  showOthers: Signal<boolean>;
  composer: { text: Signal<string>; problem: Signal<string | null>; sending: Signal<boolean> };
  query: QueryState;
  exchange: Signal<Exchange | null>;
  error: Signal<WireError | null>;
  abort: AbortController | null;
}

const states = new Map<string, GrpcTabState>();

export function grpcTabState(tab: Tab): GrpcTabState {
  let state = states.get(tab.id);
  if (state) return state;
  const api = signal<Api | null>(null);
  const doc = openDraft<GrpcRequest>(tab.id, {
    load: async () => {
      const [request] = await Promise.all([call('request.get', { project: tab.project, id: tab.itemId }).then(asGrpc), loadApi()]);
      if (request.name !== tab.title) retitleTab(tab.id, request.name, 'gRPC');
      return request;
    },
    save: async (request) => {
      const typed = [...literalSecrets(request.auth).keys()];
      const { value: stored, leftOut } = await withSecretStore(
        (leaveOutSecrets) => call('request.save', { project: tab.project, request, ...(leaveOutSecrets ? { leaveOutSecrets } : {}) }),
        { leaveOut: 'Save without the secret', what: 'the secret typed into the Auth tab' },
      );
      noteLeftOut(tab.id, leftOut ? typed : []);
      const saved = asGrpc(stored);
      retitleTab(tab.id, saved.name, 'gRPC');
      return saved;
    },
    concerns: (project, changed) => project === tab.project && changed.includes(tab.itemId),
    label: (): string => doc.draft.value?.name ?? tab.title,
  });
  async function loadApi(): Promise<void> {
    const id = apiIdOf(tab);
    if (id) api.value = await call('api.get', { project: tab.project, id }).catch(() => api.value);
  }
  state = {
    tab,
    doc,
    draft: doc.draft,
    loadError: doc.loadError,
    api,
    methods: signal(null),
    methodsError: signal(null),
    input: signal(null),
    section: signal<GrpcSection>('message'),
    view: signal<GrpcView>('body'),
    running: signal(false),
    live: signal<LiveStream | null>(null),
    showOthers: signal(false),
    composer: { text: signal('{}'), problem: signal(null), sending: signal(false) },
    query: {
      language: signal<QueryLanguage>('jsonpath'),
      expression: signal(''),
      running: signal(false),
      result: signal<QueryResult | null>(null),
      error: signal<{ code: string; message: string } | null>(null),
    },
    exchange: signal(null),
    error: signal(null),
    abort: null,
  };
  states.set(tab.id, state);
  return state;
}

onTabClosed((tabId) => {
  // Closing the tab ends its call: the send's caller goes away and the supervisor cancels it.
  states.get(tabId)?.abort?.abort();
  states.delete(tabId);
});

function asGrpc(request: { kind?: string }): GrpcRequest {
  if (request.kind !== 'grpc') throw new Error('This tab shows a gRPC request, and the request is no longer one.');
  return request as GrpcRequest;
}

export function apiIdOf(tab: Tab): string | undefined {
  const tree = projectByRoot(tab.project);
  if (!tree) return undefined;
  const byId = new Map(tree.items.map((i) => [i.id, i]));
  let item = byId.get(tab.itemId);
  while (item && item.kind !== 'api') item = 'parent' in item ? byId.get(item.parent) : undefined;
  return item?.id;
}

export function editGrpc(state: GrpcTabState, change: (draft: GrpcRequest) => GrpcRequest): void {
  editDraft(state.doc, change);
}

/** The API's methods, and the chosen method's input schema when it is not the one loaded. */
export async function describe(state: GrpcTabState, draft: GrpcRequest): Promise<void> {
  const api = apiIdOf(state.tab);
  if (!api) return;
  const key = `${draft.service}/${draft.method}`;
  const wanted = draft.service !== '' && draft.method !== '' && state.input.value?.key !== key;
  if (state.methods.value && !wanted) return;
  try {
    const answer = await call('grpc.describe', { project: state.tab.project, api, ...(wanted ? { service: draft.service, method: draft.method } : {}) });
    state.methods.value = answer.methods;
    state.methodsError.value = null;
    if (answer.input) state.input.value = { key, schema: answer.input.schema as MessageSchema, example: answer.input.example };
  } catch (err) {
    state.methodsError.value = (err as Error).message;
    state.methods.value ??= [];
  }
}

/** The method the draft names, as the definition describes it. */
export function chosenMethod(state: GrpcTabState, draft: GrpcRequest): GrpcMethodDescription | undefined {
  return state.methods.value?.find((m) => m.service === draft.service && m.method === draft.method);
}

/**
 * Send: the request's send runs until the call ends; a stream's head and rows fill `live` as
 * they come (the page says which rows it drew), and its answer is the finished call.
 */
export async function sendCall(state: GrpcTabState): Promise<void> {
  const draft = state.draft.value ?? (await whenLoaded(state.doc));
  if (!draft || state.running.value) return;
  const controller = new AbortController();
  state.abort = controller;
  state.running.value = true;
  state.error.value = null;
  state.live.value = null;
  state.exchange.value = null;
  state.query.result.value = null;
  state.query.error.value = null;
  state.composer.problem.value = null;
  try {
    const exchange = await call('request.send', { project: state.tab.project, request: draft }, {
      signal: controller.signal,
      onChunk: (progress) => {
        onStreamProgress(state.live.value, progress, (stream) => {
          state.live.value = stream;
          state.view.value = 'events';
        });
        const live = state.live.peek();
        if (progress.kind === 'batch' && live) setTimeout(() => void call('request.streamRead', { stream: live.id, n: lastRowNumber(progress.batch) }).catch(() => {}), 0);
      },
    });
    const live = state.live.peek();
    if (exchange.response.stream) live?.finish(exchange.response.stream);
    else state.view.value = 'body';
    state.exchange.value = exchange;
  } catch (err) {
    const e = err as WireError;
    state.error.value = { code: e.code, message: e.message };
  } finally {
    state.running.value = false;
    state.abort = null;
  }
}

/** Cancel: a stream is stopped by the sender (its rows kept); a unary call is dropped. */
export function cancelCall(state: GrpcTabState): void {
  const live = state.live.value;
  if (!state.running.value) return;
  if (live?.state.value === 'open') {
    if (live.stopping.value) return;
    live.stopping.value = true;
    call('request.stopStream', { stream: live.id }).then(
      ({ stopped }) => void (stopped || state.abort?.abort()),
      () => state.abort?.abort(),
    );
    return;
  }
  state.abort?.abort();
}

/** Sends the composer's message on the open stream (expanded and checked by the supervisor). */
export async function sendOnStream(state: GrpcTabState, text: string): Promise<boolean> {
  const live = state.live.value;
  if (!live || live.state.value !== 'open') {
    state.composer.problem.value = 'Send the call first: a message goes on an open stream.';
    return false;
  }
  state.composer.sending.value = true;
  state.composer.problem.value = null;
  try {
    await call('request.socketSend', { stream: live.id, message: { format: 'json', text, file: '' } });
    return true;
  } catch (err) {
    state.composer.problem.value = (err as Error).message;
    return false;
  } finally {
    state.composer.sending.value = false;
  }
}

/** Half-close: the server is told no more messages come. */
export async function halfClose(state: GrpcTabState): Promise<void> {
  const live = state.live.value;
  if (!live || live.state.value !== 'open') return;
  try {
    await call('request.halfClose', { stream: live.id });
  } catch (err) {
    state.composer.problem.value = (err as Error).message;
  }
}
