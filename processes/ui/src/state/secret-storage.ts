/**
 * Where the workspace keeps secrets, as the page knows it (`secret.status`, kept current by
 * `secret.storage` events), which `${secret:...}` names the store holds (for the badges), and the
 * fields a save left out because nothing could store them.
 */
import { signal } from '@preact/signals';
import type { Peer } from '../../../../protocol/peer.js';
import type { ResOf } from '../../../../protocol/messages.js';
import { call } from './rpc.js';

export type SecretStatus = ResOf<'secret.status'>;

export const secretStorage = signal<SecretStatus | null>(null);

/** Asks the supervisor again; null when it could not be asked. */
export async function refreshSecretStorage(): Promise<SecretStatus | null> {
  try {
    const status = await call('secret.status', {});
    secretStorage.value = status;
    forgetHeld();
    return status;
  } catch {
    return secretStorage.value;
  }
}

/** Follows the storage of a new connection: asked once, then every change the supervisor announces. */
export function watchSecretStorage(current: Peer): void {
  current.on('secret.storage', (status) => {
    secretStorage.value = { ...status, names: secretStorage.value?.names ?? [] };
    forgetHeld();
  });
  current.on('workspace.changed', (ws) => {
    if (secretStorage.value) secretStorage.value = { ...secretStorage.value, names: ws.secrets };
    forgetHeld();
  });
  void refreshSecretStorage();
}

// --- which names the store holds ----------------------------------------------------------

export type Held = 'found' | 'missing' | 'unknown';

const held = signal<ReadonlyMap<string, Held>>(new Map());
const asking = new Set<string>();
let batch: Promise<void> | null = null;

/** Whether the store holds `name`: undefined until asked (the answer comes as a signal change). */
export function secretHeld(name: string): Held | undefined {
  const known = held.value.get(name);
  if (known !== undefined || asking.has(name)) return known;
  asking.add(name);
  // The names one render shows are asked in one call.
  batch ??= Promise.resolve().then(async () => {
    const names = [...asking];
    batch = null;
    try {
      const answer = await call('secret.has', { names: names.slice(0, 200) });
      const next = new Map(held.value);
      for (const n of answer.found) next.set(n, 'found');
      for (const n of answer.missing) next.set(n, 'missing');
      for (const n of answer.unknown) next.set(n, 'unknown');
      held.value = next;
    } catch {
      // Not connected: asked again at the next render after a change.
    } finally {
      for (const n of names) asking.delete(n);
    }
  });
  return undefined;
}

export function forgetHeld(): void {
  if (held.value.size > 0) held.value = new Map();
}

// --- fields saved without their secret ----------------------------------------------------

/** By draft key (tab id): the auth fields the last save left empty because nothing could store them. */
export const leftOutFields = signal<ReadonlyMap<string, ReadonlySet<string>>>(new Map());

export function noteLeftOut(key: string, fields: readonly string[]): void {
  const next = new Map(leftOutFields.value);
  if (fields.length === 0) next.delete(key);
  else next.set(key, new Set(fields));
  leftOutFields.value = next;
}
