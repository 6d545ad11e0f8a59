/**
 * The Text / Form switch in the raw body toolbar, shown for a JSON body whose linked operation
 * declares a JSON request body. In Form the form takes the text area's place (form.css hides
 * it) and every change is written to the body text.
 */
import { useEffect } from 'preact/hooks';
import type { RequestTabState } from '../../../state/request-tabs.js';
import { BodyForm } from './BodyForm.js';
import { formState, loadSchema } from './form-state.js';

export function FormSwitch({ state }: { state: RequestTabState }) {
  const draft = state.draft.value;
  const form = formState(state);
  const operation = draft?.operation;
  const eligible = draft?.body.kind === 'raw' && draft.body.raw.language === 'json' && operation !== undefined;
  useEffect(() => {
    if (eligible) loadSchema(state, form);
  }, [state, eligible, operation?.method, operation?.path]);
  if (!eligible) return null;

  const schema = form.schema.value;
  const view = form.view.value;
  const available = schema.status === 'ready' && schema.answer.available;
  // No switch where the operation declares no JSON body; a form already open says why instead.
  if (!available && view === 'text') return null;
  const toText = () => (form.view.value = 'text');

  return (
    <>
      <div class="segmented body-view-switch" role="radiogroup" aria-label="Body view">
        <button role="radio" aria-checked={view === 'text'} class={view === 'text' ? 'active' : ''} onClick={toText}>
          Text
        </button>
        <button
          role="radio"
          aria-checked={view === 'form'}
          class={view === 'form' ? 'active' : ''}
          title="Edit the body as a form built from the operation's schema"
          onClick={() => {
            form.view.value = 'form';
            loadSchema(state, form, true);
          }}
        >
          Form
        </button>
      </div>
      {view === 'form' && (
        <div class="body-form-host">
          {schema.status === 'ready' && schema.answer.available ? (
            <BodyForm state={state} form={form} schema={schema.answer.schema} mediaType={schema.answer.mediaType ?? 'application/json'} operation={`${operation.method.toUpperCase()} ${operation.path}`} onText={toText} />
          ) : schema.status === 'ready' || schema.status === 'failed' ? (
            <FormMessage title="There is no form for this body." detail={schema.status === 'ready' ? (schema.answer.reason ?? '') : schema.message} onText={toText} />
          ) : (
            <p class="bf-loading muted">Reading the operation's schema…</p>
          )}
        </div>
      )}
    </>
  );
}

export function FormMessage({ title, detail, onText }: { title: string; detail: string; onText(): void }) {
  return (
    <div class="bf-message" role="alert">
      <div class="bf-message-text">
        <strong>{title}</strong>
        {detail && <span>{detail}</span>}
      </div>
      <button class="button small" onClick={onText}>
        Back to Text
      </button>
    </div>
  );
}
