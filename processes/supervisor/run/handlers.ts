/** The `run.*` calls of the app's runner: thin, each one a RunService operation. */
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';

export function runHandlers(sup: Supervisor): Partial<Handlers> {
  return {
    'run.start': (input) => sup.runs.start(input),
    'run.stop': ({ run }) => sup.runs.stop(run),
    'run.latest': ({ project, scope }) => ({ state: sup.runs.latest(project, scope) }),
    'run.export': ({ run, format, path }) => sup.runs.export(run, format, path),
    'run.dataPreview': ({ path }) => sup.runs.previewData(path),
  };
}
