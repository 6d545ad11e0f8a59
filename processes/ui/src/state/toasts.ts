import { signal } from '@preact/signals';

export type ToastLevel = 'info' | 'success' | 'warning' | 'error';
export interface Toast {
  id: number;
  level: ToastLevel;
  message: string;
}

export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function toast(level: ToastLevel, message: string, ms = level === 'error' ? 8000 : 4000): void {
  const id = nextId++;
  toasts.value = [...toasts.value.slice(-4), { id, level, message }];
  setTimeout(() => dismissToast(id), ms);
}

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}
