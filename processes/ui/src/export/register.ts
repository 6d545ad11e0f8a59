/**
 * Export… (docs/export.md): on an API or folder row's context menu, and "Export an API or
 * folder…" in the palette (the focused row's or the active tab's place first). One dialog asks
 * for the format and where to save, as the Runner's report export does: a file on this machine,
 * in the home folder unless the path says otherwise, never replacing one. The supervisor reads
 * and writes; a toast names the file and what the format could not carry.
 */
import { EXPORT_FORMAT_INFO, EXPORT_FORMATS, type ExportFormat } from '../../../../protocol/export/scope.js';
import { childrenByParent } from '../../../../protocol/project/tree-order.js';
import type { ProjectTree } from '../../../../protocol/model/project.js';
import { menuContributions } from '../state/actions.js';
import { projectByRoot, projects } from '../state/app.js';
import { registerCommands } from '../state/commands.js';
import { openForm } from '../state/overlays.js';
import { call } from '../state/rpc.js';
import { activeTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { actedOn, treeActive } from '../tree/selection.js';

interface Target {
  project: string;
  kind: 'api' | 'folder';
  id: string;
  name: string;
  label: string;
}

let lastFolder: string | undefined;
let lastFormat: ExportFormat = 'postman';

const formatOf = (label: string) => EXPORT_FORMATS.find((f) => EXPORT_FORMAT_INFO[f].label === label);

function fileName(name: string, format: ExportFormat): string {
  const base = name.replace(/[\\/:*?"<>|\s]+/g, '-').replace(/^-+|-+$/g, '') || 'export';
  return `${base}${EXPORT_FORMAT_INFO[format].extension}`;
}

/** The dialog: `targets` to choose from (one when opened from a row), the format and the file. */
function exportDialog(targets: Target[], preferred: Target): void {
  const several = targets.length > 1;
  openForm({
    title: several ? 'Export an API or folder' : `Export ${preferred.kind === 'api' ? 'the API' : 'the folder'} ${preferred.name}`,
    submitLabel: 'Export',
    busyLabel: 'Exporting…',
    fields: [
      ...(several ? [{ name: 'target', label: 'Export', kind: 'select' as const, value: preferred.label, options: targets.map((t) => t.label) }] : []),
      { name: 'format', label: 'Format', kind: 'select', value: EXPORT_FORMAT_INFO[lastFormat].label, options: EXPORT_FORMATS.map((f) => EXPORT_FORMAT_INFO[f].label) },
      {
        name: 'path',
        label: 'Save as',
        value: lastFolder ? `${lastFolder}/${fileName(preferred.name, lastFormat)}` : fileName(preferred.name, lastFormat),
        required: true,
        hint: 'A file on this machine; a relative path is in your home folder. An existing file is never replaced. Credentials are written only as references.',
      },
    ],
    onSubmit: async ({ target, format, path }) => {
      const chosen = several ? targets.find((t) => t.label === target) : preferred;
      const kind = formatOf(format ?? '');
      if (!chosen) return 'Choose what to export.';
      if (!kind) return 'Choose a format.';
      try {
        const done = await call('project.export', { project: chosen.project, target: { kind: chosen.kind, id: chosen.id }, format: kind, path: path!.trim() });
        lastFormat = kind;
        lastFolder = done.file.slice(0, Math.max(done.file.lastIndexOf('/'), done.file.lastIndexOf('\\')));
        const notes = done.notes.length > 0 ? ` ${done.notes.length} note${done.notes.length === 1 ? '' : 's'}: ${done.notes.slice(0, 3).join(' ')}${done.notes.length > 3 ? ' …' : ''}` : '';
        toast('success', `Exported ${done.requests} request${done.requests === 1 ? '' : 's'} to ${done.file}.${notes}`, notes ? 12_000 : undefined);
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
}

/** Each open project's APIs and folders, in the tree's order. */
function targets(): Target[] {
  const out: Target[] = [];
  const several = projects.value.length > 1;
  for (const tree of projects.value) for (const t of apisAndFolders(tree)) out.push({ ...t, label: `${t.label}${several ? ` (${tree.name})` : ''}` });
  return out;
}

function apisAndFolders(tree: ProjectTree): Target[] {
  const out: Target[] = [];
  const { children, roots } = childrenByParent(tree);
  const walk = (parent: string, path: string[]) => {
    for (const item of children.get(parent) ?? []) {
      if (item.kind !== 'folder') continue;
      out.push({ project: tree.root, kind: 'folder', id: item.id, name: item.name, label: [...path, item.name].join(' / ') });
      walk(item.id, [...path, item.name]);
    }
  };
  for (const api of roots) {
    out.push({ project: tree.root, kind: 'api', id: api.id, name: api.name, label: `API ${api.name}` });
    walk(api.id, [api.name]);
  }
  return out;
}

function chooseWhatToExport(): void {
  const all = targets();
  if (all.length === 0) return void toast('warning', 'Open a project with an API first.');
  const focused = treeActive.value ? actedOn() : [];
  const at = focused.length === 1 ? { project: focused[0]!.project, id: focused[0]!.id } : activeTab.value ? { project: activeTab.value.project, id: activeTab.value.itemId } : null;
  const item = at ? projectByRoot(at.project)?.items.find((i) => i.id === at.id && i.kind !== 'mock') : undefined;
  // A request's place is its parent: a folder or an API.
  const id = item?.kind === 'request' ? item.parent : at?.id;
  exportDialog(all, all.find((t) => t.project === at?.project && t.id === id) ?? all[0]!);
}

export function registerExport(): void {
  menuContributions.push((project, item) => {
    if (item.kind !== 'api' && item.kind !== 'folder') return [];
    return [{ label: 'Export…', run: () => exportDialog([], { project, kind: item.kind as 'api' | 'folder', id: item.id, name: item.name, label: item.name }) }];
  });
  registerCommands([{ id: 'export.open', title: 'Export an API or folder…', when: () => projects.value.length > 0, run: chooseWhatToExport }]);
}
