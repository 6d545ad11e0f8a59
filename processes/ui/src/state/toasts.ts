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
  /** A toast about one thing (the body's format error): a newer one with the same topic replaces it. */
  topic?: string;
}

export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function toast(level: ToastLevel, message: string, ms = level === 'error' ? 8000 : 4000, extra: { action?: ToastAction; topic?: string } = {}): number {
  const id = nextId++;
  const { action, topic } = extra;
  const others = topic === undefined ? toasts.value : toasts.value.filter((t) => t.topic !== topic);
  toasts.value = [...others.slice(-4), { id, level, message, ...(action ? { action } : {}), ...(topic === undefined ? {} : { topic }) }];
  setTimeout(() => dismissToast(id), ms);
  return id;
}

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

/** Takes back the toast on a topic, once what it said no longer holds (the body formats now). */
export function dismissTopic(topic: string): void {
  if (toasts.value.some((t) => t.topic === topic)) toasts.value = toasts.value.filter((t) => t.topic !== topic);
}
