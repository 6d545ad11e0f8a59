import { registerEditor } from './registry.js';
import { ProjectEditor } from './ProjectEditor.js';
import { RequestEditor } from './request/RequestEditor.js';
import { ApiEditor } from './ApiEditor.js';
import { EnvironmentsEditor } from './EnvironmentsEditor.js';
import { PreferencesEditor } from './PreferencesEditor.js';
import { registerMockEditor } from './mock/register.js';
import { registerBodyForm } from './request/form/index.js';
import { registerImports } from '../imports/register.js';
import { registerHistory } from '../history/register.js';
import { registerCookieJar } from './cookies/register.js';
import { registerHttpLog } from '../http-log/register.js';
import { registerTreeEdits } from '../tree/tree-edits.js';

export function registerEditors(): void {
  registerEditor('project', ProjectEditor);
  registerEditor('request', RequestEditor);
  registerEditor('api', ApiEditor);
  registerEditor('environments', EnvironmentsEditor);
  registerEditor('preferences', PreferencesEditor);
  registerMockEditor();
  registerBodyForm();
  registerImports();
  registerHistory();
  registerCookieJar();
  registerHttpLog();
  registerTreeEdits();
}
