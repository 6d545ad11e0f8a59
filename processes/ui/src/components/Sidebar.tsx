/** The sidebar: projects > APIs > folders > requests, and mocks; virtualized for big projects. */
import { signal, useComputed, useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { projectByRoot, projects } from '../state/app.js';
import { activeTab, type TabKind } from '../state/tabs.js';
import { openMenu } from '../state/overlays.js';
import { itemActions, openItem } from '../state/actions.js';
import { expand, expanded, selectedKey } from '../state/tree.js';
import { ApiIcon, Chevron, FolderIcon, MethodBadge, MockIcon, ProjectIcon, SearchIcon } from './Icons.js';
import { ancestorKeys, rowKey, visibleRows, type Row } from './tree-rows.js';
import { actedOn, clickPick, picked, pickedOf, type Picked } from '../tree/selection.js';
import { dropTarget, type DropTarget } from '../tree/drop-target.js';
import { moveItems, projectMenu, treeMenu } from '../tree/tree-edits.js';

const ROW_HEIGHT = 28;
const OVERSCAN = 12;
/** Tabs that show an item of the tree. */
const TREE_TABS = new Set<TabKind>(['request', 'api', 'mock', 'project']);
/** How far the pointer must travel with the button down before a press becomes a drag. */
const DRAG_SLOP = 5;
/** Within this of the list's top or bottom edge, a drag scrolls the list. */
const EDGE = 24;

/** The drag under way: what is dragged and where it would drop (null: nowhere it can go). */
const dragging = signal<{ items: Picked[]; target: DropTarget | null } | null>(null);
/** A drag just ended: the click its release makes is not a click on a row. */
let dragEnded = false;


export function Sidebar() {
  const filter = useSignal('');
  const scrollTop = useSignal(0);
  const height = useSignal(600);
  const listRef = useRef<HTMLDivElement>(null);
  const rows = useComputed(() => visibleRows(projects.value, expanded.value, filter.value));
  const innerRef = useRef<HTMLDivElement>(null);

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
    // Alt+Up / Alt+Down move the item (the palette's tree.moveUp / moveDown), not the selection.
    if (e.altKey || e.ctrlKey || e.metaKey) return;
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
        <div ref={innerRef} class={dragging.value ? 'tree-rows dragging' : 'tree-rows'} style={{ height: `${all.length * ROW_HEIGHT}px`, position: 'relative' }}>
          {all.slice(first, last).map((row, i) => (
            <TreeRow key={row.key} row={row} rows={all} top={(first + i) * ROW_HEIGHT} onPress={(e) => startPress(e, row, () => rows.value, innerRef.current, listRef.current)} />
          ))}
          <DropIndicator rows={all} />
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

/**
 * A press on a row that may become a drag: past DRAG_SLOP the row (or the picked rows it is one
 * of) is dragged; over the list the drop target follows the pointer, near an edge the list
 * scrolls; the release moves the items there (one `tree.move`), Escape gives up.
 */
function startPress(e: PointerEvent, row: Row, rowsNow: () => Row[], inner: HTMLElement | null, list: HTMLElement | null): void {
  if (e.button !== 0 || !inner || !list || !pickedOf(row)) return;
  const start = { x: e.clientX, y: e.clientY };
  let items: Picked[] | null = null;
  const targetAt = (x: number, y: number): DropTarget | null => {
    const box = list.getBoundingClientRect();
    if (x < box.left || x > box.right || y < box.top || y > box.bottom) return null;
    const offset = y - inner.getBoundingClientRect().top;
    const all = rowsNow();
    const over = all[Math.floor(offset / ROW_HEIGHT)];
    const tree = over ? projectByRoot(over.project) : undefined;
    if (!over || !tree || !items) return null;
    return dropTarget(tree, items, over, (offset % ROW_HEIGHT) / ROW_HEIGHT);
  };
  const onMove = (m: PointerEvent) => {
    if (!items) {
      if (Math.hypot(m.clientX - start.x, m.clientY - start.y) < DRAG_SLOP) return;
      items = picked.value.has(row.key) && picked.value.size > 1 ? actedOn(row.key) : [pickedOf(row)!];
      if (!picked.value.has(row.key)) selectedKey.value = row.key;
    }
    const box = list.getBoundingClientRect();
    if (m.clientY < box.top + EDGE) list.scrollTop -= ROW_HEIGHT / 2;
    else if (m.clientY > box.bottom - EDGE) list.scrollTop += ROW_HEIGHT / 2;
    dragging.value = { items, target: targetAt(m.clientX, m.clientY) };
  };
  const stop = () => {
    window.removeEventListener('pointermove', onMove);
    window.removeEventListener('pointerup', onUp);
    window.removeEventListener('keydown', onKey, true);
  };
  const onUp = (u: PointerEvent) => {
    stop();
    const drag = dragging.value;
    dragging.value = null;
    if (!items || !drag) return;
    dragEnded = true;
    setTimeout(() => (dragEnded = false));
    const target = targetAt(u.clientX, u.clientY);
    if (target) void moveItems(items, target.parent, target.before);
  };
  const onKey = (k: KeyboardEvent) => {
    if (k.key !== 'Escape' || !items) return;
    k.preventDefault();
    k.stopPropagation();
    stop();
    dragging.value = null;
  };
  window.addEventListener('pointermove', onMove);
  window.addEventListener('pointerup', onUp);
  window.addEventListener('keydown', onKey, true);
}

/** Where the dragged items would land: a line between two rows, or the folder or API lit up. */
function DropIndicator({ rows }: { rows: Row[] }) {
  const target = dragging.value?.target;
  if (!target || target.mode === 'inside') return null;
  const index = rows.findIndex((r) => r.key === target.row);
  if (index < 0) return null;
  const row = rows[index]!;
  const top = (target.mode === 'before' ? index : index + 1) * ROW_HEIGHT;
  return <div class="drop-line" role="presentation" style={{ top: `${top - 1}px`, left: `${8 + row.depth * 14}px` }} />;
}

function TreeRow({ row, rows, top, onPress }: { row: Row; rows: Row[]; top: number; onPress: (e: PointerEvent) => void }) {
  const open = expanded.value.has(row.key);
  const item = row.item;
  const selected = selectedKey.value === row.key || (picked.value.size > 1 && picked.value.has(row.key));
  const dropInside = dragging.value?.target?.mode === 'inside' && dragging.value.target.row === row.key;
  const dragged = dragging.value?.items.some((i) => i.project === row.project && i.id === item.id && i.kind === item.kind);
  return (
    <div
      class={`tree-row kind-${item.kind}${selected ? ' selected' : ''}${dropInside ? ' drop-inside' : ''}${dragged ? ' drag-source' : ''}`}
      role="treeitem"
      aria-expanded={row.hasChildren ? open : undefined}
      aria-selected={selected}
      data-key={row.key}
      data-name={item.name}
      style={{ top: `${top}px`, paddingLeft: `${8 + row.depth * 14}px` }}
      onPointerDown={onPress}
      onClick={(e) => {
        if (dragEnded) return;
        if (e.ctrlKey || e.metaKey || e.shiftKey) {
          clickPick(row, rows, e.shiftKey ? 'range' : 'toggle');
          selectedKey.value = row.key;
          return;
        }
        clickPick(row, rows, 'one');
        activate(row, true);
      }}
      onDblClick={() => {
        const kind = item.kind;
        // A folder's double click opens its settings (its two clicks have toggled it open and shut).
        if (kind === 'request' || kind === 'api' || kind === 'folder' || kind === 'mock' || kind === 'project') openItem(row.project, item);
      }}
      onContextMenu={(e) => {
        // A right click on a picked row acts on all the picked ones; elsewhere on that row alone.
        if (!picked.value.has(row.key)) clickPick(row, rows, 'one');
        selectedKey.value = row.key;
        const edits = item.kind === 'project' ? projectMenu(row.project) : treeMenu(actedOn(row.key));
        const actions = itemActions(row.project, item, edits);
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
