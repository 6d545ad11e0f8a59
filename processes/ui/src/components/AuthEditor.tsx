/**
 * Auth settings of a request (or an API). Secret fields never show or keep a secret in the
 * form: a typed secret is moved to the workspace's secret store (the system keychain, or the
 * vault) when saved, and the file keeps only its `${secret:name}` reference. `${variables}` may
 * be used instead. What a field says about where its secret is, is only what is true: the
 * store's answer for a reference, and "not stored" when there is no store.
 */
import type { Auth } from '../../../../protocol/model/auth.js';
import type { SettingSource } from '../../../../protocol/model/project.js';
import { emptyAuthFields, emptyAuthMessage } from '../../../../protocol/request-checks.js';
import { isReferenceOrEmpty } from '../../../../protocol/credentials/auth-secrets.js';
import { secretHeld, secretStorage } from '../state/secret-storage.js';
import { MaskedInput } from './Overlays.js';
import { VarField } from '../code/VarField.js';

const LABELS: Record<Auth['type'], string> = {
  inherit: 'Inherit',
  none: 'No auth',
  basic: 'Basic',
  bearer: 'Bearer token',
  apikey: 'API key',
  kerberos: 'Kerberos',
  oauth2: 'OAuth 2',
};

export function defaultAuth(type: Auth['type']): Auth {
  switch (type) {
    case 'inherit':
    case 'none':
      return { type };
    case 'basic':
      return { type, username: '', password: '' };
    case 'bearer':
      return { type, token: '' };
    case 'apikey':
      return { type, name: 'X-API-Key', value: '', in: 'header' };
    case 'kerberos':
      return { type, spn: '' };
    case 'oauth2':
      return { type, grant: 'client_credentials', tokenUrl: '', authorizationUrl: '', clientId: '', clientSecret: '', scope: '', usePkce: true };
  }
}

export interface AuthEditorProps {
  auth: Auth;
  onChange(auth: Auth): void;
  allowInherit: boolean;
  /** The auth Inherit uses, and where it is set (the nearest folder that sets one, or the API). */
  inherited?: Auth;
  inheritedFrom?: SettingSource;
  /** Fields the last save left empty because nothing could store their secret. */
  leftOut?: ReadonlySet<string>;
  /** The project whose `${variables}` the fields show live (VarField); plain inputs without one. */
  project?: string;
}

/** "folder Orders", "API Shop". */
export function sourceName(source: SettingSource): string {
  return `${source.kind === 'api' ? 'API' : 'folder'} ${source.name}`;
}

