/** The `import.*` and definition-update calls the UI and the CLI make: thin, each an ImportService operation. */
import type { Handlers } from '../../../protocol/peer.js';
import type { Supervisor } from '../supervisor.js';

export function importHandlers(sup: Supervisor): Partial<Handlers> {
  return {
    'import.detect': (req) => sup.imports.detect(req),
    'import.run': (req, ctx) => sup.imports.run(req, ctx),
    'api.definitionPreview': (req, ctx) => sup.imports.preview(req, ctx),
    'api.definitionApply': (req, ctx) => sup.imports.apply(req, ctx),
  };
}
