import { signal } from '@preact/signals';

export type ToastLevel = 'info' | 'success' | 'warning' | 'error';
/** A button on a toast (Undo of a delete): running it dismisses the toast. */
export interface ToastAction {
  label: string;
  run(): void;
}
export interface Toast {
  id: number;
  level: ToastLevel;
  message: string;
  action?: ToastAction;
}

export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function toast(level: ToastLevel, message: string, ms = level === 'error' ? 8000 : 4000, action?: ToastAction): number {
  const id = nextId++;
  toasts.value = [...toasts.value.slice(-4), { id, level, message, ...(action ? { action } : {}) }];
  setTimeout(() => dismissToast(id), ms);
  return id;
}

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}
