/** A project's own settings: its properties, used by `${name}` expansion in its requests. */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Row } from '../../../../protocol/model/common.js';
import { projectByRoot, upsertProject } from '../state/app.js';
import { attempt } from '../state/rpc.js';
import { setDirty } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { RowsTable } from '../components/RowsTable.js';
import type { EditorProps } from './registry.js';
import { LoadProblemItems } from '../components/LoadProblemItems.js';

export function ProjectEditor({ tab }: EditorProps) {
  const tree = projectByRoot(tab.project);
  const rows = useSignal<Row[]>(tree?.properties ?? []);
  const dirty = useSignal(false);
  useEffect(() => {
    if (!dirty.value && tree) rows.value = tree.properties;
  }, [tree?.properties]);
  if (!tree) return <div class="pane-message">This project is closed.</div>;
  const save = async () => {
    const next = await attempt('project.setProperties', { project: tab.project, properties: rows.value.filter((r) => r.name.trim()) });
    if (next) {
      upsertProject(next);
      dirty.value = false;
      setDirty(tab.id, false);
      toast('success', 'Project properties saved.');
    }
  };
  return (
    <div class="editor project-editor">
      <header class="editor-header">
        <h2>{tree.name}</h2>
        <span class="muted path">{tree.root}</span>
        <span class="spacer" />
        <button class="button primary" disabled={!dirty.value} onClick={save}>
          Save
        </button>
      </header>
      <section class="section">
        <h3>Properties</h3>
        <p class="muted">Use them as <code>{'${name}'}</code> in URLs, parameters, headers, bodies and auth. They are saved in the project folder: keep secrets in the keychain instead.</p>
        <RowsTable
          label="Property"
          rows={rows.value}
          onChange={(next) => {
            rows.value = next;
            dirty.value = true;
            setDirty(tab.id, true);
          }}
        />
      </section>
      {tree.problems.length > 0 && (
        <section class="section">
          <h3>Problems loading this project</h3>
          <ul class="problem-list">
            <LoadProblemItems problems={tree.problems} />
          </ul>
        </section>
      )}
    </div>
  );
}
