/**
 * One row of the form: the field's path, an input fitting its type (or a summary and buttons for
 * an object or array), pickers for its type and variant, and Remove.
 */
import { useEffect, useState } from 'preact/hooks';
import { CloseIcon, PlusIcon } from '../../../components/Icons.js';
import { fromInput, type Coerced } from './coerce.js';
import { addItem, chooseType, chooseVariant, create, remove, setValue, type FormEdit } from './edits.js';
import type { Field } from './fields.js';
import { pathLabel } from './json-path.js';
import { equalsPlain, fromPlain, printCompact, type JsonValue } from './json-value.js';
import type { JsonType } from './schema.js';

/** Applies an edit to the body; `focus` names the field (by label) the cursor goes to after it. */
export type Apply = (change: FormEdit, focus?: string) => void;

export function FieldRow({ field, apply, onVariant }: { field: Field; apply: Apply; onVariant(field: Field, index: number): void }) {
  const name = field.label || 'body';
  return (
    <div class={`bf-row${field.value === undefined ? ' bf-absent' : ''}${field.known ? '' : ' bf-unknown'}`} style={{ '--depth': Math.max(0, field.depth - 1) }}>
      <div class="bf-label" title={field.description ?? name}>
        <PathName field={field} />
        {field.required && field.depth > 0 && (
          <span class="bf-required" title="Required">
            *
          </span>
        )}
        {!field.known && <span class="badge badge-warn">not in schema</span>}
      </div>
      <div class="bf-control">
        <div class="bf-control-line">
          <Control field={field} apply={apply} />
          {field.variants && <VariantPicker field={field} apply={apply} onVariant={onVariant} />}
          {field.typeChoice && <TypePicker field={field} apply={apply} />}
        </div>
        {field.mismatch && <span class="bf-warn">{field.mismatch}</span>}
        {field.description && <span class="bf-description">{field.description}</span>}
      </div>
      <div class="bf-hint">{field.hint}</div>
      <div class="bf-actions">
        {field.removable && field.value !== undefined && (
          <button class="icon-button" aria-label={`Remove ${name}`} title={`Remove ${name}`} onClick={() => apply(remove(field))}>
            <CloseIcon />
          </button>
        )}
      </div>
    </div>
  );
}

/** `owner.` muted, `name` strong: the path reads at a glance. */
function PathName({ field }: { field: Field }) {
  if (field.depth === 0) return <span class="bf-name">body</span>;
  const parent = pathLabel(field.path.slice(0, -1));
  return (
    <span class="bf-path">
      {parent && <span class="bf-parent">{parent}</span>}
      <span class="bf-name">{field.label.slice(parent.length)}</span>
    </span>
  );
}

function Control({ field, apply }: { field: Field; apply: Apply }) {
  const { value, kind } = field;
  const label = field.label || 'body';
  const set = (v: JsonValue) => apply(setValue(field, v));
  const addButton = (
    <button class="button small" aria-label={`Add ${label}`} onClick={() => apply(create(field), field.label)}>
      Add
    </button>
  );
  if (value?.kind === 'expansion' && kind !== 'json') {
    return <CoercedInput label={label} shown={value.raw} read={(t) => fromInput(kind === 'enum' ? 'json' : (kind as JsonType), t)} onValue={set} />;
  }
  switch (kind) {
    case 'string':
      return (
        <input
          class={`bf-input${value === undefined ? ' bf-missing' : ''}`}
          aria-label={label}
          spellcheck={false}
          placeholder={value === undefined ? 'required' : placeholderOf(field)}
          value={value?.kind === 'string' ? value.value : ''}
          onInput={(e) => set({ kind: 'string', value: (e.target as HTMLInputElement).value })}
        />
      );
    case 'number':
    case 'integer':
      return <CoercedInput label={label} shown={value?.kind === 'number' ? value.raw : ''} missing={value === undefined} numeric read={(t) => fromInput(kind, t)} onValue={set} />;
    case 'json':
      return <CoercedInput label={label} shown={value ? printCompact(value) : ''} missing={value === undefined} mono read={(t) => fromInput('json', t)} onValue={set} />;
    case 'boolean':
      if (value === undefined) return addButton;
      return (
        <label class="bf-bool">
          <input type="checkbox" aria-label={label} checked={value.kind === 'boolean' && value.value} onChange={(e) => set({ kind: 'boolean', value: (e.target as HTMLInputElement).checked })} />
          <span class="mono">{value.kind === 'boolean' && value.value ? 'true' : 'false'}</span>
        </label>
      );
    case 'enum': {
      const values = field.enumValues ?? [];
      const at = value ? values.findIndex((v) => equalsPlain(value, v)) : -1;
      return (
        <select class={`bf-select${value === undefined ? ' bf-missing' : ''}`} aria-label={label} value={at < 0 ? '' : String(at)} onChange={(e) => set(fromPlain(values[Number((e.target as HTMLSelectElement).value)]))}>
          {at < 0 && (
            <option value="" disabled>
              {value ? `${printCompact(value)} (not allowed)` : 'choose…'}
            </option>
          )}
          {values.map((v, i) => (
            <option key={i} value={String(i)}>
              {typeof v === 'string' ? v : JSON.stringify(v)}
            </option>
          ))}
        </select>
      );
    }
    case 'null':
      return value === undefined ? addButton : <span class="bf-literal mono">null</span>;
    case 'object':
      if (value === undefined) return addButton;
      return <span class="bf-summary">{count(value.kind === 'object' ? value.entries.length : 0, 'property', 'properties')}</span>;
    case 'array':
      if (value === undefined) return addButton;
      return (
        <span class="bf-summary-line">
          <span class="bf-summary">{count(value.kind === 'array' ? value.items.length : 0, 'item', 'items')}</span>
          {field.canAddItem && <AddItemButton field={field} apply={apply} />}
        </span>
      );
  }
}

