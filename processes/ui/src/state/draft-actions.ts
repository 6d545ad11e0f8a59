/**
 * Saving and closing with drafts in mind: Save (Ctrl+S) saves the active tab's draft; closing a
 * tab, several tabs or the window with unsaved edits asks Save / Don't save / Cancel.
 */
import { h } from 'preact';
import { draftOf, saveDraft } from './drafts.js';
import { openCustom } from './overlays.js';
import { activeTabId, discardTab, dirtyTabs, tabs, type Tab } from './tabs.js';
import { toast } from './toasts.js';
import { keepSessionWithoutDrafts, sessionHoldsEdits } from './session.js';

/** Saves one tab's draft; false (with the reason shown, unless the user cancelled) when it did not save. */
export async function saveTab(id: string): Promise<boolean> {
  const d = draftOf(id);
  if (!d || !d.dirty.value) return true;
  try {
    await saveDraft(d);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code !== 'cancelled') toast('error', (err as Error).message);
    return false;
  }
}

export function saveActiveTab(): Promise<boolean> {
  return activeTabId.value ? saveTab(activeTabId.value) : Promise.resolve(true);
}

/** Saves every tab of `ids`, each whatever the others did; true when all saved. The ones that did not are named. */
export async function saveAll(ids: string[] = [...dirtyTabs.value]): Promise<boolean> {
  return (await saveEach(ids)).length === 0;
}

/** Saves each tab, going on past one that does not save (a secret with nowhere to go, a refusal); the ids left unsaved. */
async function saveEach(ids: string[]): Promise<string[]> {
  const left: string[] = [];
  for (const id of ids) if (!(await saveTab(id))) left.push(id);
  if (left.length > 0 && ids.length > 1) {
    const names = tabs.value.filter((t) => left.includes(t.id)).map(labelOf);
    toast('warning', `Not saved, left open: ${names.join(', ')}. The other ${ids.length - left.length === 1 ? 'tab was' : 'tabs were'} saved.`);
  }
  return left;
}

export type CloseChoice = 'save' | 'discard' | 'cancel';

/** Asks what to do with the unsaved edits of `dirty` (one or more tabs). */
export function askAboutEdits(dirty: Tab[], action: string): Promise<CloseChoice> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (choice: CloseChoice, close: () => void) => {
      answered = true;
      close();
      resolve(choice);
    };
    const one = dirty.length === 1;
    openCustom({
      title: one ? `Save changes to ${labelOf(dirty[0]!)}?` : `Save changes to ${dirty.length} tabs?`,
      onClose: () => answered || resolve('cancel'),
      render: (close) =>
        h('div', { class: 'dialog-body unsaved-dialog' }, [
          h('p', null, one ? `${labelOf(dirty[0]!)} has unsaved edits. ${action} loses them unless you save them.` : `These tabs have unsaved edits. ${action} loses them unless you save them:`),
          !one && h('ul', { class: 'unsaved-list' }, dirty.map((t) => h('li', { key: t.id }, labelOf(t)))),
          h('footer', { class: 'dialog-footer' }, [
            h('button', { class: 'button danger', onClick: () => answer('discard', close) }, "Don't save"),
            h('span', { class: 'spacer' }),
            h('button', { class: 'button', onClick: () => answer('cancel', close) }, 'Cancel'),
            h('button', { class: 'button primary', ref: (el: HTMLButtonElement | null) => el?.focus(), onClick: () => answer('save', close) }, one ? 'Save' : 'Save all'),
          ]),
        ]),
    });
  });
}

function labelOf(tab: Tab): string {
  return draftOf(tab.id)?.source.label() ?? tab.title;
}

/** Closes tabs, asking first about any with unsaved edits; false when the user cancelled. */
export async function closeTabs(ids: string[]): Promise<boolean> {
  const closing = tabs.value.filter((t) => ids.includes(t.id));
  const dirty = closing.filter((t) => dirtyTabs.value.has(t.id));
  if (dirty.length > 0) {
    if (dirty.length === 1) activeTabId.value = dirty[0]!.id;
    const choice = await askAboutEdits(dirty, dirty.length === 1 ? 'Closing it' : 'Closing them');
    if (choice === 'cancel') return false;
    if (choice === 'save') {
      // What saved is closed; a tab that did not save stays open with its edits (and is named).
      const left = new Set(await saveEach(dirty.map((t) => t.id)));
      for (const tab of closing) if (!left.has(tab.id)) discardTab(tab.id);
      return left.size === 0;
    }
  }
  for (const tab of closing) discardTab(tab.id);
  return true;
}

export function closeTab(id: string): Promise<boolean> {
  return closeTabs([id]);
}

/**
 * Quitting with unsaved edits. A browser only lets a page ask with its own "Leave site?"
 * prompt, and asks only when the session would not bring every edit back (a reload or the next
 * start restores it: state/session.ts); in Electron that prompt does not exist (returning a value
 * just cancels the close), so the close is held and our dialog asks, then closes the window itself.
 */
export function guardWindowClose(electron: boolean): () => void {
  let leaving = false;
  const onBeforeUnload = (e: BeforeUnloadEvent) => {
    if (leaving || dirtyTabs.value.size === 0 || (!electron && sessionHoldsEdits())) return;
    e.preventDefault();
    // Both: Chrome asks on preventDefault, Electron cancels the close on any returnValue.
    e.returnValue = 'You have unsaved edits.';
    if (!electron) return;
    const dirty = tabs.value.filter((t) => dirtyTabs.value.has(t.id));
    void askAboutEdits(dirty, 'Quitting').then(async (choice) => {
      if (choice === 'cancel' || (choice === 'save' && !(await saveAll()))) return;
      // Don't save: the next start must not bring the edits back from the session.
      if (choice === 'discard') await keepSessionWithoutDrafts();
      leaving = true;
      window.close();
    });
  };
  window.addEventListener('beforeunload', onBeforeUnload);
  return () => window.removeEventListener('beforeunload', onBeforeUnload);
}
