/**
 * Headers or variables a request (or a folder) takes from the folders above it, read-only, each
 * with where it is set; one that a nearer row of the same name replaces is shown struck through,
 * saying what replaces it. They are edited in the folder's own settings (docs/project-files.md
 * "Folder settings").
 */
import type { InheritedSettings } from '../../../../protocol/model/project.js';
import { sourceName } from './AuthEditor.js';

export interface InheritedRowsProps {
  /** "Header", "Variable": names the table and its rows. */
  label: string;
  rows: InheritedSettings['headers'];
  /** Names set here, which replace an inherited row of the same name. */
  replacedBy: ReadonlySet<string>;
  /** How names compare (headers: case-insensitively). */
  nameKey?: (name: string) => string;
}

export function InheritedRows({ label, rows, replacedBy, nameKey = (name) => name }: InheritedRowsProps) {
  if (rows.length === 0) return null;
  return (
    <div class="inherited-rows">
      <h4>Inherited</h4>
      <table class="rows-table readonly" aria-label={`Inherited ${label.toLowerCase()}s`}>
        <tbody>
          {rows.map((row, index) => {
            const replaced = replacedBy.has(nameKey(row.name));
            return (
              <tr key={index} class={replaced ? 'replaced' : ''} aria-label={`${label} ${row.name}`}>
                <td class="cell-text">{row.name}</td>
                <td class="cell-text mono">{row.value}</td>
                <td class="cell-source muted">{replaced ? `replaced here; from ${sourceName(row.from)}` : `from ${sourceName(row.from)}`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
