/**
 * A secret field's text drawn as dots, as a password input draws it, except its `${name}`
 * references (a reference is not the secret, and it keeps its resolved or missing mark). Each
 * character is its own dot, so the caret, selection and deletion move one character at a time;
 * copying or cutting masked text is refused, as a password input refuses it.
 */
import type { Extension } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from '@codemirror/view';

/** Where the `${...}` references are in `text`: what stays readable. */
const REFERENCE = /\$\{[^{}\n]+\}/g;

class Dot extends WidgetType {
  override eq(): boolean {
    return true;
  }
  toDOM(): HTMLElement {
    const dot = document.createElement('span');
    dot.className = 'cm-mask-dot';
    dot.textContent = '•';
    return dot;
  }
  override ignoreEvent(): boolean {
    return false;
  }
}

const dot = Decoration.replace({ widget: new Dot() });

/** The offsets of `text` outside its `${...}` references, as [from, to) runs. */
export function maskedRuns(text: string): [number, number][] {
  const runs: [number, number][] = [];
  let last = 0;
  for (const match of text.matchAll(REFERENCE)) {
    if (match.index! > last) runs.push([last, match.index!]);
    last = match.index! + match[0].length;
  }
  if (last < text.length) runs.push([last, text.length]);
  return runs;
}

function dotsOf(view: EditorView): DecorationSet {
  const ranges = [];
  // A one-line field: the whole document is one short line.
  for (const [from, to] of maskedRuns(view.state.doc.toString())) for (let at = from; at < to; at++) ranges.push(dot.range(at, at + 1));
  return Decoration.set(ranges);
}

/** True when the selection covers any masked character. */
function selectsMasked(view: EditorView): boolean {
  const runs = maskedRuns(view.state.doc.toString());
  return view.state.selection.ranges.some((r) => !r.empty && runs.some(([from, to]) => r.from < to && r.to > from));
}

export function maskLiterals(): Extension {
  return [
    ViewPlugin.fromClass(
      class {
        decorations: DecorationSet;
        constructor(view: EditorView) {
          this.decorations = dotsOf(view);
        }
        update(update: ViewUpdate) {
          if (update.docChanged) this.decorations = dotsOf(update.view);
        }
      },
      { decorations: (v) => v.decorations },
    ),
    EditorView.domEventHandlers({
      copy: (event, view) => refuse(event, view),
      cut: (event, view) => refuse(event, view),
      dragstart: (event, view) => refuse(event, view),
    }),
    EditorView.baseTheme({ '.cm-mask-dot': { letterSpacing: '0.05em' } }),
  ];
}

function refuse(event: Event, view: EditorView): boolean {
  if (!selectsMasked(view)) return false;
  event.preventDefault();
  return true;
}
