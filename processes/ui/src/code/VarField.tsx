/**
 * A one-line field where `${name}` is live: highlighted as resolved or not, its value (masked for
 * a secret) and source on hover, the names in scope offered after `${`. For the URL, headers,
 * query and form rows and auth fields of a request in `project`.
 */
import type { CompletionSource } from '@codemirror/autocomplete';
import { useMemo } from 'preact/hooks';
import { CodeEditor } from './CodeEditor.js';
import { variableSupport } from './variables.js';
import { scopeOf } from '../state/variable-scope.js';

export interface VarFieldProps {
  label: string;
  value: string;
  onChange(text: string): void;
  /** The project whose variables are in scope. */
  project: string;
  placeholder?: string;
  title?: string;
  class?: string;
}

export function VarField({ label, value, onChange, project, placeholder, title, class: cls }: VarFieldProps) {
  const extensions = useMemo(() => variableSupport(scopeOf(project)), [project]);
  return <CodeEditor singleLine label={label} language="text" value={value} onChange={onChange} extensions={extensions} placeholder={placeholder} title={title} class={cls} />;
}

/** The variables of `project` for a multi-line code editor (a request body). */
export function useVariableSupport(project: string, more: readonly CompletionSource[] = NO_SOURCES) {
  return useMemo(() => variableSupport(scopeOf(project), more), [project, more]);
}

const NO_SOURCES: readonly CompletionSource[] = [];
