/**
 * What the page does when a secret cannot be stored (docs/secrets.md, "No keychain: the vault"):
 * with no keychain it explains and offers "Create a vault with a passphrase", going without the
 * secret (when the caller can), or Cancel; with a locked vault it asks for the passphrase. A save,
 * an import or Add secret… runs through `withSecretStore`, which asks and runs it again as chosen.
 */
import { signal, useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { ParleyError } from '../../../../protocol/errors.js';
import { NO_STORAGE_CODES } from '../../../../protocol/model/workspace.js';
import { call } from '../state/rpc.js';
import { registerCommands } from '../state/commands.js';
import { refreshSecretStorage, secretStorage, type SecretStatus } from '../state/secret-storage.js';
import { MaskedInput } from './Overlays.js';
import { CloseIcon } from './Icons.js';

export type StoreChoice = 'ready' | 'leave-out' | 'cancel';

export interface AskOptions {
  /** The button that goes on without the secret ("Save without the secret"); none: no such way. */
  leaveOut?: string;
  /** What needs the store, for the dialog's words: "the password typed into Basic auth". */
  what?: string;
}

interface OpenStoreDialog {
  status: SecretStatus;
  options: AskOptions;
  answer(choice: StoreChoice): void;
}

/** Its own layer, over any dialog that asked (Import cURL keeps what was typed in it). */
const storeDialog = signal<OpenStoreDialog | null>(null);

/** Asks for a store when there is none usable; 'ready' at once when there is one. */
export async function askSecretStore(options: AskOptions = {}): Promise<StoreChoice> {
  const status = await refreshSecretStorage();
  if (!status || status.available) return 'ready';
  storeDialog.value?.answer('cancel');
  return new Promise((resolve) => {
    const open: OpenStoreDialog = {
      status,
      options,
      answer: (choice) => {
        if (storeDialog.value === open) storeDialog.value = null;
        resolve(choice);
      },
    };
    storeDialog.value = open;
  });
}

/** Where the dialog is drawn: once, in the app's shell. */
export function SecretStoreDialogLayer() {
  const open = storeDialog.value;
  useEffect(() => {
    if (!open) return;
    // Escape closes this dialog only, not the one under it: caught first, and stopped.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopImmediatePropagation();
      open.answer('cancel');
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);
  if (!open) return null;
  const title = open.status.backend === 'vault' ? 'Unlock the vault' : 'No secure storage';
  return (
    <div class="overlay secret-store-layer" onMouseDown={(e) => e.target === e.currentTarget && open.answer('cancel')}>
      <div class="dialog" role="dialog" aria-modal="true" aria-label={title}>
        <header class="dialog-header">
          <h2>{title}</h2>
          <button class="icon-button" aria-label="Close" onClick={() => open.answer('cancel')}>
            <CloseIcon />
          </button>
        </header>
        <StoreDialog status={open.status} options={open.options} answer={open.answer} />
      </div>
    </div>
  );
}

/**
 * Runs `run` (a save or an import that may carry a secret); when nothing can store the secret,
 * asks, then runs it again with the store ready or with `leaveOut`. Throws `cancelled` on Cancel.
 */
export async function withSecretStore<T>(run: (leaveOut: boolean) => Promise<T>, options: AskOptions = {}): Promise<{ value: T; leftOut: boolean }> {
  // Bounded: a store made ready can be locked again meanwhile (another window), but not for ever.
  for (let round = 0; round < 3; round++) {
    try {
      return { value: await run(false), leftOut: false };
    } catch (err) {
      if (!NO_STORAGE_CODES.has((err as ParleyError).code)) throw err;
      const choice = await askSecretStore(options);
      if (choice === 'cancel') throw new ParleyError('cancelled', 'Not saved: the secret had nowhere to go.');
      if (choice === 'leave-out') return { value: await run(true), leftOut: true };
    }
  }
  throw new ParleyError('no-secure-storage', secretStorage.value?.reason ?? 'No secure storage on this system.');
}

function StoreDialog({ status, options, answer }: { status: SecretStatus; options: AskOptions; answer(choice: StoreChoice): void }) {
  const creating = useSignal(false);
  const passphrase = useSignal('');
  const again = useSignal('');
  const error = useSignal('');
  const busy = useSignal(false);
  const locked = status.backend === 'vault';
  const what = options.what ?? 'a secret';

  const submit = async (e: Event) => {
    e.preventDefault();
    error.value = '';
    if (!locked && passphrase.value !== again.value) {
      error.value = 'The two passphrases differ.';
      return;
    }
    busy.value = true;
    try {
      await call(locked ? 'secret.unlock' : 'secret.createVault', { passphrase: passphrase.value });
      await refreshSecretStorage();
      answer('ready');
    } catch (err) {
      error.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  };

  const leaveOut = options.leaveOut && (
    <button type="button" class="button" onClick={() => answer('leave-out')}>
      {options.leaveOut}
    </button>
  );
  const cancel = (
    <button type="button" class="button" onClick={() => answer('cancel')}>
      Cancel
    </button>
  );

  if (!locked && !creating.value) {
    return (
      <div class="dialog-body secret-store-dialog">
        <p>
          Parley keeps {what} in the system keychain, and found none it can use on this system (on Linux: no Secret Service in your session).
        </p>
        <p>
          It can keep secrets in a <strong>vault</strong> instead: a file in Parley's data folder{status.vaultFile ? <> (<code class="break">{status.vaultFile}</code>)</> : null}, encrypted
          with a key made from a passphrase you choose. You type the passphrase once per session; nobody can recover it, so keep it safe.
        </p>
        {options.leaveOut && <p class="muted">Or go on without the secret: the field is left empty, and nothing secret is written.</p>}
        <footer class="dialog-footer">
          {leaveOut}
          <span class="spacer" />
          {cancel}
          <FocusedButton label="Create a vault with a passphrase" onClick={() => (creating.value = true)} />
        </footer>
      </div>
    );
  }

  return (
    <form class="dialog-body form-grid secret-store-dialog" onSubmit={submit}>
      <p>
        {locked ? (
          <>
            Secrets are kept in the vault <code class="break">{status.vaultFile}</code>, which is locked. Its passphrase unlocks it until Parley quits.
          </>
        ) : (
          <>A vault made here keeps {what} and every later secret of this workspace. At least 8 characters; a few words are easier to remember than symbols.</>
        )}
      </p>
      <PassphraseField label="Passphrase" value={passphrase.value} onInput={(v) => (passphrase.value = v)} />
      {!locked && <PassphraseField label="Passphrase again" focus={false} value={again.value} onInput={(v) => (again.value = v)} />}
      {error.value && (
        <p class="form-error" role="alert">
          {error.value}
        </p>
      )}
      <footer class="dialog-footer">
        {leaveOut}
        <span class="spacer" />
        {cancel}
        <button type="submit" class="button primary" disabled={busy.value || passphrase.value === ''}>
          {busy.value ? (locked ? 'Unlocking…' : 'Creating…') : locked ? 'Unlock' : 'Create vault'}
        </button>
      </footer>
    </form>
  );
}

function PassphraseField({ label, value, onInput, focus = true }: { label: string; value: string; onInput(value: string): void; focus?: boolean }) {
  const ref = useRef<HTMLLabelElement>(null);
  useLayoutEffect(() => {
    if (focus) ref.current?.querySelector('input')?.focus();
  }, []);
  return (
    <label ref={ref}>
      <span>{label}</span>
      <MaskedInput label={label} value={value} onInput={onInput} />
    </label>
  );
}

function FocusedButton({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <button type="button" class="button primary" ref={(el: HTMLButtonElement | null) => el?.focus()} onClick={onClick}>
      {label}
    </button>
  );
}

/** Unlock vault… / Create vault… from the status bar or the palette, outside any save. */
export function openVaultDialog(): void {
  void askSecretStore({});
}

/** Lock vault: the key is forgotten until the passphrase is given again. */
export async function lockVault(): Promise<void> {
  try {
    await call('secret.lock', {});
  } finally {
    await refreshSecretStorage();
  }
}

/** The vault's commands in the palette, each offered when it applies. */
export function registerSecretCommands(): void {
  const storage = () => secretStorage.value;
  registerCommands([
    { id: 'secrets.createVault', title: 'Create vault…', when: () => storage()?.backend === 'none', run: openVaultDialog },
    { id: 'secrets.unlockVault', title: 'Unlock vault…', when: () => storage()?.backend === 'vault' && storage()!.locked, run: openVaultDialog },
    { id: 'secrets.lockVault', title: 'Lock vault', when: () => storage()?.backend === 'vault' && !storage()!.locked, run: () => void lockVault() },
  ]);
}

/** The status bar's word on the vault, when there is one: locked (click to unlock) or unlocked (click to lock). */
export function VaultStatus() {
  const storage = secretStorage.value;
  if (storage?.backend !== 'vault') return null;
  return storage.locked ? (
    <button class="status-button vault-locked" title={`Secrets are in the vault ${storage.vaultFile ?? ''}: give its passphrase to use them`} onClick={openVaultDialog}>
      Vault locked: unlock…
    </button>
  ) : (
    <button class="status-button" title={`Secrets are in the vault ${storage.vaultFile ?? ''}, unlocked until Parley quits. Click to lock it now.`} onClick={() => void lockVault()}>
      Vault unlocked
    </button>
  );
}
