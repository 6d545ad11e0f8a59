/** An editable table of name/value rows with enabled switches, as in every API client. */
import type { Row } from '../../../../protocol/model/common.js';
import { CloseIcon } from './Icons.js';
import type { ReadonlySignal } from '@preact/signals';
import { VarField } from '../code/VarField.js';
import type { EditorScope } from '../state/variable-scope.js';

export interface RowsTableProps {
  rows: Row[];
  onChange(rows: Row[]): void;
  namePlaceholder?: string;
  valuePlaceholder?: string;
  /** Names that cannot be renamed or removed (path parameters). */
  fixedNames?: boolean;
  /** No enabled column (path parameters are always sent). */
  noToggle?: boolean;
  label: string;
  /** Masks values, e.g. secret-looking rows. */
  maskValue?: (row: Row) => boolean;
  /** The project whose `${variables}` the values show live (VarField); plain inputs without it or a `scope`. */
  project?: string;
  /** The scope the values' `${variables}` resolve in, for rows outside a project (an environment's). */
  scope?: ReadonlySignal<EditorScope>;
}

export function RowsTable({ rows, onChange, namePlaceholder = 'Name', valuePlaceholder = 'Value', fixedNames, noToggle, label, maskValue, project, scope }: RowsTableProps) {
  const update = (index: number, patch: Partial<Row>) => onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const remove = (index: number) => onChange(rows.filter((_, i) => i !== index));
  // A trailing blank row invites the next entry; typing in it adds a row.
  const shown = fixedNames ? rows : [...rows, { name: '', value: '', enabled: true }];
  return (
    <table class="rows-table name-value" aria-label={label}>
      <tbody>
        {shown.map((row, index) => {
          const ghost = index === rows.length;
          const set = (patch: Partial<Row>) => (ghost ? onChange([...rows, { ...row, ...patch }]) : update(index, patch));
          return (
            <tr key={index} class={`${ghost ? 'ghost' : ''}${!row.enabled ? ' disabled' : ''}`}>
              {!noToggle && (
                <td class="cell-check">
                  {!ghost && <input type="checkbox" aria-label={`Send ${row.name || 'row'}`} checked={row.enabled} onChange={(e) => set({ enabled: (e.target as HTMLInputElement).checked })} />}
                </td>
              )}
              <td>
                <input
                  class="cell-input"
                  aria-label={`${label} name`}
                  placeholder={namePlaceholder}
                  value={row.name}
                  readOnly={fixedNames}
                  onInput={(e) => set({ name: (e.target as HTMLInputElement).value })}
                />
              </td>
              <td>
                {project !== undefined || scope !== undefined ? (
                  <VarField
                    class="cell-input"
                    label={`${label} value${row.name ? ` of ${row.name}` : ''}`}
                    placeholder={valuePlaceholder}
                    value={row.value}
                    project={project}
                    scope={scope}
                    masked={!!maskValue?.(row)}
                    onChange={(value) => set({ value })}
                  />
                ) : (
                  <input
                    class="cell-input"
                    aria-label={`${label} value${row.name ? ` of ${row.name}` : ''}`}
                    placeholder={valuePlaceholder}
                    type={maskValue?.(row) ? 'password' : 'text'}
                    value={row.value}
                    onInput={(e) => set({ value: (e.target as HTMLInputElement).value })}
                  />
                )}
              </td>
              <td class="cell-action">
                {!ghost && !fixedNames && (
                  <button class="icon-button" aria-label={`Remove ${row.name || 'row'}`} onClick={() => remove(index)}>
                    <CloseIcon />
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
