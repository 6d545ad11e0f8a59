/**
 * Update definition…: a preview of what re-reading the definition changes (added, removed and
 * changed operations, the API-wide line), then Apply or Cancel, or another file or URL.
 */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { ResOf } from '../../../../protocol/messages.js';
import type { ChangeReason, OperationKey } from '../../../../protocol/model/import.js';
import { customDialog, openCustom } from '../state/overlays.js';
import { chosenFromChooser, newUpdateSession, openChooser, runApply, runPreview, startUpdate, type UpdateSession } from './definition-update.js';
import { ProgressLine } from './ProgressLine.js';
import { SourceChooser } from './SourceChooser.js';
import { versionLabel } from './import-form.js';
import './imports.css';

const titleOf = (apiName: string) => `Update definition of ${apiName}`;

export function openDefinitionUpdate(project: string, apiId: string, apiName: string): void {
  const title = titleOf(apiName);
  if (customDialog.value?.title === title) return;
  const session = newUpdateSession(project, apiId, apiName);
  openCustom({ title, wide: true, render: (close) => <DefinitionUpdateDialog session={session} close={close} /> });
  void startUpdate(session);
}

function DefinitionUpdateDialog({ session, close }: { session: UpdateSession; close(): void }) {
  // Closing the dialog while the definition is read cancels the read (nothing was changed yet).
  useEffect(
    () => () => {
      if (session.stage.peek() === 'reading') session.controller?.abort();
    },
    [],
  );
  const stage = session.stage.value;
  const preview = session.preview.value;
  const primaryRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => primaryRef.current?.focus(), [stage]);

  const choose = () => openChooser(session);
  const previewChosen = () => {
    const chosen = chosenFromChooser(session);
    if (typeof chosen === 'string') session.chooser.value = { ...session.chooser.value, problem: chosen };
    else void runPreview(session, chosen);
  };
  const apply = async () => {
    if (await runApply(session)) close();
  };

  return (
    <form
      class="dialog-body update-dialog"
      // Our own messages say what is missing, beside the buttons, not the browser's bubbles.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (stage === 'chooser') previewChosen();
        else if (stage === 'preview') void apply();
        else if (stage === 'changed') void runPreview(session, session.chosen);
      }}
    >
      {(stage === 'reading' || stage === 'applying') && (
        <div class="update-busy">
          {stage === 'applying' && preview && <PreviewView result={preview} dimmed />}
          <ProgressLine progress={session.progress.value} label={stage === 'reading' ? 'Reading the definition' : 'Applying the update'} />
        </div>
      )}
      {stage === 'preview' && preview && <PreviewView result={preview} />}
      {stage === 'changed' && (
        <p class="inline-error update-changed" role="alert">
          {session.error.value}
        </p>
      )}
      {stage === 'failed' && (
        <p class="inline-error" role="alert">
          {session.error.value}
        </p>
      )}
      {stage === 'chooser' && <SourceChooser session={session} />}

      <footer class="import-footer">
        {stage === 'preview' && session.error.value && (
          <p class="inline-error import-error" role="alert">
            {session.error.value}
          </p>
        )}
        {stage === 'chooser' && session.chooser.value.problem && (
          <p class="inline-error import-error" role="alert">
            {session.chooser.value.problem}
          </p>
        )}
        <div class="import-buttons">
          {(stage === 'preview' || stage === 'failed' || stage === 'changed') && (
            <button type="button" class="button" onClick={choose}>
              Choose another file or URL…
            </button>
          )}
          {stage === 'chooser' && preview && (
            <button type="button" class="button" onClick={() => (session.stage.value = 'preview')}>
              Back to the preview
            </button>
          )}
          <span class="spacer" />
          <button type="button" class="button" disabled={stage === 'applying'} onClick={close}>
            Cancel
          </button>
          {(stage === 'preview' || stage === 'applying') && (
            <button ref={primaryRef} type="submit" class="button primary" disabled={stage === 'applying'}>
              {stage === 'applying' ? 'Applying…' : 'Apply'}
            </button>
          )}
          {stage === 'changed' && (
            <button ref={primaryRef} type="submit" class="button primary">
              Preview again
            </button>
          )}
          {stage === 'failed' && (
            <button ref={primaryRef} type="button" class="button primary" onClick={() => void runPreview(session, session.attempted)}>
              Try again
            </button>
          )}
          {stage === 'chooser' && (
            <button type="submit" class="button primary">
              Preview
            </button>
          )}
        </div>
      </footer>
    </form>
  );
}

