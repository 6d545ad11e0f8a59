/** Which sidebar nodes are expanded and which is selected. */
import { signal } from '@preact/signals';

export const expanded = signal<Set<string>>(new Set());
export const selectedKey = signal<string | null>(null);

export function expand(key: string, open = true): void {
  if (expanded.value.has(key) === open) return;
  const next = new Set(expanded.value);
  if (open) next.add(key);
  else next.delete(key);
  expanded.value = next;
}
