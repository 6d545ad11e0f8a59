/**
 * A one-line field where `${name}` is live: highlighted as resolved or not, its value (masked for
 * a secret) and source on hover, the names in scope offered after `${`. For the URL, headers,
 * query and form rows and auth fields of a request in `project`, and the values of environments
 * and properties (their own `scope`).
 *
 * A `masked` field (a password, a token, a credential's value) draws its typed text as dots
 * until Show is pressed; its `${name}` references stay readable and marked, and their values
 * are masked on hover and in completion.
 */
import type { CompletionSource } from '@codemirror/autocomplete';
import { createContext } from 'preact';
import { useContext, useMemo } from 'preact/hooks';
import { useSignal } from '@preact/signals';
import type { ReadonlySignal } from '@preact/signals';
import { CodeEditor } from './CodeEditor.js';
import { variableSupport } from './variables.js';
import { maskLiterals } from './masking.js';
import { scopeOf, type EditorScope } from '../state/variable-scope.js';

/**
 * The scope the fields inside an editor resolve in, when it is more than their project's: a
 * request's (its folders' variables). Fields outside one use their project's.
 */
export const FieldScope = createContext<ReadonlySignal<EditorScope> | null>(null);

export interface VarFieldProps {
  label: string;
  value: string;
  onChange(text: string): void;
  /** The project whose variables are in scope. */
  project?: string;
  /** The scope itself, for a field outside a project (an environment's value). */
  scope?: ReadonlySignal<EditorScope>;
  /** A secret: the typed text is dots until shown. */
  masked?: boolean;
  placeholder?: string;
  title?: string;
  class?: string;
}

export function VarField({ label, value, onChange, project, scope, masked = false, placeholder, title, class: cls }: VarFieldProps) {
  const shown = useSignal(false);
  const hidden = masked && !shown.value;
  const given = useContext(FieldScope);
  const inScope = scope ?? given ?? scopeOf(project ?? '');
  const extensions = useMemo(() => [variableSupport(inScope, NO_SOURCES, { masked }), hidden ? maskLiterals() : []], [inScope, masked, hidden]);
  const field = <CodeEditor singleLine label={label} language="text" value={value} onChange={onChange} extensions={extensions} placeholder={placeholder} title={title} class={cls} />;
  if (!masked) return field;
  return (
    <span class="masked-input">
      {field}
      <button type="button" class="button small" aria-pressed={shown.value} aria-label={shown.value ? `Hide ${label}` : `Show ${label}`} onClick={() => (shown.value = !shown.value)}>
        {shown.value ? 'Hide' : 'Show'}
      </button>
    </span>
  );
}

/** The variables of `project` for a multi-line code editor (a request body). */
export function useVariableSupport(project: string, more: readonly CompletionSource[] = NO_SOURCES) {
  const given = useContext(FieldScope);
  return useMemo(() => variableSupport(given ?? scopeOf(project), more), [given, project, more]);
}

const NO_SOURCES: readonly CompletionSource[] = [];
