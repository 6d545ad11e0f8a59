/**
 * The row editing the Assertions and Captures tabs share: a table of rules, each switched on or
 * off and removable, what to say when there are none, and Add with a note under it. Each tab gives
 * only its own cells (`cells`) and what a new rule is (`blank`).
 */
import type { ComponentChildren } from 'preact';
import { CloseIcon } from '../../components/Icons.js';

export interface RuleRowsProps<T extends { enabled: boolean }> {
  rules: T[];
  onChange(rules: T[]): void;
  /** "assertion", "capture": names the table's controls ("Remove capture 2", "Add capture"). */
  noun: string;
  /** The switch's name for rule `n` (1-based): "Check assertion 2", "Use capture 2". */
  switchLabel(n: number): string;
  /** The editor's class ("captures-editor"); its table's is the same with "-table". */
  kind: string;
  /** Shown instead of the table when there is no rule. */
  empty: ComponentChildren;
  /** The table's header row, if it has one. */
  head?: ComponentChildren;
  /** The rule's own cells, between its switch and its Remove button. */
  cells(rule: T, index: number, update: (patch: Partial<T>) => void): ComponentChildren;
  blank(): T;
  note: ComponentChildren;
}

export function RuleRows<T extends { enabled: boolean }>({ rules, onChange, noun, switchLabel, kind, empty, head, cells, blank, note }: RuleRowsProps<T>) {
  const update = (index: number, patch: Partial<T>) => onChange(rules.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const title = `${noun[0]!.toUpperCase()}${noun.slice(1)}s`;
  return (
    <div class={`${kind}-editor`}>
      {rules.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <table class={`rows-table ${kind}-table`} aria-label={title}>
          {head && <thead>{head}</thead>}
          <tbody>
            {rules.map((rule, index) => (
              <tr key={index} class={rule.enabled ? '' : 'disabled'}>
                <td class="cell-check">
                  <input type="checkbox" aria-label={switchLabel(index + 1)} checked={rule.enabled} onChange={(e) => update(index, { enabled: (e.target as HTMLInputElement).checked } as Partial<T>)} />
                </td>
                {cells(rule, index, (patch) => update(index, patch))}
                <td class="cell-action">
                  <button class="icon-button" aria-label={`Remove ${noun} ${index + 1}`} onClick={() => onChange(rules.filter((_, i) => i !== index))}>
                    <CloseIcon />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="assertions-actions">
        <button class="button small" onClick={() => onChange([...rules, blank()])}>
          Add {noun}
        </button>
        <span class="muted">{note}</span>
      </div>
    </div>
  );
}

/** A rule's cell that picks one of `options` ([value, label]): a source, an operator. */
export function ChoiceCell<V extends string>({ label, value, options, onChange }: { label: string; value: V; options: readonly (readonly [V, string])[]; onChange(value: V): void }) {
  return (
    <td class="cell-select">
      <select aria-label={label} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value as V)}>
        {options.map(([id, text]) => (
          <option key={id} value={id}>
            {text}
          </option>
        ))}
      </select>
    </td>
  );
}
