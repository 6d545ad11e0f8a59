/**
 * Reading a code editor (CodeMirror) in a browser test: only the lines in view are in the DOM, so
 * the whole text comes from the editor itself (CodeEditor.tsx exposes it on its element).
 */
import type { Locator } from 'playwright-core';

/** The whole text of the code editor `editable` (the element with the editor's label) belongs to. */
export function codeText(editable: Locator): Promise<string> {
  return editable.evaluate((el) => (el.closest('.cm-editor') as (Element & { parleyText?: string }) | null)?.parleyText ?? '');
}
