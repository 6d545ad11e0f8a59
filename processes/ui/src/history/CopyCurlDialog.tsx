/** Copy as cURL: the command, secrets masked until Show secrets is ticked, and a Copy button. */
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { openCustom } from '../state/overlays.js';
import { toast } from '../state/toasts.js';

/**
 * `load` makes the command, with secrets shown or masked; `secrets: false` for a command whose
 * masks cannot be filled (the HTTP Log keeps only the masked exchange), without the toggle.
 */
export function openCopyCurl(title: string, load: (showSecrets: boolean) => Promise<string>, options: { secrets?: boolean } = {}): void {
  openCustom({ title, wide: true, render: (close) => <CopyCurl load={load} close={close} secrets={options.secrets ?? true} /> });
}

function CopyCurl({ load, close, secrets }: { load: (showSecrets: boolean) => Promise<string>; close: () => void; secrets: boolean }) {
  const showSecrets = useSignal(false);
  const command = useSignal<string | null>(null);
  const error = useSignal('');
  useEffect(() => {
    command.value = null;
    error.value = '';
    load(showSecrets.value).then(
      (text) => (command.value = text),
      (err: Error) => (error.value = err.message),
    );
  }, [showSecrets.value]);
  const copy = async () => {
    if (command.value === null) return;
    try {
      await navigator.clipboard.writeText(command.value);
      toast('success', showSecrets.value ? 'Copied the curl command, secrets included.' : 'Copied the curl command (secrets masked).');
      close();
    } catch {
      error.value = 'The browser did not allow copying: select the command and copy it yourself.';
    }
  };
  return (
    <div class="dialog-body curl-copy">
      {error.value ? <p class="inline-error" role="alert">{error.value}</p> : null}
      <textarea class="code curl-command" aria-label="curl command" readOnly rows={10} spellcheck={false} value={command.value ?? 'Making the command…'} />
      <div class="dialog-footer">
        {secrets ? (
          <label class="checkbox">
            <input type="checkbox" checked={showSecrets.value} onChange={(e) => (showSecrets.value = (e.target as HTMLInputElement).checked)} /> Show secrets
          </label>
        ) : (
          <span class="muted">Credentials stay masked, as the log keeps them.</span>
        )}
        <span class="spacer" />
        <button class="button" onClick={close}>
          Close
        </button>
        <button class="button primary" disabled={command.value === null} onClick={() => void copy()}>
          Copy
        </button>
      </div>
    </div>
  );
}
