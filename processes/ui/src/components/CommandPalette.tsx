/** Ctrl+Shift+P / Cmd+Shift+P: every command by name, filtered as you type. */
import { useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { commands, paletteOpen } from '../state/commands.js';

export function CommandPalette() {
  const query = useSignal('');
  const index = useSignal(0);
  const inputRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (paletteOpen.value) {
      query.value = '';
      index.value = 0;
      inputRef.current?.focus();
    }
  }, [paletteOpen.value]);
  if (!paletteOpen.value) return null;

  const visible = commands.value.filter((c) => !c.when || c.when());
  const matches = rank(visible, query.value);
  const close = () => (paletteOpen.value = false);
  const run = (i: number) => {
    const command = matches[i];
    if (!command) return;
    close();
    void command.run();
  };

  return (
    <div class="overlay" onClick={close}>
      <div class="palette" role="dialog" aria-label="Command palette" onClick={(e) => e.stopPropagation()}>
        <input
          ref={inputRef}
          class="palette-input"
          placeholder="Type a command"
          value={query.value}
          onInput={(e) => {
            query.value = (e.target as HTMLInputElement).value;
            index.value = 0;
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
            else if (e.key === 'ArrowDown') {
              e.preventDefault();
              index.value = Math.min(matches.length - 1, index.value + 1);
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              index.value = Math.max(0, index.value - 1);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              run(index.value);
            }
          }}
        />
        <ul class="palette-list" role="listbox">
          {matches.map((c, i) => (
            <li key={c.id} data-command={c.id} role="option" aria-selected={i === index.value} class={i === index.value ? 'active' : ''} onMouseEnter={() => (index.value = i)} onClick={() => run(i)}>
              <span>{c.title}</span>
              {c.keys && <kbd>{c.keys}</kbd>}
            </li>
          ))}
          {matches.length === 0 && <li class="muted">No command matches.</li>}
        </ul>
      </div>
    </div>
  );
}

/** Subsequence match, scored so word starts and contiguous runs come first. */
function rank<T extends { title: string }>(list: T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return list;
  const scored: { item: T; score: number }[] = [];
  for (const item of list) {
    const title = item.title.toLowerCase();
    let score = 0;
    let at = -1;
    let ok = true;
    for (const ch of q) {
      const next = title.indexOf(ch, at + 1);
      if (next < 0) {
        ok = false;
        break;
      }
      score += next === at + 1 ? 3 : next === 0 || title[next - 1] === ' ' ? 2 : 0;
      at = next;
    }
    if (ok) scored.push({ item, score: score - title.length / 100 });
  }
  return scored.sort((a, b) => b.score - a.score).map((s) => s.item);
}
