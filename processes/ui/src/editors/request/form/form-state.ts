/**
 * Per-tab state of the Form view, kept outside the components so switching tabs keeps it:
 * Text or Form, the body schema the supervisor gave for the linked operation, and the oneOf
 * variants the user picked.
 */
import { signal, type Signal } from '@preact/signals';
import type { ResOf } from '../../../../../../protocol/messages.js';
import type { RequestTabState } from '../../../state/request-tabs.js';
import { call } from '../../../state/rpc.js';
import { onTabClosed } from '../../../state/tabs.js';

export type BodyView = 'text' | 'form';
export type SchemaAnswer = ResOf<'request.bodySchema'>;
export type SchemaState = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; answer: SchemaAnswer } | { status: 'failed'; message: string };

export interface FormTabState {
  view: Signal<BodyView>;
  schema: Signal<SchemaState>;
  /** Variant picks by field key. */
  choices: Signal<ReadonlyMap<string, number>>;
  /** The operation the schema was asked for. */
  asked: string;
}

const states = new Map<string, FormTabState>();

export function formState(tab: RequestTabState): FormTabState {
  let state = states.get(tab.tab.id);
  if (!state) {
    state = { view: signal<BodyView>('text'), schema: signal<SchemaState>({ status: 'idle' }), choices: signal(new Map()), asked: '' };
    states.set(tab.tab.id, state);
  }
  return state;
}

onTabClosed((id) => states.delete(id));

/**
 * Asks the supervisor for the schema of the request's linked operation, once per operation, or
 * again when `refresh` is set (a definition update may have changed it); an earlier answer stays
 * shown meanwhile.
 */
export function loadSchema(tab: RequestTabState, state: FormTabState, refresh = false): void {
  // The saved request: the link is set by imports, and the draft may be mid-edit (and invalid).
  const request = tab.saved.value ?? tab.draft.value;
  const operation = request?.operation;
  if (!request || !operation) return;
  const asked = `${operation.method} ${operation.path}`;
  if (asked === state.asked && !refresh) return;
  if (asked !== state.asked) state.schema.value = { status: 'loading' };
  state.asked = asked;
  call('request.bodySchema', { project: tab.tab.project, request }).then(
    (answer) => {
      if (state.asked === asked) state.schema.value = { status: 'ready', answer };
    },
    (err: unknown) => {
      if (state.asked === asked) state.schema.value = { status: 'failed', message: (err as Error).message };
    },
  );
}

export function pickVariant(state: FormTabState, key: string, index: number): void {
  state.choices.value = new Map([...state.choices.value, [key, index]]);
}