function count(n: number, one: string, many: string): string {
  return n === 0 ? `no ${many}` : `${n} ${n === 1 ? one : many}`;
}

function placeholderOf(field: Field): string {
  const s = field.view.schema;
  const example = s.example ?? (Array.isArray(s.examples) ? s.examples[0] : undefined);
  if (typeof example === 'string') return example;
  return typeof s.format === 'string' ? s.format : '';
}

export function AddItemButton({ field, apply }: { field: Field; apply: Apply }) {
  const label = field.label || 'body';
  return (
    <button class="button small bf-add-item" aria-label={`Add item to ${label}`} onClick={() => apply(addItem(field), `${field.label}[${field.value?.kind === 'array' ? field.value.items.length : 0}]`)}>
      <PlusIcon /> Item
    </button>
  );
}

export function VariantPicker({ field, apply, onVariant }: { field: Field; apply: Apply; onVariant(field: Field, index: number): void }) {
  const variants = field.variants!;
  return (
    <select
      class="bf-select bf-variant"
      aria-label={`Variant of ${field.label || 'body'}`}
      title="Which of the alternatives (oneOf) this value is"
      value={String(variants.chosen)}
      onChange={(e) => {
        const index = Number((e.target as HTMLSelectElement).value);
        onVariant(field, index);
        apply(chooseVariant(field, index));
      }}
    >
      {variants.labels.map((l, i) => (
        <option key={i} value={String(i)}>
          {l}
        </option>
      ))}
    </select>
  );
}

export function TypePicker({ field, apply }: { field: Field; apply: Apply }) {
  const choice = field.typeChoice!;
  return (
    <select class="bf-select bf-type" aria-label={`Type of ${field.label || 'body'}`} value={choice.current} onChange={(e) => apply(chooseType(field, (e.target as HTMLSelectElement).value as JsonType))}>
      {choice.types.map((t) => (
        <option key={t} value={t}>
          {t}
        </option>
      ))}
    </select>
  );
}

/**
 * A text input whose text becomes a value only once it reads as one (a number, a JSON value):
 * until then the text stays in the input, marked, and the body is left as it was.
 */
function CoercedInput({ label, shown, read, onValue, missing, numeric, mono }: { label: string; shown: string; read(text: string): Coerced; onValue(v: JsonValue): void; missing?: boolean; numeric?: boolean; mono?: boolean }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState('');
  // The body changed from elsewhere (or took our value): show it as it now is.
  useEffect(() => {
    setDraft(null);
    setError('');
  }, [shown]);
  return (
    <span class="bf-coerced">
      <input
        class={`bf-input${mono ? ' mono' : ''}${missing ? ' bf-missing' : ''}${error ? ' bf-invalid' : ''}`}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        inputMode={numeric ? 'decimal' : undefined}
        spellcheck={false}
        placeholder={missing ? 'required' : ''}
        title={error || undefined}
        value={draft ?? shown}
        onInput={(e) => {
          const text = (e.target as HTMLInputElement).value;
          setDraft(text);
          const result = read(text);
          if (result.ok) {
            setError('');
            onValue(result.value);
          } else setError(result.message);
        }}
      />
      {error && <span class="bf-error">{error}</span>}
    </span>
  );
}
