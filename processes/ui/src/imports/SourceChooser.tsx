/**
 * "Choose another file or URL…": a URL with its Authentication section (starting with the
 * stored credentials on the recorded source's origin, None elsewhere), or a file.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { effectiveAuth, type ChooserState, type UpdateSession } from './definition-update.js';
import { FetchAuthSection } from './FetchAuthSection.js';
import { describeRecordedCredentials } from './fetch-credentials.js';
import { FilePathField } from './FilePathField.js';

export function SourceChooser({ session }: { session: UpdateSession }) {
  const chooser = session.chooser.value;
  const set = (patch: Partial<ChooserState>) => (session.chooser.value = { ...session.chooser.value, problem: '', ...patch });
  const { draft, modes } = effectiveAuth(session, chooser);
  const recorded = session.api.value?.definition?.source;
  const firstRef = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => firstRef.current?.focus(), [chooser.tab]);
  return (
    <div class="update-chooser">
      {chooser.message && (
        <p class="note" role="alert">
          {chooser.message}
        </p>
      )}
      <div class="subtabs import-tabs" role="tablist" aria-label="Source">
        {(['url', 'file'] as const).map((tab) => (
          <button key={tab} type="button" role="tab" aria-selected={chooser.tab === tab} class={chooser.tab === tab ? 'active' : ''} onClick={() => set({ tab })}>
            {tab === 'url' ? 'URL' : 'File'}
          </button>
        ))}
      </div>
      <div class="import-source" role="tabpanel">
        {chooser.tab === 'url' ? (
          <>
            <label class="import-field">
              <span>URL</span>
              <input ref={firstRef} class="mono" type="url" aria-label="Document URL" placeholder="https://api.example.com/openapi.yaml" value={chooser.url} onInput={(e) => set({ url: (e.target as HTMLInputElement).value })} />
            </label>
            <FetchAuthSection
              draft={draft}
              modes={modes}
              storedLabel={recorded?.credentials ? describeRecordedCredentials(recorded.credentials) : undefined}
              storedKerberos={recorded?.credentials?.type === 'kerberos'}
              onChange={(auth) => set({ auth, authTouched: true })}
            />
          </>
        ) : (
          <FilePathField inputRef={firstRef} value={chooser.filePath} onChange={(filePath) => set({ filePath })} />
        )}
      </div>
      <p class="muted import-hint">Applying from a URL records it (and its credentials) as this API’s source; applying from a file records the file.</p>
    </div>
  );
}
