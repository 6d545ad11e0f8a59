/**
 * Reading a code editor (CodeMirror) in a browser test: only the lines in view are in the DOM, so
 * the whole text comes from the editor itself (CodeEditor.tsx exposes it on its element).
 */
import type { Locator } from 'playwright-core';

/** The whole text of the code editor `editable` (the element with the editor's label) belongs to. */
export function codeText(editable: Locator): Promise<string> {
  return editable.evaluate((el) => (el.closest('.cm-editor') as (Element & { parleyText?: string }) | null)?.parleyText ?? '');
}

/**
 * Replaces the text of a code editor or one-line field (the URL, a header value) as a person
 * does: click into it, select all, type the new text key by key (an empty text deletes).
 */
export async function typeInto(editable: Locator, text: string, delay = 10): Promise<void> {
  const keyboard = editable.page().keyboard;
  await editable.click();
  await keyboard.press('ControlOrMeta+A');
  if (text === '') await keyboard.press('Backspace');
  else await keyboard.type(text, { delay });
}

/** The `${...}` marked in a field or editor, in order, as [text, resolved]. */
export function variableMarks(field: Locator): Promise<[string | null, boolean][]> {
  return field.locator('.cm-var').evaluateAll((els) => els.map((el): [string | null, boolean] => [el.textContent, el.classList.contains('cm-var-ok')]));
}

/** Hovers over the `${...}` shown as `text` in `field` and answers its tooltip's text (an earlier tooltip gone first). */
export async function variableHover(field: Locator, text: string): Promise<string> {
  const page = field.page();
  await page.mouse.move(0, 0);
  await page.locator('.cm-var-tooltip').waitFor({ state: 'detached' });
  await field.locator('.cm-var', { hasText: text }).hover();
  const tip = page.locator('.cm-var-tooltip');
  await tip.waitFor();
  return (await tip.textContent()) ?? '';
}
