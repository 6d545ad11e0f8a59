import { registerEditor } from './registry.js';
import { ProjectEditor, projectDraft } from './ProjectEditor.js';
import { registerRequestKinds } from '../kinds/index.js';
import { ApiEditor, apiDraft } from './ApiEditor.js';
import { FolderEditor, folderDraft } from './FolderEditor.js';
import { EnvironmentsEditor, environmentsDraft } from './EnvironmentsEditor.js';
import type { Draft } from '../state/drafts.js';
import { PreferencesEditor } from './PreferencesEditor.js';
import { registerMockEditor } from './mock/register.js';
import { registerBodyForm } from './request/form/index.js';
import { registerImports } from '../imports/register.js';
import { registerHistory } from '../history/register.js';
import { registerCookieJar } from './cookies/register.js';
import { registerHttpLog } from '../http-log/register.js';
import { registerSecretCommands } from '../components/SecretStoreDialog.js';
import { registerTreeEdits } from '../tree/tree-edits.js';
import { registerExport } from '../export/register.js';
import { registerRunner } from '../runner/register.js';

export function registerEditors(): void {
  registerEditor('project', ProjectEditor, (tab) => projectDraft(tab) as Draft<unknown>);
  registerRequestKinds();
  registerEditor('api', ApiEditor, (tab) => apiDraft(tab) as Draft<unknown>);
  registerEditor('folder', FolderEditor, (tab) => folderDraft(tab) as Draft<unknown>);
  registerEditor('environments', EnvironmentsEditor, (tab) => environmentsDraft(tab) as Draft<unknown>);
  registerEditor('preferences', PreferencesEditor);
  registerMockEditor();
  registerBodyForm();
  registerImports();
  registerHistory();
  registerCookieJar();
  registerHttpLog();
  registerSecretCommands();
  registerTreeEdits();
  registerRunner();
  registerExport();
}
