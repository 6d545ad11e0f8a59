/** Add a cookie to the jar, or edit one: every field a Set-Cookie could carry, checked by the supervisor. */
import { useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { CookieInput, CookieKey, JarCookie } from '../../../../../protocol/model/cookies.js';
import { call } from '../../state/rpc.js';
import { openCustom } from '../../state/overlays.js';
import { toast } from '../../state/toasts.js';
import { loadJar } from './jar-state.js';

/** `datetime-local` wants local time without seconds or zone. */
function toLocalInput(iso: string | undefined): string {
  if (iso === undefined) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function openCookieDialog(existing?: JarCookie): void {
  openCustom({
    title: existing ? `Edit cookie ${existing.name}` : 'Add a cookie',
    render: (close) => <CookieForm existing={existing} close={close} />,
  });
}

function CookieForm({ existing, close }: { existing?: JarCookie; close: () => void }) {
  const draft = useSignal<CookieInput>({
    domain: existing?.domain ?? '',
    path: existing?.path ?? '/',
    name: existing?.name ?? '',
    value: existing?.value ?? '',
    hostOnly: existing?.hostOnly ?? true,
    secure: existing?.secure ?? false,
    httpOnly: existing?.httpOnly ?? false,
    ...(existing?.expires ? { expires: existing.expires } : {}),
  });
  const expiresText = useSignal(toLocalInput(existing?.expires));
  const error = useSignal('');
  const busy = useSignal(false);
  const first = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => first.current?.focus(), []);
  const set = (patch: Partial<CookieInput>) => (draft.value = { ...draft.value, ...patch });
  const text = (field: 'domain' | 'path' | 'name' | 'value', label: string, placeholder?: string) => (
    <label>
      <span>{label}</span>
      <input
        ref={field === 'domain' ? first : undefined}
        class={field === 'value' ? 'mono' : undefined}
        aria-label={`Cookie ${field}`}
        value={draft.value[field]}
        placeholder={placeholder}
        spellcheck={false}
        onInput={(e) => set({ [field]: (e.target as HTMLInputElement).value })}
      />
    </label>
  );
  const flag = (field: 'secure' | 'httpOnly', label: string) => (
    <label class="checkbox">
      <input type="checkbox" checked={draft.value[field]} onChange={(e) => set({ [field]: (e.target as HTMLInputElement).checked })} />
      {label}
    </label>
  );
  const submit = async (e: Event) => {
    e.preventDefault();
    const { expires: _old, ...rest } = draft.value;
    const cookie: CookieInput = expiresText.value ? { ...rest, expires: new Date(expiresText.value).toISOString() } : rest;
    const previous: CookieKey | undefined = existing ? { domain: existing.domain, path: existing.path, name: existing.name } : undefined;
    busy.value = true;
    try {
      const { evicted } = await call('cookies.save', { cookie, ...(previous ? { previous } : {}) });
      close();
      toast('success', `${existing ? 'Saved' : 'Added'} ${cookie.name}${evicted.length ? `; the jar dropped ${evicted.map((k) => `${k.name} of ${k.domain}`).join(', ')} to stay within its limits` : ''}.`);
      void loadJar();
    } catch (err) {
      error.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  };
  return (
    <form class="dialog-body form-grid cookie-form" onSubmit={submit}>
      <div class="cookie-form-row">
        {text('domain', 'Domain', 'api.example.com')}
        {text('path', 'Path', '/')}
      </div>
      {text('name', 'Name', 'session')}
      {text('value', 'Value')}
      <label>
        <span>Expires (empty: a session cookie, gone when Parley quits)</span>
        <input type="datetime-local" aria-label="Cookie expires" value={expiresText.value} onInput={(e) => (expiresText.value = (e.target as HTMLInputElement).value)} />
      </label>
      <div class="cookie-flags">
        <label class="checkbox">
          <input type="checkbox" checked={!draft.value.hostOnly} onChange={(e) => set({ hostOnly: !(e.target as HTMLInputElement).checked })} />
          Also for subdomains
        </label>
        {flag('secure', 'Secure (https only)')}
        {flag('httpOnly', 'HttpOnly')}
      </div>
      {error.value && (
        <p class="form-error" role="alert">
          {error.value}
        </p>
      )}
      <footer class="dialog-footer">
        <button type="button" class="button" onClick={close}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy.value}>
          {existing ? 'Save' : 'Add'}
        </button>
      </footer>
    </form>
  );
}
