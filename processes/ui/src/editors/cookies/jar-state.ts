/**
 * The jar tab's view of the workspace's cookie jar, kept outside the component: the list as the
 * supervisor last gave it (values only while Show values is on), the filter, and opening the tab.
 */
import { signal } from '@preact/signals';
import type { JarCookie, JarStatus } from '../../../../../protocol/model/cookies.js';
import { call } from '../../state/rpc.js';
import { openTab, tabs } from '../../state/tabs.js';

export const JAR_TAB = { kind: 'cookies', project: '', itemId: '@cookies', title: 'Cookies' } as const;

export const jar = signal<{ cookies: JarCookie[]; status: JarStatus } | null>(null);
export const jarError = signal<string | null>(null);
export const showValues = signal(false);
/** Narrows the list to domains and names containing this text. */
export const jarFilter = signal('');

let generation = 0;

/** Reads the jar again; a slower earlier read never overwrites a newer one. */
export async function loadJar(): Promise<void> {
  const mine = ++generation;
  try {
    const result = await call('cookies.list', { values: showValues.value });
    if (mine !== generation) return;
    jar.value = result;
    jarError.value = null;
  } catch (err) {
    if (mine === generation) jarError.value = (err as Error).message;
  }
}

export function jarTabOpen(): boolean {
  return tabs.value.some((t) => t.kind === 'cookies');
}

/** Opens (or focuses) the jar tab, narrowed to `filter` when given (a response's host). */
export function openCookieJar(filter?: string): void {
  if (filter !== undefined) jarFilter.value = filter;
  openTab(JAR_TAB);
  void loadJar();
}

export function setShowValues(show: boolean): void {
  showValues.value = show;
  // Hidden again: drop the values from memory, not only from the screen.
  void loadJar();
}

/** A cookie's expiry as the tables show it: local date and time, or Session. */
export function expiryText(iso: string | undefined): string {
  if (iso === undefined) return 'Session';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const MASK = '••••••';
