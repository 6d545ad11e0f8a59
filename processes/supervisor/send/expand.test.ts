/**
 * The send and the editor agree on what a `${name}` is: for any scope and any text, the names the
 * editor lists under the URL (processes/ui/src/state/variable-scope.ts) are the names the send's
 * Expander leaves unresolved, in the same order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../protocol/model/common.js';
import { emptyWorkspace } from '../../../protocol/model/workspace.js';
import { editorScope, unresolvedIn } from '../../ui/src/state/variable-scope.js';
import { Expander } from './expand.js';

const names = ['a', 'b', 'c', 'host', 'secret:s1', 'secret:s2'];
const piece = fc.oneof(
  fc.constantFrom(...names).map((name) => `\${${name}}`),
  fc.constantFrom('x', '/', '{a}', '$', '${', '}', ' '),
);
const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const rows = fc.array(fc.record({ name: fc.constantFrom('a', 'b', 'c', 'host', ''), value: text, enabled: fc.boolean() }), { maxLength: 5 });

describe('the editor and the send agree on unresolved names', () => {
  it('for any environment, properties, globals, stored secrets and texts', () => {
    fc.assert(
      fc.property(rows, rows, rows, fc.subarray(['s1', 's2']), fc.array(text, { maxLength: 4 }), (environment: Row[], properties: Row[], globals: Row[], stored: string[], texts: string[]) => {
        const expander = new Expander({ environment, project: properties, globals, secrets: new Map(stored.map((name) => [name, `value of ${name}`])) });
        for (const t of texts) expander.expand(t);
        const ws = { ...emptyWorkspace(), environments: [{ id: 'e_1', name: 'Env', variables: environment }], activeEnvironment: 'e_1', globals, secrets: stored };
        expect(unresolvedIn(texts, editorScope(ws, properties))).toEqual([...expander.unresolved]);
      }),
      { numRuns: 500 },
    );
  });
});
