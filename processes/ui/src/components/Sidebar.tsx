/** The sidebar: projects > APIs > folders > requests, and mocks; virtualized for big projects. */
import { useComputed, useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { projectByRoot, projects } from '../state/app.js';
import { activeTab, type TabKind } from '../state/tabs.js';
import { openMenu } from '../state/overlays.js';
import { itemActions, openItem } from '../state/actions.js';
import { expand, expanded, selectedKey } from '../state/tree.js';
import { ApiIcon, Chevron, FolderIcon, MethodBadge, MockIcon, ProjectIcon, SearchIcon } from './Icons.js';
import { ancestorKeys, rowKey, visibleRows, type Row } from './tree-rows.js';

const ROW_HEIGHT = 28;
const OVERSCAN = 12;
/** Tabs that show an item of the tree. */
const TREE_TABS = new Set<TabKind>(['request', 'api', 'mock', 'project']);


export function Sidebar() {
  const filter = useSignal('');
  const scrollTop = useSignal(0);
  const height = useSignal(600);
  const listRef = useRef<HTMLDivElement>(null);
  const rows = useComputed(() => visibleRows(projects.value, expanded.value, filter.value));

  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => (height.value = el.clientHeight));
    observer.observe(el);
    height.value = el.clientHeight;
    return () => observer.disconnect();
  }, []);

  // The tree follows the active tab (a click on a tab, Ctrl+Tab, a tab opened from History or the
  // palette): its item is selected, its parents expanded and its row scrolled into view.
  useEffect(() => {
    const tab = activeTab.value;
    if (!tab || !TREE_TABS.has(tab.kind)) return;
    const key = rowKey(tab.project, tab.itemId);
    selectedKey.value = key;
    const tree = projectByRoot(tab.project);
    if (!tree) return;
    for (const parent of ancestorKeys(tree, tab.itemId)) expand(parent);
    // Scrolled on the next frame, once rows just expanded are rendered: before, the list is not
    // yet tall enough to scroll there.
    const frame = requestAnimationFrame(() => {
      const index = rows.peek().findIndex((r) => r.key === key);
      if (index >= 0) scrollIntoView(listRef.current, index);
    });
    return () => cancelAnimationFrame(frame);
    // On a change of tab only: the same tab kept or renamed leaves what the user collapsed alone.
  }, [activeTab.value?.id]);

  const all = rows.value;
  const first = Math.max(0, Math.floor(scrollTop.value / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(all.length, Math.ceil((scrollTop.value + height.value) / ROW_HEIGHT) + OVERSCAN);

  const onKeyDown = (e: KeyboardEvent) => {
    // A key with Ctrl, Cmd or Alt is a command's (Ctrl+Enter sends the active tab), not the tree's.
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const index = all.findIndex((r) => r.key === selectedKey.value);
    const row = all[index];
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = all[Math.max(0, Math.min(all.length - 1, index + (e.key === 'ArrowDown' ? 1 : -1)))];
      if (next) {
        selectedKey.value = next.key;
        scrollIntoView(listRef.current, all.indexOf(next));
      }
    } else if (row && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
      e.preventDefault();
      if (row.hasChildren) expand(row.key, e.key === 'ArrowRight');
    } else if (row && e.key === 'Enter') {
      e.preventDefault();
      activate(row, false);
    }
  };

  return (
    <aside class="sidebar" aria-label="Projects">
      <div class="sidebar-search">
        <SearchIcon />
        <input
          type="search"
          placeholder="Filter requests"
          aria-label="Filter requests"
          value={filter.value}
          onInput={(e) => (filter.value = (e.target as HTMLInputElement).value)}
        />
      </div>
      <div
        class="tree"
        role="tree"
        tabIndex={0}
        ref={listRef}
        onScroll={(e) => (scrollTop.value = (e.target as HTMLElement).scrollTop)}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: `${all.length * ROW_HEIGHT}px`, position: 'relative' }}>
          {all.slice(first, last).map((row, i) => (
            <TreeRow key={row.key} row={row} top={(first + i) * ROW_HEIGHT} />
          ))}
        </div>
        {projects.value.length === 0 && <p class="empty-hint">No project open. Open one with the command palette.</p>}
      </div>
    </aside>
  );
}

/** A single click opens a preview tab (the next click replaces it); a double click or Enter keeps it. */
function activate(row: Row, preview: boolean): void {
  selectedKey.value = row.key;
  const kind = row.item.kind;
  if (kind === 'request' || kind === 'api' || kind === 'mock' || kind === 'project') openItem(row.project, row.item, { preview });
  if (row.hasChildren && kind !== 'request') expand(row.key, !expanded.value.has(row.key) || kind === 'api' || kind === 'project');
}

function TreeRow({ row, top }: { row: Row; top: number }) {
  const open = expanded.value.has(row.key);
  const item = row.item;
  const selected = selectedKey.value === row.key;
  return (
    <div
      class={`tree-row kind-${item.kind}${selected ? ' selected' : ''}`}
      role="treeitem"
      aria-expanded={row.hasChildren ? open : undefined}
      aria-selected={selected}
      data-key={row.key}
      data-name={item.name}
      style={{ top: `${top}px`, paddingLeft: `${8 + row.depth * 14}px` }}
      onClick={() => activate(row, true)}
      onDblClick={() => {
        const kind = item.kind;
        if (kind === 'request' || kind === 'api' || kind === 'mock' || kind === 'project') openItem(row.project, item);
      }}
      onContextMenu={(e) => {
        selectedKey.value = row.key;
        const actions = itemActions(row.project, item);
        if (actions.length > 0) openMenu(e, actions);
      }}
    >
      <span
        class="twisty"
        onClick={(e) => {
          if (!row.hasChildren) return;
          e.stopPropagation();
          expand(row.key, !open);
        }}
      >
        {row.hasChildren ? <Chevron open={open} /> : null}
      </span>
      {item.kind === 'project' && <ProjectIcon />}
      {item.kind === 'api' && <ApiIcon />}
      {item.kind === 'folder' && <FolderIcon />}
      {(item.kind === 'mock' || item.kind === 'group') && <MockIcon />}
      {item.kind === 'request' && <MethodBadge method={item.method} small />}
      <span class="tree-label">{item.name}</span>
      {item.kind === 'request' && item.orphaned && <span class="badge badge-warn" title="Its operation is no longer in the definition">orphaned</span>}
    </div>
  );
}

function scrollIntoView(el: HTMLElement | null, index: number): void {
  if (!el) return;
  // Rows start below the list's top padding: without it a row scrolled to the bottom stayed 4 px under the fold.
  const top = (parseFloat(getComputedStyle(el).paddingTop) || 0) + index * ROW_HEIGHT;
  if (top < el.scrollTop) el.scrollTop = top;
  else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
}