const REASONS: Record<ChangeReason, string> = {
  parameters: 'parameters',
  'request-body': 'request body',
  responses: 'responses',
  security: 'security',
  servers: 'servers',
  input: 'input message',
  output: 'output message',
  action: 'SOAP action',
};

function PreviewView({ result, dimmed }: { result: ResOf<'api.definitionPreview'>; dimmed?: boolean }) {
  const { preview, source } = result;
  const wide = preview.apiWide;
  const none = preview.added.length === 0 && preview.removed.length === 0 && preview.changed.length === 0 && !wide;
  return (
    <div class={`update-preview${dimmed ? ' dimmed' : ''}`} role="region" aria-label="Definition changes">
      <div class="update-source">
        <span class="muted">Read from</span>
        <code class="break">{source}</code>
        <span class="badge">{versionLabel(preview.declaredVersion)}</span>
      </div>
      <p class="update-counts">
        <span class="update-count add">{preview.added.length} added</span>
        <span class="update-count remove">{preview.removed.length} removed</span>
        <span class="update-count change">{preview.changed.length} changed</span>
      </p>
      {none && !preview.keptEdits?.length && <p class="muted">The document declares the same operations as before: applying only refreshes the cached definition.</p>}
      {wide && (
        <p class="update-apiwide" aria-label="API-wide changes">
          <strong>API-wide:</strong> {apiWideText(wide)}
        </p>
      )}
      <Operations label="Added operations" ops={preview.added} tone="add" />
      <Operations label="Removed operations" ops={preview.removed} tone="remove" note="Their requests are kept and badged orphaned." />
      {preview.changed.length > 0 && (
        <section class="update-section">
          <h4>
            Changed operations <span class="count">{preview.changed.length}</span>
          </h4>
          <ul class="update-ops" aria-label="Changed operations">
            {preview.changed.map((op) => (
              <li key={`${op.method} ${op.path}`} class="change">
                <Operation op={op} />
                <span class="update-reasons">
                  {op.reasons.map((r) => (
                    <span key={r} class="badge">
                      {REASONS[r]}
                    </span>
                  ))}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {preview.keptEdits && preview.keptEdits.length > 0 && (
        <section class="update-section">
          <h4>
            Kept edits <span class="count">{preview.keptEdits.length}</span>
            <span class="muted update-note">You edited these envelopes: they are kept; the action and headers are updated.</span>
          </h4>
          <ul class="update-ops" aria-label="Kept edits">
            {preview.keptEdits.map((r) => (
              <li key={r.id} class="change">
                <strong>{r.name}</strong> <span class="muted">of</span> <Operation op={r} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {preview.warnings.length > 0 && (
        <section class="update-section import-warn">
          <h4>
            Warnings <span class="count">{preview.warnings.length}</span>
          </h4>
          <ul class="import-list" aria-label="Warnings">
            {preview.warnings.map((w, i) => (
              <li key={i}>{w.message}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function Operations({ label, ops, tone, note }: { label: string; ops: OperationKey[]; tone: 'add' | 'remove'; note?: string }) {
  if (ops.length === 0) return null;
  return (
    <section class="update-section">
      <h4>
        {label} <span class="count">{ops.length}</span>
        {note && <span class="muted update-note">{note}</span>}
      </h4>
      <ul class="update-ops" aria-label={label}>
        {ops.map((op) => (
          <li key={`${op.method} ${op.path}`} class={tone}>
            <span class="update-sign" aria-hidden="true">
              {tone === 'add' ? '+' : '−'}
            </span>
            <Operation op={op} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Operation({ op }: { op: OperationKey }) {
  const method = op.method.toUpperCase();
  return (
    <span class="update-op">
      <span class={`method method-${method.toLowerCase()}`}>{method}</span> <code>{op.path}</code>
    </span>
  );
}

function apiWideText(wide: NonNullable<ResOf<'api.definitionPreview'>['preview']['apiWide']>): string {
  const parts: string[] = [];
  if (wide.endpoint) parts.push(`endpoint ${wide.endpoint.from || '(none)'} → ${wide.endpoint.to || '(none)'}`);
  else if (wide.servers) parts.push('servers changed');
  if (wide.security) parts.push('security changed');
  if (wide.version) parts.push(`version ${wide.version.from || '(none)'} → ${wide.version.to || '(none)'}`);
  return parts.join('; ');
}
