/** `project.export`: the app's Export… (docs/export.md), the same reader and converters as `parley export`. */
import type { Handlers } from '../../../protocol/peer.js';
import { userPath } from '../run/run-service.js';
import type { Supervisor } from '../supervisor.js';
import { exportToFile } from './export-file.js';

export function exportHandlers(sup: Supervisor): Partial<Handlers> {
  return {
    'project.export': ({ project, target, format, path }) => exportToFile(sup.project(project), target, format, userPath(path, 'export file'), { replace: false }),
  };
}
