/** A project's own settings: its properties, used by `${name}` expansion in its requests. */
import { takeTree } from '../state/project-trees.js';
import type { Row } from '../../../../protocol/model/common.js';
import { projectByRoot } from '../state/app.js';
import { call } from '../state/rpc.js';
import { toast } from '../state/toasts.js';
import { editDraft, openDraft, type Draft } from '../state/drafts.js';
import { saveTab } from '../state/draft-actions.js';
import { RowsTable } from '../components/RowsTable.js';
import type { EditorProps } from './registry.js';
import type { Tab } from '../state/tabs.js';
import { LoadProblemItems } from '../components/LoadProblemItems.js';
import { isCredentialName } from '../../../../protocol/credentials/index.js';

/** The project tab's draft of its properties (made the first time). */
export function projectDraft(tab: Tab): Draft<Row[]> {
  return openDraft<Row[]>(tab.id, {
    load: async () => (projectByRoot(tab.project) ?? (await call('project.tree', { project: tab.project }))).properties,
    save: async (rows) => {
      const next = await call('project.setProperties', { project: tab.project, properties: rows.filter((r) => r.name.trim()) });
      takeTree(next);
      toast('success', 'Project properties saved.');
      return next.properties;
    },
    concerns: (project, changed) => project === tab.project && changed.includes('project'),
    label: () => `${projectByRoot(tab.project)?.name ?? tab.title} properties`,
  });
}

export function ProjectEditor({ tab }: EditorProps) {
  const doc = projectDraft(tab);
  const tree = projectByRoot(tab.project);
  if (!tree) return <div class="pane-message">This project is closed.</div>;
  const rows = doc.draft.value ?? tree.properties;
  const save = () => void saveTab(tab.id);
  return (
    <div class="editor project-editor">
      <header class="editor-header">
        <h2>{tree.name}</h2>
        <span class="muted path">{tree.root}</span>
        <span class="spacer" />
        <button class="button primary" disabled={!doc.dirty.value} onClick={save}>
          Save
        </button>
      </header>
      <section class="section">
        <h3>Properties</h3>
        <p class="muted">Use them as <code>{'${name}'}</code> in URLs, parameters, headers, bodies and auth. They are saved in the project folder: keep secrets out of them (Add secret… under Environments keeps one in secure storage).</p>
        <RowsTable
          label="Property"
          rows={rows}
          project={tab.project}
          maskValue={(row) => isCredentialName(row.name)}
          onChange={(next) => editDraft(doc, () => next)}
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
