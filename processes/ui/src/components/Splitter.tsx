/**
 * A drag handle between two panes (role separator): drag it, or focus it and use the arrow keys
 * (Shift for bigger steps, Home / End for the limits). It sets one pane's size; the layout
 * remembers it per workspace.
 */
import { paneSize, setPaneSize as setStored, type Pane } from '../state/layout.js';

/** A pane's size in px: kept as px, or as thousandths of `total` when given. */
export function storedSize(pane: Pane, fallback: number, total?: number): number {
  if (!total) return paneSize(pane, fallback);
  const share = paneSize(pane, -1);
  return share < 0 ? fallback : Math.round((share / 1000) * total);
}

export interface SplitterProps {
  pane: Pane;
  label: string;
  /** 'vertical' sits between left and right panes; 'horizontal' between top and bottom. */
  orientation: 'vertical' | 'horizontal';
  fallback: number;
  min: number;
  max: number;
  /** The sized pane is after the handle (below or right of it): dragging toward it shrinks it. */
  after?: boolean;
  /**
   * The size of the space the two panes share, in px: the size is then kept as thousandths of it,
   * so the split follows the window. `fallback`, `min` and `max` stay in px.
   */
  total?: number;
}

export function Splitter({ pane, label, orientation, fallback, min, max, after, total }: SplitterProps) {
  const clamp = (n: number) => Math.max(min, Math.min(max, n));
  const toStored = (px: number) => (total ? Math.round((px / total) * 1000) : px);
  const size = clamp(storedSize(pane, fallback, total));
  const setPaneSize = (p: Pane, px: number, persist: boolean) => setStored(p, toStored(px), persist);
  const sign = after ? -1 : 1;
  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const handle = e.currentTarget as HTMLElement;
    handle.setPointerCapture(e.pointerId);
    const start = orientation === 'vertical' ? e.clientX : e.clientY;
    const from = size;
    let last = from;
    const move = (m: PointerEvent) => {
      last = clamp(from + sign * ((orientation === 'vertical' ? m.clientX : m.clientY) - start));
      setPaneSize(pane, last, false);
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      document.body.classList.remove('resizing');
      if (last !== from) setPaneSize(pane, last, true);
    };
    document.body.classList.add('resizing');
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? 64 : 16;
    const grow = orientation === 'vertical' ? ['ArrowRight', 'ArrowLeft'] : ['ArrowDown', 'ArrowUp'];
    let next: number | null = null;
    if (e.key === grow[0]) next = size + sign * step;
    else if (e.key === grow[1]) next = size - sign * step;
    else if (e.key === 'Home') next = min;
    else if (e.key === 'End') next = max;
    if (next === null) return;
    e.preventDefault();
    setPaneSize(pane, clamp(next), true);
  };
  return (
    <div
      class={`splitter splitter-${orientation}`}
      role="separator"
      aria-label={label}
      aria-orientation={orientation}
      aria-valuenow={size}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      onDblClick={() => setPaneSize(pane, clamp(fallback), true)}
    />
  );
}
