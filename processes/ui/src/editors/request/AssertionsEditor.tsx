/**
 * The request's Assertions tab: what its response must satisfy (the status, the response time,
 * or a JSONPath into a JSON body, compared by an operator with a value; with a GraphQL body,
 * its answer's `errors` being empty too). Checked after every Send (the response's Assertions
 * view) and by `parley run`.
 */
import { OPS_BY_SOURCE, OP_LABELS, type Assertion, type AssertionOp, type AssertionSource } from '../../../../../protocol/model/assertion.js';
import { CloseIcon } from '../../components/Icons.js';

const SOURCES: [AssertionSource, string][] = [
  ['status', 'Status'],
  ['time', 'Response time (ms)'],
  ['body', 'JSON body path'],
  ['graphqlErrors', 'GraphQL errors'],
];

/** What a source reads, where a path would be. */
const SUBJECTS: Readonly<Record<Exclude<AssertionSource, 'body'>, string>> = { status: 'status code', time: 'milliseconds', graphqlErrors: 'the answer\'s errors' };

/** `graphql`: the request has a GraphQL body, so its answer's errors may be asserted on (an assertion already on them is shown whatever the body). */
export function AssertionsEditor({ assertions, graphql, onChange }: { assertions: Assertion[]; graphql: boolean; onChange(assertions: Assertion[]): void }) {
  const sources = SOURCES.filter(([id]) => id !== 'graphqlErrors' || graphql || assertions.some((a) => a.source === id));
  const update = (index: number, patch: Partial<Assertion>) => onChange(assertions.map((a, i) => (i === index ? { ...a, ...patch } : a)));
  const add = () => onChange([...assertions, { enabled: true, source: 'status', path: '', op: 'equals', value: '200' }]);
  return (
    <div class="assertions-editor">
      {assertions.length === 0 ? (
        <p class="muted">No assertions. Add one to check every response of this request: its status, its response time, or a value in its JSON body.</p>
      ) : (
        <table class="rows-table assertions-table" aria-label="Assertions">
          <tbody>
            {assertions.map((a, index) => {
              const setSource = (source: AssertionSource) => {
                const ops = OPS_BY_SOURCE[source];
                update(index, { source, op: ops.includes(a.op) ? a.op : ops[0]!, ...(source === 'body' && a.path === '' ? { path: '$.' } : {}) });
              };
              return (
                <tr key={index} class={a.enabled ? '' : 'disabled'}>
                  <td class="cell-check">
                    <input type="checkbox" aria-label={`Check assertion ${index + 1}`} checked={a.enabled} onChange={(e) => update(index, { enabled: (e.target as HTMLInputElement).checked })} />
                  </td>
                  <td class="cell-select">
                    <select aria-label={`Assertion ${index + 1} source`} value={a.source} onChange={(e) => setSource((e.target as HTMLSelectElement).value as AssertionSource)}>
                      {sources.map(([id, label]) => (
                        <option key={id} value={id}>
                          {label}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {a.source === 'body' ? (
                      <input class="cell-input mono" aria-label={`Assertion ${index + 1} JSONPath`} placeholder="$.items[0].id" value={a.path} onInput={(e) => update(index, { path: (e.target as HTMLInputElement).value })} />
                    ) : (
                      <span class="cell-fixed muted">{SUBJECTS[a.source]}</span>
                    )}
                  </td>
                  <td class="cell-select">
                    <select aria-label={`Assertion ${index + 1} operator`} value={a.op} onChange={(e) => update(index, { op: (e.target as HTMLSelectElement).value as AssertionOp })}>
                      {OPS_BY_SOURCE[a.source].map((op) => (
                        <option key={op} value={op}>
                          {OP_LABELS[op]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {a.op === 'exists' || a.op === 'empty' ? (
                      <span class="cell-fixed muted">—</span>
                    ) : (
                      <input
                        class="cell-input mono"
                        aria-label={`Assertion ${index + 1} value`}
                        placeholder={a.op === 'matches' ? 'regular expression' : a.source === 'body' ? 'JSON or text, ${name} expands' : 'number'}
                        value={a.value}
                        onInput={(e) => update(index, { value: (e.target as HTMLInputElement).value })}
                      />
                    )}
                  </td>
                  <td class="cell-action">
                    <button class="icon-button" aria-label={`Remove assertion ${index + 1}`} onClick={() => onChange(assertions.filter((_, i) => i !== index))}>
                      <CloseIcon />
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div class="assertions-actions">
        <button class="button small" onClick={add}>
          Add assertion
        </button>
        <span class="muted">
          A value is read as JSON when it parses (<code>42</code>, <code>true</code>, <code>"text"</code>), else as text; several matches of a path compare as an array.
        </span>
      </div>
    </div>
  );
}
