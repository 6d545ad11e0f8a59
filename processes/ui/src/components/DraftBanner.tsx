/** Shown over an editor whose document changed on disk while it had unsaved edits. */
import { draftOf, keepMine, takeIncoming } from '../state/drafts.js';

export function DraftBanner({ tabId }: { tabId: string }) {
  const d = draftOf(tabId);
  if (!d || d.incoming.value === null) return null;
  return (
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
  );
}
