/**
 * A JSON body as a tree: objects and arrays fold, each node says how many it holds, and only what
 * is open is drawn, a long array a page at a time, so a 10 MB body opens at once. A node's
 * contract problems show beside it. Keys and values are text, never markup.
 */
import { useSignal } from '@preact/signals';
import { escapeSegment } from '../../../../../protocol/json-pointer.js';

/** Children drawn per page of a big object or array. */
const PAGE = 200;

export function JsonTree({ value, problems }: { value: unknown; problems: ReadonlyMap<string, string[]> }) {
  return (
    <div class="json-tree mono" role="tree" aria-label="Response body tree">
      <Node name={null} index={false} value={value} pointer="" depth={0} problems={problems} />
    </div>
  );
}

/** `index`: the name is an array index, shown bare; an object's keys are shown quoted. */
function Node({ name, index, value, pointer, depth, problems }: { name: string | null; index: boolean; value: unknown; pointer: string; depth: number; problems: ReadonlyMap<string, string[]> }) {
  const open = useSignal(depth < 1);
  const shown = useSignal(PAGE);
  const container = value !== null && typeof value === 'object';
  const entries = container ? (Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)) : [];
  const own = problems.get(pointer);
  const label = name === null ? null : <span class={index ? 'jt-index' : 'jt-key'}>{index ? name : JSON.stringify(name)}</span>;
  if (!container) {
    return (
      <div role="treeitem" class="jt-row" style={{ paddingLeft: `${depth * 14 + 14}px` }} title={own?.join('\n')}>
        {label}
        {label && <span class="jt-colon">: </span>}
        <span class={`jt-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value)}</span>
        {own && <span class="jt-problem">{own.join('; ')}</span>}
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const count = entries.length;
  return (
    <div role="treeitem" aria-expanded={open.value}>
      <div class="jt-row jt-branch" style={{ paddingLeft: `${depth * 14}px` }} onClick={() => (open.value = !open.value)} title={own?.join('\n')}>
        <span class="jt-toggle" aria-hidden="true">
          {open.value ? '▾' : '▸'}
        </span>
        {label}
        {label && <span class="jt-colon">: </span>}
        <span class="jt-summary">{isArray ? `[${count} item${count === 1 ? '' : 's'}]` : `{${count} key${count === 1 ? '' : 's'}}`}</span>
        {own && <span class="jt-problem">{own.join('; ')}</span>}
      </div>
      {open.value && (
        <div role="group">
          {entries.slice(0, shown.value).map(([key, child]) => (
            <Node key={key} name={key} index={isArray} value={child} pointer={`${pointer}/${escapeSegment(key)}`} depth={depth + 1} problems={problems} />
          ))}
          {count > shown.value && (
            <button class="link-button jt-more" style={{ marginLeft: `${(depth + 1) * 14 + 14}px` }} onClick={() => (shown.value += PAGE)}>
              Show {Math.min(PAGE, count - shown.value)} more of {count - shown.value}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
