import { signal } from '@preact/signals';

export type ToastLevel = 'info' | 'success' | 'warning' | 'error';
export interface Toast {
  id: number;
  level: ToastLevel;
  message: string;
  /** A toast about one thing (the body's format error): a newer one with the same topic replaces it. */
  topic?: string;
}

export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function toast(level: ToastLevel, message: string, ms = level === 'error' ? 8000 : 4000, topic?: string): void {
  const id = nextId++;
  const others = topic === undefined ? toasts.value : toasts.value.filter((t) => t.topic !== topic);
  toasts.value = [...others.slice(-4), { id, level, message, ...(topic === undefined ? {} : { topic }) }];
  setTimeout(() => dismissToast(id), ms);
}

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

/** Takes back the toast on a topic, once what it said no longer holds (the body formats now). */
export function dismissTopic(topic: string): void {
  if (toasts.value.some((t) => t.topic === topic)) toasts.value = toasts.value.filter((t) => t.topic !== topic);
}
