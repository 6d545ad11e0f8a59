/** A project tree as the sidebar shows it, one line per item, for tests: `<API>`, `  [folder]`, `    request`. */
import type { ProjectTree } from '../../protocol/model/project.js';
import { childrenByParent } from '../../protocol/project/tree-order.js';

export function outline(tree: ProjectTree): string[] {
  const { children, roots } = childrenByParent(tree);
  const lines: string[] = [];
  const walk = (id: string, depth: number) => {
    for (const item of children.get(id) ?? []) {
      lines.push(`${'  '.repeat(depth)}${item.kind === 'folder' ? `[${item.name}]` : item.name}`);
      if (item.kind === 'folder') walk(item.id, depth + 1);
    }
  };
  for (const api of roots) {
    lines.push(`<${api.name}>`);
    walk(api.id, 1);
  }
  return lines;
}
