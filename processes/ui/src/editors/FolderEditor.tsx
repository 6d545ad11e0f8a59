/**
 * A folder's settings (docs/project-files.md "Folder settings"): the auth, headers and variables
 * that every request in it (and in its folders) inherits, saved in its folder.yaml. Opened from
 * the sidebar: a double click on the folder, or Folder settings… in its menu. Each section also
 * shows what the folder itself takes from the folders above it and its API.
 */
import { effect, signal, type Signal } from '@preact/signals';
import type { FolderSettings, InheritedSettings } from '../../../../protocol/model/project.js';
import { call } from '../state/rpc.js';
import { onTabClosed, retitleTab, tabs, type Tab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { editDraft, openDraft, refreshDraft, type Draft } from '../state/drafts.js';
import { saveTab } from '../state/draft-actions.js';
import { AuthEditor } from '../components/AuthEditor.js';
import { RowsTable } from '../components/RowsTable.js';
import { InheritedRows } from '../components/InheritedRows.js';
import { withSecretStore } from '../components/SecretStoreDialog.js';
import { leftOutFields, noteLeftOut } from '../state/secret-storage.js';
import { literalSecrets } from '../../../../protocol/credentials/auth-secrets.js';
import type { EditorProps } from './registry.js';

export interface FolderDoc {
  id: string;
  name: string;
  settings: FolderSettings;
}

/** What each open folder tab's folder inherits, by tab id. */
const inheritedByTab = new Map<string, Signal<InheritedSettings | null>>();
/** Each open folder tab's watch of its folder's id (disposed with the tab). */
const following = new Map<string, () => void>();

onTabClosed((id) => {
  inheritedByTab.delete(id);
  following.get(id)?.();
  following.delete(id);
});

/** The folder a tab shows now: a folder's id is its path, and its tab follows a rename or a move (tabs.ts `retargetTabs`). */
function folderOf(tab: Tab): string {
  return tabs.value.find((t) => t.id === tab.id)?.itemId ?? tab.itemId;
}

function inheritedOf(tab: Tab): Signal<InheritedSettings | null> {
  let inherited = inheritedByTab.get(tab.id);
  if (!inherited) inheritedByTab.set(tab.id, (inherited = signal<InheritedSettings | null>(null)));
  return inherited;
}

async function loadInherited(tab: Tab): Promise<void> {
  const inherited = inheritedOf(tab);
  inherited.value = await call('tree.inherited', { project: tab.project, item: { kind: 'folder', id: folderOf(tab) } }).catch(() => inherited.value);
}

/** The folder tab's draft (made the first time). */
export function folderDraft(tab: Tab): Draft<FolderDoc> {
  const doc: Draft<FolderDoc> = openDraft<FolderDoc>(tab.id, {
    load: async () => {
      const [folder] = await Promise.all([call('folder.get', { project: tab.project, id: folderOf(tab) }), loadInherited(tab)]);
      return folder;
    },
    save: async (folder) => {
      const typed = [...literalSecrets(folder.settings.auth).keys()];
      // No secret store: the same choice as a request's save, the secret left out when asked.
      const { value: saved, leftOut } = await withSecretStore(
        (leaveOutSecrets) => call('folder.save', { project: tab.project, id: folderOf(tab), settings: folder.settings, ...(leaveOutSecrets ? { leaveOutSecrets } : {}) }),
        { leaveOut: 'Save without the secret', what: "the secret typed into the folder's auth" },
      );
      noteLeftOut(tab.id, leftOut ? typed : []);
      retitleTab(tab.id, saved.name);
      toast(leftOut ? 'warning' : 'success', leftOut ? `Folder settings of ${saved.name} saved without the secret: there is no secure storage for it.` : `Folder settings of ${saved.name} saved.`);
      return saved;
    },
    concerns: (project, changed) => {
      if (project !== tab.project) return false;
      const id = folderOf(tab);
      // Its API or a folder above it (their ids start its own): what it inherits may have changed.
      if (changed.some((c) => id.startsWith(`${c}/`))) void loadInherited(tab);
      return changed.includes(id);
    },
    label: (): string => `Folder settings of ${doc.draft.value?.name ?? tab.title}`,
  });
  // Renamed or moved, the folder has a new id (its path) once its tab follows it, after the
  // change's event has come and gone: the settings and what it inherits are read again then.
  if (!following.has(tab.id)) {
    let last = folderOf(tab);
    following.set(
      tab.id,
      effect(() => {
        const id = folderOf(tab);
        if (id === last) return;
        last = id;
        void refreshDraft(doc);
        void loadInherited(tab);
      }),
    );
  }
  return doc;
}

export function FolderEditor({ tab }: EditorProps) {
  const doc = folderDraft(tab);
  if (doc.loadError.value) return <div class="pane-message">{doc.loadError.value}</div>;
  const folder = doc.draft.value;
  if (!folder) return <div class="pane-message">Loading…</div>;
  const inherited = inheritedOf(tab).value;
  const change = (patch: Partial<FolderSettings>) => editDraft(doc, (current) => ({ ...current, settings: { ...current.settings, ...patch } }));
  const { settings } = folder;
  const named = (rows: FolderSettings['headers'], key: (name: string) => string) => new Set(rows.filter((r) => r.enabled && r.name.trim()).map((r) => key(r.name)));
  const headerKey = (name: string) => name.trim().toLowerCase();
  return (
    <div class="editor folder-editor">
      <header class="editor-header">
        <h2>{tabs.value.find((t) => t.id === tab.id)?.title ?? folder.name}</h2>
        <span class="badge">Folder settings</span>
        <span class="spacer" />
        <button class="button primary" disabled={!doc.dirty.value} onClick={() => void saveTab(tab.id)}>
          Save
        </button>
      </header>
      <p class="muted folder-note">Every request in this folder, and in the folders inside it, inherits these. A request's own header of the same name wins, and so does its own auth when it is not Inherit.</p>
      <section class="section" aria-label="Folder auth">
        <h3>Auth</h3>
        <AuthEditor auth={settings.auth} project={tab.project} leftOut={leftOutFields.value.get(tab.id)} allowInherit inherited={inherited?.auth.auth} inheritedFrom={inherited?.auth.from} onChange={(auth) => change({ auth })} />
      </section>
      <section class="section" aria-label="Folder headers">
        <h3>Headers</h3>
        <RowsTable label="Folder header" project={tab.project} rows={settings.headers} onChange={(headers) => change({ headers })} />
        <InheritedRows label="Header" rows={inherited?.headers ?? []} replacedBy={named(settings.headers, headerKey)} nameKey={headerKey} />
      </section>
      <section class="section" aria-label="Folder variables">
        <h3>Variables</h3>
        <p class="muted">
          Use them as <code>{'${name}'}</code> in the requests here. They win over the project's properties; the active environment wins over them. Saved in the project folder: keep secrets in the keychain.
        </p>
        <RowsTable label="Folder variable" project={tab.project} rows={settings.variables} onChange={(variables) => change({ variables })} />
        <InheritedRows label="Variable" rows={inherited?.variables ?? []} replacedBy={named(settings.variables, (name) => name)} />
      </section>
    </div>
  );
}
