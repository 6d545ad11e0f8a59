/**
 * The cookie jar tab: every cookie of the workspace by domain, with its name, value (masked until
 * Show values), path, expiry and flags; add, edit, delete a cookie or a whole domain, Clear all
 * after confirmation. The list follows the jar live (`cookies.changed`).
 */
import { useEffect } from 'preact/hooks';
import type { JarCookie } from '../../../../../protocol/model/cookies.js';
import { COOKIE_LIMITS } from '../../../../../protocol/model/cookies.js';
import { attempt, call } from '../../state/rpc.js';
import { openCustom } from '../../state/overlays.js';
import { toast } from '../../state/toasts.js';
import { PlusIcon, SearchIcon } from '../../components/Icons.js';
import { openCookieDialog } from './CookieDialog.js';
import { secretStorage } from '../../state/secret-storage.js';
import { MASK, expiryText, jar, jarError, jarFilter, loadJar, setShowValues, showValues } from './jar-state.js';
import './cookies.css';

export function CookieJarEditor() {
  useEffect(() => void loadJar(), []);
  const current = jar.value;
  if (!current) return <div class="pane-message">{jarError.value ?? 'Loading…'}</div>;
  const filter = jarFilter.value.trim().toLowerCase();
  const shown = filter ? current.cookies.filter((c) => c.domain.includes(filter) || c.name.toLowerCase().includes(filter)) : current.cookies;
  const domains = new Map<string, JarCookie[]>();
  for (const cookie of shown) domains.set(cookie.domain, [...(domains.get(cookie.domain) ?? []), cookie]);
  const total = current.cookies.length;
  return (
    <div class="editor cookie-jar">
      <header class="editor-header">
        <h2>Cookies</h2>
        <span class="muted" data-testid="jar-count">
          {total === 0 ? 'empty' : `${total.toLocaleString('en')} ${total === 1 ? 'cookie' : 'cookies'} in ${new Set(current.cookies.map((c) => c.domain)).size} ${new Set(current.cookies.map((c) => c.domain)).size === 1 ? 'domain' : 'domains'}`}
        </span>
        <span class="spacer" />
        <label class="jar-search">
          <SearchIcon />
          <input aria-label="Filter cookies" placeholder="Filter by domain or name" value={jarFilter.value} onInput={(e) => (jarFilter.value = (e.target as HTMLInputElement).value)} />
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={showValues.value} onChange={(e) => setShowValues((e.target as HTMLInputElement).checked)} /> Show values
        </label>
        <button class="button" onClick={() => openCookieDialog()}>
          <PlusIcon /> Add cookie…
        </button>
        <button class="button danger" disabled={total === 0} onClick={() => confirmClearAll(total)}>
          Clear all…
        </button>
      </header>
      <JarStatusLine />
      {total === 0 ? (
        <p class="jar-empty muted">The jar is empty. Cookies that responses set land here, and a request sends the matching ones when its Send cookies setting is on.</p>
      ) : domains.size === 0 ? (
        <p class="jar-empty muted">No cookie matches “{jarFilter.value}”.</p>
      ) : (
        <table class="kv-table jar-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Value</th>
              <th>Path</th>
              <th>Expires</th>
              <th>Flags</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          {[...domains].map(([domain, cookies]) => (
            <tbody key={domain} aria-label={`Cookies of ${domain}`}>
              <tr class="jar-domain">
                <th colSpan={5}>
                  <span class="mono">{domain}</span>
                  <span class="muted count-label">
                    {cookies.length} {cookies.length === 1 ? 'cookie' : 'cookies'}
                  </span>
                </th>
                <td class="jar-actions">
                  <button class="link-button danger-link" onClick={() => void deleteDomain(domain)}>
                    Delete domain
                  </button>
                </td>
              </tr>
              {cookies.map((cookie) => (
                <CookieRow key={`${cookie.path} ${cookie.name}`} cookie={cookie} />
              ))}
            </tbody>
          ))}
        </table>
      )}
    </div>
  );
}

function JarStatusLine() {
  const status = jar.value?.status;
  if (!status) return null;
  if (status.message) {
    return (
      <p class="note jar-status" role="status">
        {status.message}
      </p>
    );
  }
  return (
    <p class="muted jar-status">
      Cookies with an expiry are kept across restarts, encrypted with a key in {secretStorage.value?.backend === 'vault' ? 'the vault' : 'the system keychain'}; session cookies last until Parley quits. Limits: {COOKIE_LIMITS.perDomain} per domain,{' '}
      {COOKIE_LIMITS.total.toLocaleString('en')} in all, 4 KB each.
    </p>
  );
}

function CookieRow({ cookie }: { cookie: JarCookie }) {
  return (
    <tr>
      <td class="mono jar-name">{cookie.name}</td>
      <td class="mono jar-value">{showValues.value && cookie.value !== undefined ? cookie.value || <span class="muted">(empty)</span> : MASK}</td>
      <td class="mono">{cookie.path}</td>
      <td title={cookie.expires}>{expiryText(cookie.expires)}</td>
      <td class="jar-flags">
        {!cookie.hostOnly && <span class="badge" title="Sent to subdomains too">subdomains</span>}
        {cookie.secure && <span class="badge">Secure</span>}
        {cookie.httpOnly && <span class="badge">HttpOnly</span>}
        {cookie.sameSite && <span class="badge">SameSite={cookie.sameSite}</span>}
      </td>
      <td class="jar-actions">
        <button class="link-button" aria-label={`Edit ${cookie.name}`} onClick={() => void editCookie(cookie)}>
          Edit
        </button>
        <button class="link-button danger-link" aria-label={`Delete ${cookie.name}`} onClick={() => void deleteCookie(cookie)}>
          Delete
        </button>
      </td>
    </tr>
  );
}

/** Edit needs the value even while values are hidden: it is read for this one cookie. */
async function editCookie(cookie: JarCookie): Promise<void> {
  const withValues = await attempt('cookies.list', { values: true });
  const current = withValues?.cookies.find((c) => c.domain === cookie.domain && c.path === cookie.path && c.name === cookie.name);
  if (!current) {
    toast('warning', `${cookie.name} is no longer in the jar.`);
    void loadJar();
    return;
  }
  openCookieDialog(current);
}

async function deleteCookie(cookie: JarCookie): Promise<void> {
  await attempt('cookies.delete', { domain: cookie.domain, path: cookie.path, name: cookie.name });
  void loadJar();
}

async function deleteDomain(domain: string): Promise<void> {
  const done = await attempt('cookies.deleteDomain', { domain });
  if (done) toast('success', `Deleted ${done.deleted} ${done.deleted === 1 ? 'cookie' : 'cookies'} of ${domain}.`);
  void loadJar();
}

export function confirmClearAll(count: number): void {
  openCustom({
    title: 'Clear all cookies?',
    render: (close) => (
      <div class="dialog-body">
        <p>
          Every cookie in the jar goes: {count.toLocaleString('en')} {count === 1 ? 'cookie' : 'cookies'}, session cookies and saved ones alike. Requests that relied on them will
          have to sign in again.
        </p>
        <footer class="dialog-footer">
          <button class="button" onClick={close}>
            Cancel
          </button>
          <button
            class="button primary danger-fill"
            onClick={async () => {
              close();
              try {
                const { deleted } = await call('cookies.clear', {});
                toast('success', `Cleared the jar: ${deleted} ${deleted === 1 ? 'cookie' : 'cookies'} deleted.`);
              } catch (err) {
                toast('error', (err as Error).message);
              }
              void loadJar();
            }}
          >
            Clear all
          </button>
        </footer>
      </div>
    ),
  });
}
