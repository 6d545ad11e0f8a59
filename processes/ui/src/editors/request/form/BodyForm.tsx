/**
 * The form itself: a heading for the whole body (schema name, media type, variant), then one row
 * per field, indented by depth, with "add property" chips closing each object.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { edit, type RequestTabState } from '../../../state/request-tabs.js';
import { rewrite, addProperty, create } from './edits.js';
import type { Apply } from './FieldRow.js';
import { buildFields, MAX_FIELDS, type Field } from './fields.js';
import { FieldRow, TypePicker, VariantPicker, AddItemButton } from './FieldRow.js';
import { pickVariant, type FormTabState } from './form-state.js';
import { FormMessage } from './FormSwitch.js';
import { pathLabel } from './json-path.js';
import { parseBody } from './json-value.js';
import { schemaName } from './schema.js';

/** Past this the body is edited as text: each keystroke re-prints the body (measured: ~35 ms at 256 KB, ~95 ms at 700 KB). */
export const MAX_FORM_TEXT = 256_000;

export interface BodyFormProps {
  state: RequestTabState;
  form: FormTabState;
  schema: unknown;
  mediaType: string;
  operation: string;
  onText(): void;
}

export function BodyForm({ state, form, schema, mediaType, operation, onText }: BodyFormProps) {
  const text = state.draft.value?.body.raw.text ?? '';
  const choices = form.choices.value;
  const parsed = useMemo(() => (text.length > MAX_FORM_TEXT ? null : parseBody(text)), [text]);
  const list = useMemo(() => (parsed?.ok ? buildFields(schema, parsed.value, choices) : null), [parsed, schema, choices]);
  const sectionRef = useRef<HTMLElement>(null);
  // After adding a property or an item, the cursor goes to (the first input of) what was added.
  const focusAfter = useRef<string | null>(null);
  useEffect(() => {
    const wanted = focusAfter.current;
    focusAfter.current = null;
    if (wanted === null || !sectionRef.current) return;
    const controls = [...sectionRef.current.querySelectorAll<HTMLElement>('input, select, button')];
    const hit = controls.find((el) => {
      const label = el.getAttribute('aria-label') ?? '';
      if (wanted === '') return el.matches('.bf-grid input, .bf-grid select'); // the whole body: its first input
      return label === wanted || label.startsWith(`${wanted}.`) || label.startsWith(`${wanted}[`);
    });
    hit?.focus();
  });
  if (!parsed) return <FormMessage title="This body is too large for the form." detail={`The form shows bodies up to ${MAX_FORM_TEXT.toLocaleString()} characters; edit this one as text.`} onText={onText} />;
  if (!parsed.ok || !list) return <FormMessage title="The form cannot show this body." detail={parsed.ok ? '' : parsed.message} onText={onText} />;

  // Reads the text at the time of the edit, so quick typing never works on a stale copy.
  const apply: Apply = (change, focus) => {
    if (focus !== undefined) focusAfter.current = focus;
    edit(state, (r) => {
      const next = rewrite(r.body.raw.text, change);
      return next === undefined || next === r.body.raw.text ? r : { ...r, body: { ...r.body, raw: { ...r.body.raw, text: next } } };
    });
  };
  const onVariant = (field: Field, index: number) => pickVariant(form, field.key, index);

  const [root, ...rest] = list.fields;
  if (!root) return null;
  const container = root.kind === 'object' || root.kind === 'array';
  const rows: ComponentChildren[] = [];
  const open: Field[] = root.kind === 'object' && root.value ? [root] : [];
  const closeObject = (field: Field) => {
    if (field.addable && field.addable.length > 0) rows.push(<Adder key={`${field.key}+`} field={field} apply={apply} />);
  };
  if (container) {
    for (const field of rest) {
      while (open.length > 0 && field.depth <= open[open.length - 1]!.depth) closeObject(open.pop()!);
      rows.push(<FieldRow key={field.key} field={field} apply={apply} onVariant={onVariant} />);
      if (field.kind === 'object' && field.value?.kind === 'object') open.push(field);
    }
    while (open.length > 0) closeObject(open.pop()!);
  } else {
    rows.push(<FieldRow key="(body)" field={root} apply={apply} onVariant={onVariant} />);
  }

  const title = root.title ?? schemaName(root.view.schema) ?? 'Body';
  return (
    <section class="body-form" aria-label="Body form" ref={sectionRef}>
      <header class="bf-head">
        <span class="bf-title">{title}</span>
        <span class="badge">{mediaType}</span>
        <span class="bf-op muted">schema of {operation}</span>
        <span class="bf-head-tools">
          {container && root.variants && <VariantPicker field={root} apply={apply} onVariant={onVariant} />}
          {container && root.typeChoice && <TypePicker field={root} apply={apply} />}
          {root.kind === 'array' && root.value && root.canAddItem && <AddItemButton field={root} apply={apply} />}
        </span>
      </header>
      {container && root.value === undefined ? (
        <div class="bf-empty">
          <span class="muted">The body is empty.</span>
          <button class="button small" onClick={() => apply(create(root), '')}>
            Start from the schema
          </button>
        </div>
      ) : (
        <div class="bf-grid">
          {rows}
          {rows.length === 0 && <p class="bf-none muted">{root.kind === 'array' ? 'No items.' : 'No properties.'}</p>}
        </div>
      )}
      {list.truncated && <p class="bf-note muted">The form shows the first {MAX_FIELDS.toLocaleString()} fields; switch to Text for the rest.</p>}
    </section>
  );
}

/** The optional properties an object does not have yet, one button each. */
function Adder({ field, apply }: { field: Field; apply: Apply }) {
  return (
    <div class="bf-adder" style={{ '--depth': field.depth }}>
      <span class="bf-adder-label">Add</span>
      {field.addable!.map((name) => {
        const label = pathLabel([...field.path, name]);
        return (
          <button key={name} class="bf-chip" aria-label={`Add ${label}`} title={`Add ${label}`} onClick={() => apply(addProperty(field, name), label)}>
            <span aria-hidden="true">+</span> {name}
          </button>
        );
      })}
    </div>
  );
}
