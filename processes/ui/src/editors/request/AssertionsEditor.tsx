/**
 * The request's Assertions tab: what its response must satisfy (the status, the response time,
 * or a JSONPath into a JSON body, compared by an operator with a value; with a GraphQL body,
 * its answer's `errors` being empty too). Checked after every Send (the response's Assertions
 * view) and by `parley run`.
 */
import { OPS_BY_SOURCE, OP_LABELS, type Assertion, type AssertionOp, type AssertionSource } from '../../../../../protocol/model/assertion.js';
import { ChoiceCell, RuleRows } from './RuleRows.js';

const SOURCES: [AssertionSource, string][] = [
  ['status', 'Status'],
  ['time', 'Response time (ms)'],
  ['body', 'JSON body path'],
  ['graphqlErrors', 'GraphQL errors'],
];

/** What a source reads, where a path would be. */
const SUBJECTS: Readonly<Record<Exclude<AssertionSource, 'body'>, string>> = { status: 'status code', time: 'milliseconds', graphqlErrors: 'the answer\'s errors' };

const blankAssertion = (): Assertion => ({ enabled: true, source: 'status', path: '', op: 'equals', value: '200' });

/** `graphql`: the request has a GraphQL body, so its answer's errors may be asserted on (an assertion already on them is shown whatever the body). */
export function AssertionsEditor({ assertions, graphql, onChange }: { assertions: Assertion[]; graphql: boolean; onChange(assertions: Assertion[]): void }) {
  const sources = SOURCES.filter(([id]) => id !== 'graphqlErrors' || graphql || assertions.some((a) => a.source === id));
  return (
    <RuleRows
      rules={assertions}
      onChange={onChange}
      noun="assertion"
      switchLabel={(n) => `Check assertion ${n}`}
      kind="assertions"
      blank={blankAssertion}
      empty="No assertions. Add one to check every response of this request: its status, its response time, or a value in its JSON body."
      note={
        <>
          A value is read as JSON when it parses (<code>42</code>, <code>true</code>, <code>"text"</code>), else as text; several matches of a path compare as an array.
        </>
      }
      cells={(a, index, update) => {
        const setSource = (source: AssertionSource) => {
          const ops = OPS_BY_SOURCE[source];
          update({ source, op: ops.includes(a.op) ? a.op : ops[0]!, ...(source === 'body' && a.path === '' ? { path: '$.' } : {}) });
        };
        return (
          <>
            <ChoiceCell label={`Assertion ${index + 1} source`} value={a.source} options={sources} onChange={setSource} />
            <td>
              {a.source === 'body' ? (
                <input class="cell-input mono" aria-label={`Assertion ${index + 1} JSONPath`} placeholder="$.items[0].id" value={a.path} onInput={(e) => update({ path: (e.target as HTMLInputElement).value })} />
              ) : (
                <span class="cell-fixed muted">{SUBJECTS[a.source]}</span>
              )}
            </td>
            <ChoiceCell label={`Assertion ${index + 1} operator`} value={a.op} options={OPS_BY_SOURCE[a.source].map((op) => [op, OP_LABELS[op]] as const)} onChange={(op: AssertionOp) => update({ op })} />
            <td>
              {a.op === 'exists' || a.op === 'empty' ? (
                <span class="cell-fixed muted">—</span>
              ) : (
                <input
                  class="cell-input mono"
                  aria-label={`Assertion ${index + 1} value`}
                  placeholder={a.op === 'matches' ? 'regular expression' : a.source === 'body' ? 'JSON or text, ${name} expands' : 'number'}
                  value={a.value}
                  onInput={(e) => update({ value: (e.target as HTMLInputElement).value })}
                />
              )}
            </td>
          </>
        );
      }}
    />
  );
}
