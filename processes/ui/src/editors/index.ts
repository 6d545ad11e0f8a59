import { registerEditor } from './registry.js';
import { ProjectEditor } from './ProjectEditor.js';

export function registerEditors(): void {
  registerEditor('project', ProjectEditor);
}
