/**
 * dispatch.ts of one operation: the text, the type checker's findings marked on their lines and
 * listed below (misspelt names, request fields that do not exist, respond() naming a response
 * the operation lacks), and Apply script, which saves it.
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
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
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
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

  const lines = source.split('\n');
  const byLine = new Map<number, Diagnostic[]>();
  for (const d of diagnostics.value ?? []) byLine.set(d.line, [...(byLine.get(d.line) ?? []), d]);
  const savedScript = state.saved.value?.operations.find((o) => o.id === op.id)?.script;
  const applied = savedScript === op.script;
  const errors = (diagnostics.value ?? []).filter((d) => d.severity === 'error').length;

  const jump = (d: Diagnostic) => {
    const el = area.current;
    if (!el) return;
    const offset = (line: number, column: number) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
    el.focus();
    el.setSelectionRange(offset(d.line, d.column), Math.max(offset(d.line, d.column) + 1, offset(d.endLine, d.endColumn)));
  };

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
      <div class="script-code">
        <div class="script-gutter mono" ref={gutter} aria-hidden="true">
          {lines.map((_, i) => (
            <div key={i} class={byLine.has(i + 1) ? 'has-problem' : ''} title={byLine.get(i + 1)?.map((d) => d.message).join('\n')}>
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          ref={area}
          class="code script-text"
          aria-label="Dispatch script"
          spellcheck={false}
          value={source}
          rows={Math.min(18, Math.max(6, lines.length + 1))}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = (e.target as HTMLTextAreaElement).scrollTop;
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Tab') return;
            e.preventDefault();
            const el = e.target as HTMLTextAreaElement;
            el.setRangeText('  ', el.selectionStart, el.selectionEnd, 'end');
            el.dispatchEvent(new Event('input', { bubbles: true }));
          }}
          onInput={(e) => editOperation(state, op.id, (o) => ({ ...o, script: (e.target as HTMLTextAreaElement).value }))}
        />
      </div>
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
