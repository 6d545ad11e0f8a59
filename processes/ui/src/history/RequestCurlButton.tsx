/** The request editor's cURL menu: Copy as cURL (the request as it would be sent now) and Import cURL into its API or folder. */
import { openMenu } from '../state/overlays.js';
import type { RequestTabState } from '../state/request-tabs.js';
import { projectByRoot } from '../state/app.js';
import { call } from '../state/rpc.js';
import { openCopyCurl } from './CopyCurlDialog.js';
import { openImportCurl } from './ImportCurlDialog.js';

export function copyRequestAsCurl(state: RequestTabState): void {
  const draft = state.draft.value;
  if (!draft) return;
  openCopyCurl('Copy as cURL', (showSecrets) => call('request.curl', { project: state.tab.project, request: draft, showSecrets }).then((r) => r.command));
}

/** The API or folder a request sits in, for Import cURL from its editor. */
export function parentOf(project: string, requestId: string): string | undefined {
  const item = projectByRoot(project)?.items.find((i) => i.id === requestId);
  return item && 'parent' in item ? item.parent : undefined;
}

export function RequestCurlButton({ state }: { state: RequestTabState }) {
  return (
    <button
      class="button"
      aria-haspopup="menu"
      title="Copy this request as a curl command, or import one"
      onClick={(e) => {
        e.stopPropagation();
        openMenu(e, [
          { label: 'Copy as cURL…', run: () => copyRequestAsCurl(state) },
          { label: 'Import cURL…', run: () => openImportCurl(state.tab.project, parentOf(state.tab.project, state.tab.itemId)) },
        ]);
      }}
    >
      cURL
    </button>
  );
}
