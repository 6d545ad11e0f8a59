/**
 * A CodeMirror 6 editor as a Preact component: the text is the caller's (a draft's field), the
 * editor state is CodeMirror's. A change of `value` from outside (Format, a reload, another tab's
 * edit) replaces the document; the editor's own edits reach `onChange` and come back as the same
 * value, which is then a no-op, so the caret and undo history stay put while the user types.
 */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { Annotation, Compartment, EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, placeholder, type DecorationSet } from '@codemirror/view';
import { forceLinting, linter, type Diagnostic } from '@codemirror/lint';
import { editingSetup, singleLineSetup, viewingSetup } from './setup.js';
import { languageSupport, type CodeLanguage } from './languages.js';
import { wrapLines } from './wrap.js';

/** A place in the text to mark: by offsets, or by line (1-based) and column (1-based). */
export type CodeMark = { severity: 'error' | 'warning' | 'info'; message: string } & ({ from: number; to?: number } | { line: number; column?: number; endLine?: number; endColumn?: number });

/** What the editor exposes to its owner: jump to a place, flash a line. */
export interface CodeEditorHandle {
  reveal(at: { line: number } | { from: number; to?: number }, flash?: boolean): void;
  focus(): void;
}

/** Marks a change that came in through `value`, so it is not reported back through `onChange`. */
const fromOwner = Annotation.define<boolean>();

export interface CodeEditorProps {
  value: string;
  language: CodeLanguage;
  /** The accessible name of the text (the editable area carries it). */
  label: string;
  onChange?(text: string): void;
  readOnly?: boolean;
  /** Problems found from outside the text (contract problems, script diagnostics). */
  marks?: readonly CodeMark[];
  /** Problems found in the text itself (a parse error), worked out again as the text changes. */
  check?(text: string): CodeMark[];
  /** More extensions (variables, completion) for this editor. */
  extensions?: Extension;
  /** One line, looking and behaving like an input (a URL, a header value). */
  singleLine?: boolean;
  placeholder?: string;
  title?: string;
  class?: string;
  handle?(handle: CodeEditorHandle | null): void;
}

export function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  /** The text the editor holds, as last reported or set: compared by reference on each render. */
  const known = useRef(props.value);
  // The latest props, read by the callbacks CodeMirror holds on to.
  const latest = useRef(props);
  latest.current = props;
  const compartments = useRef({ language: new Compartment(), readOnly: new Compartment(), wrap: new Compartment(), extra: new Compartment(), labels: new Compartment() });

  useEffect(() => {
    const c = compartments.current;
    const state = EditorState.create({
      doc: props.value,
      extensions: [
        props.singleLine ? singleLineSetup() : props.readOnly ? viewingSetup() : editingSetup(),
        c.language.of(languageSupport(props.language)),
        c.readOnly.of(readOnlyExtension(!!props.readOnly)),
        c.wrap.of(wrapping(wrapLines.value, props.singleLine)),
        c.extra.of(props.extensions ?? []),
        c.labels.of(labelsOf(props)),
        EditorView.updateListener.of((update) => {
          // Only the user's edits go out: a value set from outside is already the owner's.
          if (!update.docChanged || update.transactions.some((tr) => tr.annotation(fromOwner))) return;
          known.current = update.state.doc.toString();
          latest.current.onChange?.(known.current);
        }),
        linter((v) => diagnostics(v, latest.current), { delay: 300 }),
        flashField,
      ],
    });
    const v = new EditorView({ state, parent: host.current! });
    view.current = v;
    // The whole document for tests and tools: only the lines in view are in the DOM.
    Object.defineProperty(v.dom, 'parleyText', { get: () => v.state.doc.toString() });
    props.handle?.(handleOf(v));
    forceLinting(v);
    const unwatch = wrapLines.subscribe((on) => v.dispatch({ effects: c.wrap.reconfigure(wrapping(on, props.singleLine)) }));
    return () => {
      unwatch();
      latest.current.handle?.(null);
      v.destroy();
      view.current = null;
    };
    // The editor is made once; the effects below follow the props.
  }, []);

  // In the same task as the render that read `value`: a deferred effect could run after further
  // keys were typed and put an older text back (the caret jumped and keys were lost).
  useLayoutEffect(() => {
    const v = view.current;
    // The text the editor last reported comes back as the same string: no need to read the document.
    if (!v || props.value === known.current) return;
    known.current = props.value;
    if (v.state.doc.toString() === props.value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value }, annotations: fromOwner.of(true) });
  }, [props.value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.language.reconfigure(languageSupport(props.language)) });
  }, [props.language]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.readOnly.reconfigure(readOnlyExtension(!!props.readOnly)) });
  }, [props.readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.extra.reconfigure(props.extensions ?? []) });
  }, [props.extensions]);

  // A row's field is named after its row ("Header value of X-Token"), which the user may be typing.
  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.labels.reconfigure(labelsOf(props)) });
  }, [props.label, props.title, props.placeholder]);

  useEffect(() => {
    if (view.current) forceLinting(view.current);
  }, [props.marks]);

  return <div class={`${props.singleLine ? 'line-field' : 'code-editor'}${props.class ? ` ${props.class}` : ''}`} ref={host} />;
}

