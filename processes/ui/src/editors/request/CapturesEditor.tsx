/**
 * The request's Captures tab (docs/captures.md): variables set from its response for the requests
 * after it, without a script. A row names the variable, where its value is read (a JSONPath or
 * XPath over the body, a header, the status or a cookie) and where it goes: this session (held
 * in memory, the default) or the active environment, which the user picks row by row.
 */
import { CAPTURE_SOURCES, blankCapture, type Capture, type CaptureScope, type CaptureSource } from '../../../../../protocol/model/capture.js';
import { ChoiceCell, RuleRows } from './RuleRows.js';

const PLACEHOLDERS: Readonly<Record<CaptureSource, string>> = {
  jsonpath: '$.token',
  xpath: '//*:token',
  header: 'Location',
  status: '',
  cookie: 'sessionid',
};

const SCOPES: readonly (readonly [CaptureScope, string])[] = [
  ['session', 'This session'],
  ['environment', 'Active environment'],
];

export function CapturesEditor({ captures, onChange }: { captures: Capture[]; onChange(captures: Capture[]): void }) {
  return (
    <RuleRows
      rules={captures}
      onChange={onChange}
      noun="capture"
      switchLabel={(n) => `Use capture ${n}`}
      kind="captures"
      blank={blankCapture}
      empty={<>No captures. Add one to set a variable from each response of this request (a token from its body, a header, the status or a cookie), for the requests after it to use as {'${name}'}.</>}
      head={
        <tr>
          <th />
          <th>Variable</th>
          <th>From</th>
          <th>Expression</th>
          <th>Into</th>
          <th />
        </tr>
      }
      note={
        <>
          This session keeps a value in memory until Parley quits; the active environment keeps it (a credential, such as a token or a cookie, in the keychain). A credential's value is never
          shown, saved in the request or recorded in History.
        </>
      }
      cells={(c, index, update) => {
        const setSource = (source: CaptureSource) => {
          // The editor's `$.` starts a JSONPath only; what the user typed is kept.
          const expression = source === 'status' ? '' : source === 'jsonpath' && c.expression === '' ? '$.' : c.source === 'jsonpath' && c.expression === '$.' ? '' : c.expression;
          update({ source, expression });
        };
        return (
          <>
            <td>
              <input class="cell-input mono" aria-label={`Capture ${index + 1} variable`} placeholder="name" value={c.name} onInput={(e) => update({ name: (e.target as HTMLInputElement).value })} />
            </td>
            <ChoiceCell label={`Capture ${index + 1} source`} value={c.source} options={CAPTURE_SOURCES} onChange={setSource} />
            <td>
              {c.source === 'status' ? (
                <span class="cell-fixed muted">status code</span>
              ) : (
                <input class="cell-input mono" aria-label={`Capture ${index + 1} expression`} placeholder={PLACEHOLDERS[c.source]} value={c.expression} onInput={(e) => update({ expression: (e.target as HTMLInputElement).value })} />
              )}
            </td>
            <ChoiceCell label={`Capture ${index + 1} scope`} value={c.scope} options={SCOPES} onChange={(scope: CaptureScope) => update({ scope })} />
          </>
        );
      }}
    />
  );
}
