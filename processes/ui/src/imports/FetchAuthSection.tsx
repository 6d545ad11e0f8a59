/**
 * The Authentication section of a URL source: None, Basic, Bearer token, API key (header or
 * query) or Kerberos (the signed-in ticket, optional SPN), plus "Use stored credentials" where
 * the definition update offers it. Secrets are typed into masked fields and go to the secret
 * store (the keychain, or the vault) with the import, never into a project file; Kerberos has none.
 */
import { AUTH_MODE_LABELS, type AuthDraft, type AuthMode } from './fetch-credentials.js';
import { secretStorage } from '../state/secret-storage.js';

/** Where fetch credentials are kept, as the workspace's store stands. */
function storePlace(): string {
  const backend = secretStorage.value?.backend;
  return backend === 'vault' ? 'the vault' : backend === 'none' ? 'secure storage (there is none yet: the import offers a vault)' : 'the system keychain';
}

export function FetchAuthSection({
  draft,
  onChange,
  modes,
  storedLabel,
  storedKerberos,
}: {
  draft: AuthDraft;
  onChange(draft: AuthDraft): void;
  modes: AuthMode[];
  storedLabel?: string;
  /** The recorded credentials are Kerberos: nothing is in the secret store. */
  storedKerberos?: boolean;
}) {
  const set = (patch: Partial<AuthDraft>) => onChange({ ...draft, ...patch });
  return (
    <fieldset class="import-auth">
      <legend>Authentication</legend>
      <div class="segmented" role="radiogroup" aria-label="Authentication">
        {modes.map((mode) => (
          <button key={mode} type="button" role="radio" aria-checked={draft.mode === mode} class={draft.mode === mode ? 'active' : ''} onClick={() => set({ mode })}>
            {AUTH_MODE_LABELS[mode]}
          </button>
        ))}
      </div>
      {draft.mode === 'stored' && (
        <p class="muted import-hint">
          {storedKerberos ? 'Fetched with Kerberos as recorded with the API' : `Fetched with the credentials kept in ${storePlace()}`}
          {storedLabel ? `: ${storedLabel}` : ''}.
        </p>
      )}
      {draft.mode === 'none' && <p class="muted import-hint">The document is fetched without credentials.</p>}
      {draft.mode === 'basic' && (
        <div class="import-auth-fields">
          <TextField label="Username" value={draft.username} onInput={(username) => set({ username })} />
          <TextField label="Password" secret value={draft.password} onInput={(password) => set({ password })} />
        </div>
      )}
      {draft.mode === 'bearer' && (
        <div class="import-auth-fields">
          <TextField label="Token" secret value={draft.token} onInput={(token) => set({ token })} />
        </div>
      )}
      {draft.mode === 'apikey' && (
        <div class="import-auth-fields three">
          <TextField label="Key name" value={draft.keyName} onInput={(keyName) => set({ keyName })} />
          <TextField label="Key value" secret value={draft.keyValue} onInput={(keyValue) => set({ keyValue })} />
          <label>
            <span>Send in</span>
            <select aria-label="Send the key in" value={draft.keyIn} onChange={(e) => set({ keyIn: (e.target as HTMLSelectElement).value as 'header' | 'query' })}>
              <option value="header">Header</option>
              <option value="query">Query string</option>
            </select>
          </label>
        </div>
      )}
      {draft.mode === 'kerberos' && (
        <>
          <div class="import-auth-fields">
            <label>
              <span>SPN (optional)</span>
              <input aria-label="SPN" type="text" autoComplete="off" spellcheck={false} placeholder="HTTP@<the document's host>" value={draft.spn} onInput={(e) => set({ spn: (e.target as HTMLInputElement).value })} />
            </label>
          </div>
          <p class="muted import-hint">Uses your signed-in Kerberos ticket (kinit or your system sign-in): no password is asked for or stored. The token goes only to the document’s own origin.</p>
        </>
      )}
      {(draft.mode === 'basic' || draft.mode === 'bearer' || draft.mode === 'apikey') && (
        <p class="muted import-hint">Sent only to the document’s own origin, and kept in {storePlace()} so the definition can be read again.</p>
      )}
    </fieldset>
  );
}

function TextField({ label, value, secret, onInput }: { label: string; value: string; secret?: boolean; onInput(value: string): void }) {
  return (
    <label>
      <span>{label}</span>
      <input aria-label={label} type={secret ? 'password' : 'text'} autoComplete="off" spellcheck={false} value={value} onInput={(e) => onInput((e.target as HTMLInputElement).value)} />
    </label>
  );
}
