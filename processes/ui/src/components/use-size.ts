/**
 * An element's size as it follows the window (a ResizeObserver), for layouts sized in shares of
 * it. Returns a ref callback to put on the element (it may appear after the first render) and the size.
 */
import { useSignal, type Signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';

export function useSize(): [(el: HTMLElement | null) => void, Signal<{ width: number; height: number }>] {
  // The window's size until the element is measured: close enough for the first frame.
  const size = useSignal({ width: innerWidth, height: innerHeight });
  const [el, setEl] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!el) return;
    const read = () => {
      const { width, height } = el.getBoundingClientRect();
      if (width !== size.value.width || height !== size.value.height) size.value = { width, height };
    };
    read();
    const observer = new ResizeObserver(read);
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [setEl, size];
}
