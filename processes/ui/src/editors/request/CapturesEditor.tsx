/**
 * The request's Captures tab (docs/captures.md): variables set from its response for the requests
 * after it, without a script. A row names the variable, where its value is read (a JSONPath or
 * XPath over the body, a header, the status or a cookie) and where it goes: this session (held
 * in memory, the default) or the active environment, which the user picks row by row.
 */
import { CAPTURE_SOURCES, blankCapture, type Capture, type CaptureScope, type CaptureSource } from '../../../../../protocol/model/capture.js';
import { CloseIcon } from '../../components/Icons.js';

const PLACEHOLDERS: Readonly<Record<CaptureSource, string>> = {
  jsonpath: '$.token',
  xpath: '//*:token',
  header: 'Location',
  status: '',
  cookie: 'sessionid',
};

export function CapturesEditor({ captures, onChange }: { captures: Capture[]; onChange(captures: Capture[]): void }) {
  const update = (index: number, patch: Partial<Capture>) => onChange(captures.map((c, i) => (i === index ? { ...c, ...patch } : c)));
  const setSource = (index: number, c: Capture, source: CaptureSource) => {
    // The editor's `$.` starts a JSONPath only; what the user typed is kept.
    const expression = source === 'status' ? '' : source === 'jsonpath' && c.expression === '' ? '$.' : c.source === 'jsonpath' && c.expression === '$.' ? '' : c.expression;
    update(index, { source, expression });
  };
  return (
    <div class="captures-editor">
      {captures.length === 0 ? (
        <p class="muted">No captures. Add one to set a variable from each response of this request (a token from its body, a header, the status or a cookie), for the requests after it to use as {'${name}'}.</p>
      ) : (
        <table class="rows-table captures-table" aria-label="Captures">
          <thead>
            <tr>
              <th />
              <th>Variable</th>
              <th>From</th>
              <th>Expression</th>
              <th>Into</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {captures.map((c, index) => (
              <tr key={index} class={c.enabled ? '' : 'disabled'}>
                <td class="cell-check">
                  <input type="checkbox" aria-label={`Use capture ${index + 1}`} checked={c.enabled} onChange={(e) => update(index, { enabled: (e.target as HTMLInputElement).checked })} />
                </td>
                <td>
                  <input class="cell-input mono" aria-label={`Capture ${index + 1} variable`} placeholder="name" value={c.name} onInput={(e) => update(index, { name: (e.target as HTMLInputElement).value })} />
                </td>
                <td class="cell-select">
                  <select aria-label={`Capture ${index + 1} source`} value={c.source} onChange={(e) => setSource(index, c, (e.target as HTMLSelectElement).value as CaptureSource)}>
                    {CAPTURE_SOURCES.map(([id, label]) => (
                      <option key={id} value={id}>
                        {label}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {c.source === 'status' ? (
                    <span class="cell-fixed muted">status code</span>
                  ) : (
                    <input
                      class="cell-input mono"
                      aria-label={`Capture ${index + 1} expression`}
                      placeholder={PLACEHOLDERS[c.source]}
                      value={c.expression}
                      onInput={(e) => update(index, { expression: (e.target as HTMLInputElement).value })}
                    />
                  )}
                </td>
                <td class="cell-select">
                  <select aria-label={`Capture ${index + 1} scope`} value={c.scope} onChange={(e) => update(index, { scope: (e.target as HTMLSelectElement).value as CaptureScope })}>
                    <option value="session">This session</option>
                    <option value="environment">Active environment</option>
                  </select>
                </td>
                <td class="cell-action">
                  <button class="icon-button" aria-label={`Remove capture ${index + 1}`} onClick={() => onChange(captures.filter((_, i) => i !== index))}>
                    <CloseIcon />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="assertions-actions">
        <button class="button small" onClick={() => onChange([...captures, blankCapture()])}>
          Add capture
        </button>
        <span class="muted">
          This session keeps a value in memory until Parley quits; the active environment keeps it (a credential, such as a token or a cookie, in the keychain). A credential's value is never
          shown, saved in the request or recorded in History.
        </span>
      </div>
    </div>
  );
}
