/** A one-line field keeps its text on one line, as an <input> does: line breaks typed or pasted are dropped. */
import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { singleLineSetup } from './setup.js';

const field = (doc: string) => EditorState.create({ doc, extensions: singleLineSetup() });

describe('singleLineSetup', () => {
  it('drops the line breaks of a paste and puts the caret after what was pasted', () => {
    const state = field('https://x/');
    const next = state.update({ changes: { from: 10, insert: 'a\nb\r\nc\rd' }, selection: { anchor: 17 }, userEvent: 'input.paste' }).state;
    expect(next.doc.toString()).toBe('https://x/abcd');
    expect(next.doc.lines).toBe(1);
    expect(next.selection.main.head).toBe(14);
  });

  it('drops a line break typed in the middle, and leaves other edits alone', () => {
    const state = field('ab');
    expect(state.update({ changes: { from: 1, insert: '\n' } }).state.doc.toString()).toBe('ab');
    const typed = state.update({ changes: { from: 1, to: 2, insert: 'X' }, selection: { anchor: 2 } }).state;
    expect([typed.doc.toString(), typed.selection.main.head]).toEqual(['aX', 2]);
  });
});
