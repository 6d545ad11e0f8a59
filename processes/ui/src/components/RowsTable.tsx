/** An editable table of name/value rows with enabled switches, as in every API client. */
import type { Row } from '../../../../protocol/model/common.js';
import { CloseIcon } from './Icons.js';

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
  /** Where the blank row for the next entry sits (default: last); typing in it adds the row there. */
  ghostAt?: number;
}

export function RowsTable({ rows, onChange, namePlaceholder = 'Name', valuePlaceholder = 'Value', fixedNames, noToggle, label, maskValue, ghostAt }: RowsTableProps) {
  const update = (index: number, patch: Partial<Row>) => onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const remove = (index: number) => onChange(rows.filter((_, i) => i !== index));
  // A blank row invites the next entry; typing in it adds a row where it stands, so the row
  // typed into keeps its place (and its focus).
  const at = fixedNames ? -1 : Math.max(0, Math.min(rows.length, ghostAt ?? rows.length));
  const blank: Row = { name: '', value: '', enabled: true };
  const shown = at < 0 ? rows : [...rows.slice(0, at), blank, ...rows.slice(at)];
  return (
    <table class="rows-table" aria-label={label}>
      <tbody>
        {shown.map((row, shownIndex) => {
          const ghost = shownIndex === at;
          const index = at >= 0 && shownIndex > at ? shownIndex - 1 : shownIndex;
          const set = (patch: Partial<Row>) => (ghost ? onChange([...rows.slice(0, at), { ...row, ...patch }, ...rows.slice(at)]) : update(index, patch));
          return (
            <tr key={shownIndex} class={`${ghost ? 'ghost' : ''}${!row.enabled ? ' disabled' : ''}`}>
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
                <input
                  class="cell-input"
                  aria-label={`${label} value${row.name ? ` of ${row.name}` : ''}`}
                  placeholder={valuePlaceholder}
                  type={maskValue?.(row) ? 'password' : 'text'}
                  value={row.value}
                  onInput={(e) => set({ value: (e.target as HTMLInputElement).value })}
                />
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