/** Soft wrap as the user set it; a one-line field scrolls sideways as an input does, whatever the setting. */
function wrapping(on: boolean, singleLine = false): Extension {
  return on && !singleLine ? EditorView.lineWrapping : [];
}

/** The accessible name, tooltip and placeholder: what tells the user (and a screen reader) what the text is. */
function labelsOf({ label, title, placeholder: hint, singleLine }: CodeEditorProps): Extension {
  return [
    EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': singleLine ? 'false' : 'true', role: 'textbox', spellcheck: 'false', ...(title ? { title } : {}) }),
    hint ? placeholder(hint) : [],
  ];
}

/** Read-only text stays focusable and selectable (search, copy, folding): only edits are refused. */
function readOnlyExtension(readOnly: boolean): Extension {
  return EditorState.readOnly.of(readOnly);
}

function diagnostics(view: EditorView, props: CodeEditorProps): Diagnostic[] {
  const doc = view.state.doc;
  const own = props.check?.(doc.toString()) ?? [];
  return [...own, ...(props.marks ?? [])].map((m) => {
    const [from, to] = rangeOf(view, m);
    return { from, to, severity: m.severity, message: m.message };
  });
}

function rangeOf(view: EditorView, mark: CodeMark): [number, number] {
  const doc = view.state.doc;
  if ('from' in mark) {
    const from = Math.min(mark.from, doc.length);
    return [from, Math.min(Math.max(mark.to ?? from, from), doc.length)];
  }
  const at = (lineNumber: number, column: number) => {
    const line = doc.line(Math.min(Math.max(1, lineNumber), doc.lines));
    return Math.min(line.from + Math.max(0, column - 1), line.to);
  };
  if (mark.column === undefined) {
    const line = doc.line(Math.min(Math.max(1, mark.line), doc.lines));
    return [line.from, line.to];
  }
  const from = at(mark.line, mark.column);
  const to = mark.endLine !== undefined && mark.endColumn !== undefined ? at(mark.endLine, mark.endColumn) : from + 1;
  return [from, Math.min(Math.max(to, from), doc.length)];
}

function handleOf(view: EditorView): CodeEditorHandle {
  return {
    reveal(at, flash) {
      const doc = view.state.doc;
      const from = 'line' in at ? doc.line(Math.min(Math.max(1, at.line), doc.lines)).from : Math.min(at.from, doc.length);
      const to = 'line' in at ? from : Math.min(at.to ?? from, doc.length);
      view.dispatch({ selection: { anchor: from, head: to }, effects: EditorView.scrollIntoView(from, { y: 'center' }) });
      if (flash) flashLine(view, from);
    },
    focus() {
      view.focus();
    },
  };
}

const setFlash = StateEffect.define<number | null>();
const flashDecoration = Decoration.line({ class: 'cm-flash' });

/** The line flashed after a jump, as a decoration (CodeMirror redraws lines; a class set by hand would go). */
const flashField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) if (e.is(setFlash)) return e.value === null ? Decoration.none : Decoration.set([flashDecoration.range(tr.state.doc.lineAt(e.value).from)]);
    return marks.map(tr.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** Marks the line at `pos` for a moment, so the eye finds where a jump landed. */
function flashLine(view: EditorView, pos: number): void {
  view.dispatch({ effects: setFlash.of(pos) });
  setTimeout(() => {
    if (view.dom.isConnected) view.dispatch({ effects: setFlash.of(null) });
  }, 1200);
}