export function AuthEditor({ auth, onChange, allowInherit, inherited, inheritedFrom, leftOut, project }: AuthEditorProps) {
  const types = (Object.keys(LABELS) as Auth['type'][]).filter((t) => allowInherit || t !== 'inherit');
  const set = (patch: Partial<Auth>) => onChange({ ...auth, ...patch } as Auth);
  const shown = auth.type === 'inherit' ? inherited : auth;
  const missing = shown ? emptyAuthFields(shown) : [];
  return (
    <div class="auth-editor form-grid">
      <label>
        <span>Type</span>
        <select aria-label="Auth type" value={auth.type} onChange={(e) => onChange(defaultAuth((e.target as HTMLSelectElement).value as Auth['type']))}>
          {types.map((t) => (
            <option key={t} value={t}>
              {LABELS[t]}
            </option>
          ))}
        </select>
      </label>
      {auth.type === 'inherit' && (
        <p class="muted" aria-label="Inherited auth">
          Uses {inherited ? LABELS[inherited.type] : 'the auth set above'}
          {inheritedFrom ? `, from ${sourceName(inheritedFrom)}` : ''}.
        </p>
      )}
      {shown && missing.length > 0 && (
        <p class="field-warning" role="alert">
          {emptyAuthMessage(shown, missing, auth.type === 'inherit' && inheritedFrom ? `the ${sourceName(inheritedFrom)}` : undefined)}: a request is not sent with it until{' '}
          {missing.length === 1 ? 'it is' : 'they are'} filled in
          {auth.type === 'inherit' && inheritedFrom ? (inheritedFrom.kind === 'api' ? " on the API's tab" : ` in the Folder settings of ${inheritedFrom.name}`) : ''}.
        </p>
      )}
      {auth.type === 'none' && <p class="muted">No Authorization is added.</p>}
      {auth.type === 'basic' && (
        <>
          <Field label="Username" value={auth.username} onInput={(username) => set({ username })} project={project} />
          <SecretField label="Password" value={auth.password} leftOut={leftOut?.has('password')} project={project} onInput={(password) => set({ password })} />
        </>
      )}
      {auth.type === 'bearer' && <SecretField label="Token" value={auth.token} leftOut={leftOut?.has('token')} project={project} onInput={(token) => set({ token })} />}
      {auth.type === 'apikey' && (
        <>
          <label>
            <span>Send in</span>
            <select aria-label="API key location" value={auth.in} onChange={(e) => set({ in: (e.target as HTMLSelectElement).value as 'header' | 'query' })}>
              <option value="header">Header</option>
              <option value="query">Query parameter</option>
            </select>
          </label>
          <Field label={auth.in === 'header' ? 'Header name' : 'Parameter name'} value={auth.name} onInput={(name) => set({ name })} project={project} />
          <SecretField label="Key" value={auth.value} leftOut={leftOut?.has('value')} project={project} onInput={(value) => set({ value })} />
        </>
      )}
      {auth.type === 'kerberos' && (
        <>
          <label>
            <span>SPN</span>
            <input aria-label="SPN" value={auth.spn ?? ''} placeholder="HTTP@<host of the request>" onInput={(e) => set({ spn: (e.target as HTMLInputElement).value })} />
          </label>
          <p class="muted">Uses your signed-in Kerberos ticket (kinit or your system's sign-in): nothing is stored. Sent only to the request's own host, when it asks (401 Negotiate).</p>
        </>
      )}
      {auth.type === 'oauth2' && (
        <>
          <label>
            <span>Grant</span>
            <select aria-label="OAuth grant" value={auth.grant} onChange={(e) => set({ grant: (e.target as HTMLSelectElement).value as 'client_credentials' | 'authorization_code' })}>
              <option value="client_credentials">Client credentials</option>
              <option value="authorization_code">Authorization code</option>
            </select>
          </label>
          {auth.grant === 'authorization_code' && <Field label="Authorization URL" value={auth.authorizationUrl} onInput={(authorizationUrl) => set({ authorizationUrl })} project={project} />}
          <Field label="Token URL" value={auth.tokenUrl} onInput={(tokenUrl) => set({ tokenUrl })} project={project} />
          <Field label="Client ID" value={auth.clientId} onInput={(clientId) => set({ clientId })} project={project} />
          <SecretField label="Client secret" value={auth.clientSecret} leftOut={leftOut?.has('clientSecret')} project={project} onInput={(clientSecret) => set({ clientSecret })} />
          <Field label="Scope" value={auth.scope} onInput={(scope) => set({ scope })} project={project} />
          {auth.grant === 'authorization_code' && (
            <label class="checkbox">
              <input type="checkbox" checked={auth.usePkce} onChange={(e) => set({ usePkce: (e.target as HTMLInputElement).checked })} /> Use PKCE (S256)
            </label>
          )}
          {auth.grant === 'authorization_code' && <p class="muted">Sending opens your browser to sign in; the redirect comes back to a one-time listener on 127.0.0.1.</p>}
        </>
      )}
    </div>
  );
}

function Field({ label, value, onInput, project }: { label: string; value: string; onInput(value: string): void; project: string | undefined }) {
  return (
    <label>
      <span>{label}</span>
      {project === undefined ? <input aria-label={label} value={value} onInput={(e) => onInput((e.target as HTMLInputElement).value)} /> : <VarField label={label} value={value} onChange={onInput} project={project} class="input-like" />}
    </label>
  );
}

const STORE_PLACE = { keychain: 'the system keychain', vault: 'the vault' } as const;

export function SecretField({ label, value, onInput, leftOut, project }: { label: string; value: string; onInput(value: string): void; leftOut?: boolean; project?: string }) {
  const storage = secretStorage.value;
  const stored = /^\$\{secret:([^{}]+)\}$/.exec(value.trim());
  if (stored) {
    const name = stored[1]!;
    return (
      <label>
        <span>{label}</span>
        <span class="secret-stored">
          <StoredBadge name={name} />
          <code class="muted">{`\${secret:${name}}`}</code>
          {/* Named for itself: inside the <label>, the label's whole text would be its name. */}
          <button type="button" class="button small" aria-label={`Change… ${label}`} onClick={() => onInput('')}>
            Change…
          </button>
        </span>
      </label>
    );
  }
  const literal = !isReferenceOrEmpty(value);
  const backend = storage?.backend;
  const placeholder =
    leftOut && value === ''
      ? 'Not saved: no secure storage. Type it again to send'
      : `Type it${backend ? ` (${backend === 'vault' ? 'saved to the vault' : backend === 'none' ? 'not stored: no secure storage' : 'saved to the keychain'})` : ''} or use \${variable} / \${secret:name}`;
  // Not a <label> around a code field: a click in it would press its first button (Show).
  const Wrapper = project === undefined ? 'label' : 'div';
  return (
    <Wrapper class="field">
      <span>{label}</span>
      {/* One field either way, so typing the first character of a literal keeps the focus. */}
      {project === undefined ? (
        <MaskedInput label={label} value={value} masked={literal} placeholder={placeholder} onInput={onInput} />
      ) : (
        <VarField masked label={label} value={value} placeholder={placeholder} project={project} onChange={onInput} class="input-like" />
      )}
      {literal && <small class="muted secret-hint">{typedHint(storage)}</small>}
      {leftOut && value === '' && (
        <small class="field-warning secret-left-out" role="note">
          Saved without the {label.toLowerCase()}: there was no secure storage for it, so the file has this field empty.
        </small>
      )}
    </Wrapper>
  );
}

/** What happens to a typed secret at save, as this workspace's store stands. */
function typedHint(storage: ReturnType<typeof secretStorage.peek>) {
  if (!storage) return null;
  if (storage.backend === 'keychain') {
    return (
      <>
        Stored in the system keychain when you save; the file keeps only its <code>{'${secret:name}'}</code> reference.
      </>
    );
  }
  if (storage.backend === 'vault') {
    return (
      <>
        Stored in the vault when you save{storage.locked ? ' (it asks for the passphrase first: the vault is locked)' : ''}; the file keeps only its <code>{'${secret:name}'}</code> reference.
      </>
    );
  }
  return <>Not stored: no secure storage on this system. Saving offers to create a vault, or to save without the secret.</>;
}

/** Where a `${secret:name}` reference's value is, as the store answers: never "stored" when it is not. */
function StoredBadge({ name }: { name: string }) {
  const storage = secretStorage.value;
  if (!storage) return null;
  if (storage.backend === 'none') return <span class="badge badge-warn">not stored: no secure storage</span>;
  const held = secretHeld(name);
  const place = STORE_PLACE[storage.backend];
  if (held === 'found') return <span class="badge badge-ok">{storage.backend === 'vault' ? 'stored in the vault' : 'stored in keychain'}</span>;
  if (held === 'missing') return <span class="badge badge-err">{`not found in ${place}`}</span>;
  if (held === 'unknown') return <span class="badge">{storage.locked ? 'in the vault: locked' : `not readable in ${place}`}</span>;
  return null;
}
