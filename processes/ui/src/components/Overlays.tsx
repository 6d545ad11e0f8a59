/** Toasts, the form dialog, custom dialogs and the context menu. */
import { useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { contextMenu, customDialog, formDialog, type CustomDialog, type FormDialog } from '../state/overlays.js';
import { dismissToast, toasts } from '../state/toasts.js';
import { CloseIcon } from './Icons.js';

export function Toasts() {
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.value.map((t) => (
        <div key={t.id} class={`toast toast-${t.level}`}>
          <span>{t.message}</span>
          {t.action && (
            <button
              class="button small"
              onClick={() => {
                dismissToast(t.id);
                t.action!.run();
              }}
            >
              {t.action.label}
            </button>
          )}
          <button class="icon-button" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}

export function ContextMenu() {
  const menu = contextMenu.value;
  useEffect(() => {
    if (!menu) return;
    const close = () => (contextMenu.value = null);
    window.addEventListener('click', close);
    window.addEventListener('blur', close);
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('click', close);
      window.removeEventListener('blur', close);
      window.removeEventListener('keydown', onKey);
    };
  }, [menu]);
  if (!menu) return null;
  const left = Math.min(menu.x, window.innerWidth - 230);
  const top = Math.min(menu.y, window.innerHeight - menu.items.length * 30 - 12);
  return (
    <ul class="context-menu" role="menu" style={{ left: `${left}px`, top: `${top}px` }}>
      {menu.items.map((item) => (
        <li
          key={item.label}
          role="menuitem"
          class={item.danger ? 'danger' : ''}
          onClick={() => {
            contextMenu.value = null;
            item.run();
          }}
        >
          {item.label}
          {item.keys && <kbd>{item.keys}</kbd>}
        </li>
      ))}
    </ul>
  );
}

export function Dialogs() {
  const form = formDialog.value;
  const custom = customDialog.value;
  return (
    <>
      {form && <FormDialogView key={form.title} dialog={form} />}
      {custom && (
        <Modal title={custom.title} wide={custom.wide} onClose={() => closeCustom(custom)}>
          {custom.render(() => closeCustom(custom))}
        </Modal>
      )}
    </>
  );
}

function closeCustom(dialog: CustomDialog): void {
  if (customDialog.value === dialog) customDialog.value = null;
  dialog.onClose?.();
}

export function Modal({ title, wide, onClose, children }: { title: string; wide?: boolean; onClose: () => void; children: preact.ComponentChildren }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div class="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div class={`dialog${wide ? ' wide' : ''}`} role="dialog" aria-modal="true" aria-label={title}>
        <header class="dialog-header">
          <h2>{title}</h2>
          <button class="icon-button" aria-label="Close" onClick={onClose}>
            <CloseIcon />
          </button>
        </header>
        {children}
      </div>
    </div>
  );
}

/** A secret's value: masked, with a Show / Hide toggle beside it. */
export function MaskedInput({ label, value, placeholder, onInput, masked = true }: { label: string; value: string; placeholder?: string; onInput(value: string): void; masked?: boolean }) {
  const shown = useSignal(false);
  return (
    <span class="masked-input">
      <input
        aria-label={label}
        type={shown.value || !masked ? 'text' : 'password'}
        autoComplete="off"
        spellcheck={false}
        value={value}
        placeholder={placeholder}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
      {masked && (
      <button type="button" class="button small" aria-pressed={shown.value} aria-label={shown.value ? `Hide ${label}` : `Show ${label}`} onClick={() => (shown.value = !shown.value)}>
        {shown.value ? 'Hide' : 'Show'}
      </button>
      )}
    </span>
  );
}

function FormDialogView({ dialog }: { dialog: FormDialog }) {
  const values = useSignal<Record<string, string>>(Object.fromEntries(dialog.fields.map((f) => [f.name, f.value ?? (f.options?.[0] ?? '')])));
  const error = useSignal('');
  const busy = useSignal(false);
  const firstRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => firstRef.current?.focus(), []);
  const close = () => (formDialog.value = null);
  const submit = async (e: Event) => {
    e.preventDefault();
    const missing = dialog.fields.find((f) => f.required && !values.value[f.name]?.trim());
    if (missing) {
      error.value = `${missing.label} is required.`;
      return;
    }
    busy.value = true;
    const result = await dialog.onSubmit(values.value);
    busy.value = false;
    if (typeof result === 'string') error.value = result;
    else close();
  };
  return (
    <Modal title={dialog.title} onClose={close}>
      <form class="dialog-body form-grid" onSubmit={submit}>
        {dialog.fields.map((field, i) => (
          <label key={field.name}>
            <span>{field.label}</span>
            {field.kind === 'select' ? (
              <select value={values.value[field.name]} onChange={(e) => (values.value = { ...values.value, [field.name]: (e.target as HTMLSelectElement).value })}>
                {field.options?.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : field.kind === 'secret' ? (
              <MaskedInput
                label={field.label}
                value={values.value[field.name] ?? ''}
                placeholder={field.placeholder}
                onInput={(value) => (values.value = { ...values.value, [field.name]: value })}
              />
            ) : (
              <input
                ref={i === 0 ? firstRef : undefined}
                name={field.name}
                value={values.value[field.name]}
                placeholder={field.placeholder}
                onInput={(e) => (values.value = { ...values.value, [field.name]: (e.target as HTMLInputElement).value })}
              />
            )}
            {field.hint && <small class="muted">{field.hint}</small>}
          </label>
        ))}
        {error.value && <p class="form-error" role="alert">{error.value}</p>}
        <footer class="dialog-footer">
          <button type="button" class="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy.value}>
            {busy.value ? (dialog.busyLabel ?? dialog.submitLabel) : dialog.submitLabel}
          </button>
        </footer>
      </form>
    </Modal>
  );
}
