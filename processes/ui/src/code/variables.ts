/**
 * `${name}` in any code editor or field: highlighted as resolved or unresolved, hover shows the
 * value (masked for a secret) and where it comes from, and typing `${` offers the names in scope.
 * The scope is a signal: switching the environment re-marks every editor at once.
 */
import type { Extension } from '@codemirror/state';
import { Decoration, EditorView, MatchDecorator, ViewPlugin, hoverTooltip, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { autocompletion, type CompletionContext, type CompletionResult, type CompletionSource } from '@codemirror/autocomplete';
import type { ReadonlySignal } from '@preact/signals';
import { describeSource, resolve, type EditorScope, type Resolution } from '../state/variable-scope.js';

const MASK = '••••••••';

/**
 * `more`: other completion sources of the same editor (a gRPC message's fields): one autocompletion
 * holds them all. `masked`: the field holds a secret (a password, a token), so every value it
 * offers or shows on hover is masked too: what a variable stands for there is a credential.
 */
export function variableSupport(scope: ReadonlySignal<EditorScope>, more: readonly CompletionSource[] = [], { masked = false }: { masked?: boolean } = {}): Extension {
  const marks = new MatchDecorator({
    regexp: /\$\{([^{}\n]+)\}/g,
    decoration: (match) => Decoration.mark({ class: resolve(match[1]!, scope.value).kind === 'missing' ? 'cm-var cm-var-missing' : 'cm-var cm-var-ok' }),
  });
  const highlighter = ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      private readonly unsubscribe: () => void;
      constructor(private readonly view: EditorView) {
        this.decorations = marks.createDeco(view);
        let first = true;
        // A new scope (an environment picked, a property edited) re-marks the text.
        this.unsubscribe = scope.subscribe(() => {
          if (first) return void (first = false);
          this.decorations = marks.createDeco(this.view);
          queueMicrotask(() => this.view.dom.isConnected && this.view.dispatch({}));
        });
      }
      update(update: ViewUpdate) {
        if (update.docChanged || update.viewportChanged) this.decorations = marks.updateDeco(update, this.decorations);
      }
      destroy() {
        this.unsubscribe();
      }
    },
    { decorations: (v) => v.decorations },
  );

  const hover = hoverTooltip((view, pos) => {
    const line = view.state.doc.lineAt(pos);
    for (const match of line.text.matchAll(/\$\{([^{}\n]+)\}/g)) {
      const from = line.from + match.index!;
      const to = from + match[0].length;
      if (pos < from || pos > to) continue;
      return { pos: from, end: to, above: true, create: () => ({ dom: tooltipFor(match[1]!, scope.value, masked) }) };
    }
    return null;
  });

  const complete = (context: CompletionContext): CompletionResult | null => {
    const before = context.matchBefore(/\$\{[^{}\s]*/);
    if (!before) return null;
    const s = scope.value;
    const after = context.state.sliceDoc(context.pos, context.pos + 1);
    const close = after === '}' ? '' : '}';
    const options = [
      ...[...s.values].map(([name, found]) => {
        const r = resolve(name, s) as Extract<Resolution, { kind: 'value' }>;
        return { label: name, detail: describeSource(r, s), info: r.secret || masked ? MASK : found.value, apply: `${name}${close}`, type: 'variable' };
      }),
      ...[...s.secrets].map((name) => ({ label: `secret:${name}`, detail: 'secret', info: MASK, apply: `secret:${name}${close}`, type: 'constant' })),
    ];
    return { from: before.from + 2, options, validFor: /^[^{}\s]*$/ };
  };

  return [highlighter, hover, autocompletion({ override: [complete, ...more], activateOnTyping: true }), variableTheme];
}

function tooltipFor(name: string, scope: EditorScope, masked: boolean): HTMLElement {
  const dom = document.createElement('div');
  dom.className = 'cm-var-tooltip';
  const head = document.createElement('code');
  head.textContent = `\${${name}}`;
  const body = document.createElement('div');
  const r = resolve(name, scope);
  if (r.kind === 'missing') {
    body.className = 'cm-var-missing-text';
    body.textContent = `Unresolved: ${r.why}. Not sent until it is.`;
  } else if (r.kind === 'secret') {
    body.textContent = `${MASK}  from the secret ${r.name}`;
  } else {
    body.textContent = `${r.value === '' ? '(empty)' : r.secret || masked ? MASK : r.value}  from ${describeSource(r, scope)}`;
  }
  dom.append(head, body);
  return dom;
}

const variableTheme = EditorView.baseTheme({
  '.cm-var': { borderRadius: '3px', padding: '0 1px' },
  // The mark's colour over a token's (a `${name}` inside a JSON string is a variable first).
  '.cm-var-ok *, .cm-var-missing *': { color: 'inherit' },
  '.cm-var-ok': { color: 'var(--accent)', backgroundColor: 'color-mix(in srgb, var(--accent) 12%, transparent)' },
  '.cm-var-missing': { color: 'var(--danger)', backgroundColor: 'color-mix(in srgb, var(--danger) 12%, transparent)', textDecoration: 'underline wavy color-mix(in srgb, var(--danger) 60%, transparent)' },
  '.cm-var-tooltip': { padding: '6px 10px', maxWidth: '48ch', fontSize: '12px', display: 'flex', flexDirection: 'column', gap: '4px' },
  '.cm-var-tooltip > div': { overflowWrap: 'anywhere' },
  '.cm-var-missing-text': { color: 'var(--danger)' },
});
