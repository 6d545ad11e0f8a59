/** Modal form dialogs and context menus: one of each at a time. */
import { signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';

export interface DialogField {
  name: string;
  label: string;
  value?: string;
  placeholder?: string;
  /** 'secret' is masked, with a Show toggle. */
  kind?: 'text' | 'select' | 'secret';
  /** A line under the field. */
  hint?: string;
  options?: string[];
  required?: boolean;
}

export interface FormDialog {
  title: string;
  fields: DialogField[];
  submitLabel: string;
  /** The submit button's label while `onSubmit` runs ("Opening…"); the submit label when unset. */
  busyLabel?: string;
  /** Resolve to an error message to keep the dialog open and show it. */
  onSubmit(values: Record<string, string>): Promise<string | void> | string | void;
}

export interface CustomDialog {
  title: string;
  wide?: boolean;
  render(close: () => void): ComponentChildren;
  /** Called however the dialog closes (its own buttons, Escape, the close box). */
  onClose?(): void;
}

export interface MenuItem {
  label: string;
  run(): void;
  danger?: boolean;
  keys?: string;
}

export const formDialog = signal<FormDialog | null>(null);
export const customDialog = signal<CustomDialog | null>(null);
export const contextMenu = signal<{ x: number; y: number; items: MenuItem[] } | null>(null);

export function openForm(dialog: FormDialog): void {
  formDialog.value = dialog;
}

export function openCustom(dialog: CustomDialog): void {
  customDialog.value = dialog;
}

export function openMenu(event: MouseEvent, items: MenuItem[]): void {
  event.preventDefault();
  contextMenu.value = { x: event.clientX, y: event.clientY, items };
}
