/**
 * dispatch.ts of one operation: the text, the type checker's findings marked on their lines and
 * listed below (misspelt names, request fields that do not exist, respond() naming a response
 * the operation lacks), and Apply script, which saves it.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { CodeEditor, type CodeEditorHandle, type CodeMark } from '../../code/CodeEditor.js';
import type { ResOf } from '../../../../../protocol/messages.js';
import type { MockOperation } from '../../../../../protocol/model/mock.js';
import { call } from '../../state/rpc.js';
import { editOperation, save, type MockTabState } from './mock-tabs.js';

type Diagnostic = ResOf<'mocks.diagnose'>[number];

const CHECK_AFTER_MS = 350;

export function starterScript(op: MockOperation): string {
  const first = op.responses[0]?.name ?? 'Default';
  return `// Picks the response to send; without respond(), "${op.defaultResponse}" is sent.
// request: operation, method, path, query, headers, pathParams, body
// Also: responses, scenarios.get(name) / scenarios.set(name, state), log(...)
const kind = request.query['kind']?.[0];
log('kind is', kind);
respond(${JSON.stringify(first)});
`;
}

export function ScriptEditor({ state, op }: { state: MockTabState; op: MockOperation }) {
  const diagnostics = useSignal<Diagnostic[] | null>(null);
  const checkError = useSignal('');
  const editor = useRef<CodeEditorHandle | null>(null);
  const source = op.script ?? '';
  const names = op.responses.map((r) => r.name);
  const namesKey = JSON.stringify(names);

  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      call('mocks.diagnose', { source, responseNames: names })
        .then((found) => {
          if (stale) return;
          diagnostics.value = found;
          checkError.value = '';
        })
        .catch((err: Error) => {
          if (!stale) checkError.value = err.message;
        });
    }, CHECK_AFTER_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [source, namesKey]);

  const savedScript = state.saved.value?.operations.find((o) => o.id === op.id)?.script;
  const applied = savedScript === op.script;
  const errors = (diagnostics.value ?? []).filter((d) => d.severity === 'error').length;

  const jump = (d: Diagnostic) => editor.current?.reveal({ line: d.line });
  const marks = useMemo<CodeMark[]>(() => (diagnostics.value ?? []).map((d) => ({ severity: d.severity, message: d.message, line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn })), [diagnostics.value]);

  return (
    <section class="script-editor" aria-label="Dispatch script">
      <div class="script-head">
        <h4>
          dispatch.ts <span class="muted">· runs in a sandbox with one second to finish, no network, files or secrets</span>
        </h4>
        <span class="spacer" />
        <span class={`script-status ${errors > 0 ? 'err' : diagnostics.value ? 'ok' : ''}`}>
          {checkError.value ? 'Not checked' : !diagnostics.value ? 'Checking…' : errors > 0 ? `${errors} problem${errors === 1 ? '' : 's'}` : 'No problems'}
        </span>
        <button class="button small primary" disabled={applied || state.busy.value !== ''} onClick={() => void save(state)}>
          {applied ? 'Applied' : 'Apply script'}
        </button>
      </div>
      <CodeEditor
        class="script-code"
        label="Dispatch script"
        language="typescript"
        value={source}
        marks={marks}
        handle={(h) => (editor.current = h)}
        onChange={(script) => editOperation(state, op.id, (o) => ({ ...o, script }))}
      />
      {checkError.value && <p class="inline-error">The script could not be checked: {checkError.value}</p>}
      {(diagnostics.value ?? []).length > 0 && (
        <ul class="script-diagnostics" aria-label="Script problems">
          {diagnostics.value!.map((d, i) => (
            <li key={i} class={d.severity} onClick={() => jump(d)}>
              <code>
                {d.line}:{d.column}
              </code>{' '}
              {d.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
