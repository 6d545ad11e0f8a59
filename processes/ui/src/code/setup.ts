/**
 * The extensions every code editor in the app shares: line numbers, folding, bracket matching,
 * history, search and replace (Ctrl+F), the app's colours, and a keymap that leaves the app's
 * own chords (Ctrl+Enter sends) to the app.
 */
import { EditorSelection, EditorState, Transaction, type Extension } from '@codemirror/state';
import { EditorView, drawSelection, dropCursor, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers, rectangularSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { HighlightStyle, bracketMatching, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { lintGutter, lintKeymap } from '@codemirror/lint';
import { tags as t } from '@lezer/highlight';

/** CodeMirror's bindings the app takes for itself: Mod-Enter would insert a line instead of sending. */
const APP_KEYS = new Set(['Mod-Enter']);

const editingKeys = [...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap, indentWithTab].filter((b) => !b.key || !APP_KEYS.has(b.key));
const viewingKeys = [...defaultKeymap, ...searchKeymap, ...foldKeymap].filter((b) => !b.key || !APP_KEYS.has(b.key));

/** Token colours from the theme's variables, so light and dark follow the app's theme switch. */
const highlight = HighlightStyle.define([
  { tag: [t.propertyName, t.tagName], color: 'var(--code-key)' },
  { tag: [t.string, t.special(t.string), t.attributeValue, t.regexp], color: 'var(--code-str)' },
  { tag: [t.number, t.attributeName], color: 'var(--code-num)' },
  { tag: [t.bool, t.null, t.atom, t.keyword, t.operatorKeyword, t.modifier, t.definitionKeyword], color: 'var(--code-lit)' },
  { tag: [t.comment, t.meta, t.processingInstruction, t.documentMeta], color: 'var(--fg-muted)', fontStyle: 'italic' },
  { tag: [t.angleBracket, t.bracket, t.separator, t.punctuation], color: 'var(--fg-muted)' },
  { tag: t.invalid, color: 'var(--err)' },
]);

const theme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--bg-elev)', height: '100%', fontSize: '12.5px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': { backgroundColor: 'var(--bg-select)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-sunk)', color: 'var(--fg-muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--bg-hover) 45%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--bg-hover)', border: '1px solid var(--border)', color: 'var(--fg-muted)' },
  '.cm-panels': { backgroundColor: 'var(--bg-sunk)', color: 'var(--fg)' },
  '.cm-panels.cm-panels-top': { borderBottom: '1px solid var(--border)' },
  '.cm-panel input, .cm-panel button': { fontSize: '12px' },
  '.cm-searchMatch': { backgroundColor: 'color-mix(in srgb, var(--warn) 30%, transparent)' },
  '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: 'color-mix(in srgb, var(--accent) 40%, transparent)' },
  '.cm-matchingBracket': { backgroundColor: 'color-mix(in srgb, var(--accent) 25%, transparent)', outline: '1px solid color-mix(in srgb, var(--accent) 50%, transparent)' },
  '.cm-tooltip': { backgroundColor: 'var(--bg-elev)', color: 'var(--fg)', border: '1px solid var(--border)', boxShadow: 'var(--shadow)' },
  '.cm-line.cm-flash': { backgroundColor: 'color-mix(in srgb, var(--accent) 25%, transparent)' },
});

/** What an editable editor has: everything a code editor needs to write code in. */
export function editingSetup(): Extension {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    foldGutter(),
    lintGutter(),
    drawSelection(),
    dropCursor(),
    indentOnInput(),
    syntaxHighlighting(highlight),
    bracketMatching(),
    closeBrackets(),
    rectangularSelection(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    keymap.of(editingKeys),
    theme,
  ];
}

/** What a read-only viewer has: no history or editing keys, still folding, search and selection. */
export function viewingSetup(): Extension {
  return [
    lineNumbers(),
    highlightSpecialChars(),
    foldGutter(),
    lintGutter(),
    drawSelection(),
    syntaxHighlighting(highlight),
    bracketMatching(),
    highlightSelectionMatches(),
    search({ top: true }),
    keymap.of(viewingKeys),
    theme,
  ];
}

/**
 * A one-line field (a URL, a header value): the text stays on one line (a pasted line break
 * becomes nothing, as in an input), Enter and Tab are left to the page (the form, focus moving
 * on), and it looks like the app's inputs.
 */
export function singleLineSetup(): Extension {
  return [
    history(),
    drawSelection(),
    highlightSpecialChars(),
    EditorState.transactionFilter.of((tr) => {
      if (!tr.docChanged || tr.newDoc.lines === 1) return tr;
      // Line breaks typed or pasted are dropped, as an <input> drops them.
      const changes: { from: number; to: number; insert: string }[] = [];
      let last = 0;
      tr.changes.iterChanges((from, to, _fromB, _toB, inserted) => {
        changes.push({ from, to, insert: inserted.toString().replace(/\r\n?|\n/g, '') });
        last = Math.max(last, to);
      });
      const set = tr.startState.changes(changes);
      const userEvent = tr.annotation(Transaction.userEvent);
      // The caret goes after what was typed or pasted, as in an input.
      return { changes: set, selection: EditorSelection.cursor(set.mapPos(last, 1)), ...(userEvent ? { userEvent } : {}) };
    }),
    keymap.of([...defaultKeymap, ...historyKeymap].filter((b) => !b.key || !LINE_KEYS.has(b.key))),
    singleLineTheme,
  ];
}

/** Keys a one-line field leaves to the page: Enter (submit, send), Tab (focus), and the app's chords. */
const LINE_KEYS = new Set(['Mod-Enter', 'Enter', 'Shift-Enter', 'Tab', 'Shift-Tab', 'Alt-ArrowUp', 'Alt-ArrowDown', 'Shift-Alt-ArrowUp', 'Shift-Alt-ArrowDown', 'Mod-[', 'Mod-]', 'Mod-i']);

const singleLineTheme = EditorView.theme({
  // Colour and font are the field's (a row switched off is muted); the frame is the field's CSS (.line-field).
  '&': { color: 'inherit', backgroundColor: 'transparent', fontSize: 'inherit' },
  '&.cm-focused': { outline: 'none' },
  // A long URL scrolls sideways under the caret, as an input's text does, without a scroll bar.
  '.cm-scroller': { fontFamily: 'inherit', lineHeight: 'inherit', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'none' },
  '.cm-content': { padding: '0', caretColor: 'var(--fg)' },
  '.cm-line': { padding: '0' },
  '.cm-cursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': { backgroundColor: 'var(--bg-select)' },
  '.cm-placeholder': { color: 'var(--fg-muted)' },
  '.cm-tooltip': { backgroundColor: 'var(--bg-elev)', color: 'var(--fg)', border: '1px solid var(--border)', boxShadow: 'var(--shadow)' },
});
