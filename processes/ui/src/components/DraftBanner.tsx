/**
 * Shown over an editor whose document changed on disk while it had unsaved edits, and over one
 * whose unsaved edits came back from the last session (naming any typed secret it did not keep).
 */
import { draftOf, keepMine, takeIncoming } from '../state/drafts.js';

export function DraftBanner({ tabId }: { tabId: string }) {
  const d = draftOf(tabId);
  if (!d) return null;
  const restored = d.restored.value;
  return (
    <>
      {restored && (
        <div class="draft-banner restored-banner" role="status">
          <span>
            <strong>Unsaved edits restored</strong> from your last session.
            {restored.leftOut.length > 0 && (
              <>
                {' '}
                Typed secrets are never written to the session, so these were left out: type them again before you send or save:{' '}
                <strong>{restored.leftOut.join(', ')}</strong>.
              </>
            )}
          </span>
          <span class="spacer" />
          <button class="button small" onClick={() => (d.restored.value = null)}>
            Dismiss
          </button>
        </div>
      )}
      {d.incoming.value !== null && (
        <div class="draft-banner" role="alert">
          <span>
            <strong>{d.source.label()}</strong> changed on disk while you were editing it. Saving now would overwrite that change.
          </span>
          <span class="spacer" />
          <button class="button small" onClick={() => takeIncoming(d)}>
            Reload
          </button>
          <button class="button small" onClick={() => keepMine(d)}>
            Keep mine
          </button>
        </div>
      )}
    </>
  );
}
