/**
 * Auth settings of a request (or an API). Secret fields never show or keep a secret in the
 * form: a typed secret is moved to the OS keychain when saved, and the file keeps only its
 * `${secret:name}` reference. `${variables}` may be used instead.
 */
import type { Auth } from '../../../../protocol/model/auth.js';
import { emptyAuthFields, emptyAuthMessage } from '../../../../protocol/request-checks.js';
import { MaskedInput } from './Overlays.js';
import { VarField } from '../code/VarField.js';

const LABELS: Record<Auth['type'], string> = {
  inherit: 'Inherit from API',
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
  /** The API's auth, which Inherit uses, and the API's name. */
  inherited?: Auth;
  inheritedFrom?: string;
  /** The project whose `${variables}` the fields show live (VarField); plain inputs without one. */
  project?: string;
}

export function AuthEditor({ auth, onChange, allowInherit, inherited, inheritedFrom, project }: AuthEditorProps) {
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
        <p class="muted">
          Uses the API's authentication{inherited ? `: ${LABELS[inherited.type]}` : ''}
          {inheritedFrom ? ` (set on the API ${inheritedFrom})` : ''}.
        </p>
      )}
      {shown && missing.length > 0 && (
        <p class="field-warning" role="alert">
          {emptyAuthMessage(shown, missing, auth.type === 'inherit' ? `the API ${inheritedFrom ?? ''}`.trim() : undefined)}: a request is not sent with it until{' '}
          {missing.length === 1 ? 'it is' : 'they are'} filled in{auth.type === 'inherit' ? " on the API's tab" : ''}.
        </p>
      )}
      {auth.type === 'none' && <p class="muted">No Authorization is added.</p>}
      {auth.type === 'basic' && (
        <>
          <Field label="Username" value={auth.username} onInput={(username) => set({ username })} project={project} />
          <SecretField label="Password" value={auth.password} onInput={(password) => set({ password })} />
        </>
      )}
      {auth.type === 'bearer' && <SecretField label="Token" value={auth.token} onInput={(token) => set({ token })} />}
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
          <SecretField label="Key" value={auth.value} onInput={(value) => set({ value })} />
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
          <SecretField label="Client secret" value={auth.clientSecret} onInput={(clientSecret) => set({ clientSecret })} />
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

/** Only `${...}` references: safe to keep in a file as written. */
export function isReferenceOnly(value: string): boolean {
  return value === '' || /^(\$\{[^{}]+\})+$/.test(value.trim());
}

export function SecretField({ label, value, onInput }: { label: string; value: string; onInput(value: string): void }) {
  const stored = /^\$\{secret:([^{}]+)\}$/.exec(value.trim());
  if (stored) {
    return (
      <label>
        <span>{label}</span>
        <span class="secret-stored">
          <span class="badge badge-ok">stored in keychain</span>
          <code class="muted">{`\${secret:${stored[1]}}`}</code>
          <button type="button" class="button small" onClick={() => onInput('')}>
            Change…
          </button>
        </span>
      </label>
    );
  }
  const literal = !isReferenceOnly(value);
  return (
    <label>
      <span>{label}</span>
      {/* One input either way, so typing the first character of a literal keeps the focus. */}
      <MaskedInput label={label} value={value} masked={literal} placeholder="Type it (saved to the keychain) or use ${variable} / ${secret:name}" onInput={onInput} />
      {literal && (
        <small class="muted">
          Stored in the system keychain when you save; the file keeps only its <code>{'${secret:name}'}</code> reference.
        </small>
      )}
    </label>
  );
}
