/**
 * What an import made: declared and API version, base URL, request and folder counts, the
 * security schemes with Use buttons, what was not imported and why, warnings and errors.
 */
import { useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { ResOf } from '../../../../protocol/messages.js';
import type { ReportItem, SecuritySchemeSummary } from '../../../../protocol/model/import.js';
import { projectByRoot } from '../state/app.js';
import { call } from '../state/rpc.js';
import { openTab } from '../state/tabs.js';
import { toast } from '../state/toasts.js';
import { reportText, versionLabel } from './import-form.js';

type RunResult = ResOf<'import.run'>;

export function ImportSummary({ result, createdProject, close }: { result: RunResult; createdProject: boolean; close(): void }) {
  const { report } = result;
  const api = result.apis[0];
  const project = result.project ?? '';
  const projectName = projectByRoot(project)?.name ?? project;
  const openRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => openRef.current?.focus(), []);
  const openApi = () => {
    if (api) openTab({ kind: 'api', project, itemId: api.id, title: api.name });
    close();
  };
  return (
    <div class="dialog-body import-summary" role="region" aria-label="Import summary">
      <div class="import-summary-head">
        <span class="import-check" aria-hidden="true">
          ✓
        </span>
        <div>
          <h3>Imported {api?.name ?? (result.workspace?.environments[0] ? `environment ${result.workspace.environments[0].name}` : result.workspace?.globals ? 'globals' : 'nothing')}</h3>
          {result.project !== undefined ? (
            <p class="muted">
              {createdProject ? 'Into the new project ' : 'Into '}
              <strong>{projectName}</strong>
              {createdProject ? ', now open in the sidebar.' : '.'}
            </p>
          ) : (
            <p class="muted">Into the workspace: see the Environments tab.</p>
          )}
        </div>
      </div>

      <table class="kv-table import-facts" aria-label="Imported API">
        <tbody>
          <Fact label={report.format === 'openapi' ? 'Declared version' : 'Format'} value={versionLabel(report.declaredVersion)} />
          {report.apiVersion !== undefined && <Fact label="API version" value={report.apiVersion} />}
          {api && report.format === 'openapi' && <Fact label="Base URL" value={report.baseUrl || '(none: set it on the API tab)'} mono={report.baseUrl !== ''} />}
          {result.apis.length > 1 && <Fact label="APIs" value={result.apis.map((a) => `${a.name} (${a.requests})`).join(', ')} />}
          {api && <Fact label="Requests" value={String(report.requestCount)} />}
          {api && <Fact label="Folders" value={String(report.folderCount)} />}
          {result.properties !== undefined && <Fact label="Project properties added" value={String(result.properties)} />}
          {report.counts?.map((c) => <Fact key={c.label} label={c.label} value={String(c.count)} />)}
          {result.workspace?.environments.map((env) => (
            <Fact key={env.id} label="Environment" value={`${env.name}: ${env.variables} variable${env.variables === 1 ? '' : 's'}${env.secrets > 0 ? `, ${env.secrets} secret` : ''} (not active)`} />
          ))}
          {result.workspace?.globals && <Fact label="Globals" value={`${result.workspace.globals.added} added, ${result.workspace.globals.kept} kept as they were`} />}
          {result.webhooks && <Fact label="Webhooks & callbacks" value={`${result.webhooks.requests} in Webhooks / ${result.webhooks.folder}`} />}
        </tbody>
      </table>

      {report.securitySchemes.length > 0 && api && (
        <section class="import-section" aria-label="Security schemes">
          <h4>Security schemes</h4>
          <ul class="import-list">
            {report.securitySchemes.map((scheme) => (
              <SchemeRow key={scheme.name} project={project} apiId={api.id} scheme={scheme} />
            ))}
          </ul>
        </section>
      )}

      {report.errors.length + report.warnings.length + report.unimported.length > 0 && <h4 class="import-look">Things to look at</h4>}
      {report.unimported.length > 0 && (
        <section class="import-section" aria-label="Not imported">
          <h4>
            Not imported <span class="count">{report.unimported.length}</span>
          </h4>
          <ul class="import-list">
            {report.unimported.map((u, i) => (
              <li key={i}>
                <span class="import-item">{u.item}</span>
                <span class="muted">{u.reason}</span>
                <Where item={u} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <Findings label="Errors" items={report.errors} tone="err" />
      <Findings label="Warnings" items={report.warnings} tone="warn" />
      <Findings label="Notes" items={report.notes ?? []} tone="note" />

      <footer class="import-footer">
        <div class="import-buttons">
          <button type="button" class="button" onClick={() => void copyReport(result)}>
            Copy report
          </button>
          <span class="spacer" />
          <button type="button" class="button" onClick={close}>
            Close
          </button>
          <button ref={openRef} type="button" class="button primary" disabled={!api} onClick={openApi}>
            Open API
          </button>
        </div>
      </footer>
    </div>
  );
}

function Fact({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td class={mono ? 'mono break' : ''}>{value}</td>
    </tr>
  );
}

function SchemeRow({ project, apiId, scheme }: { project: string; apiId: string; scheme: SecuritySchemeSummary }) {
  const state = useSignal<'idle' | 'busy' | 'used'>('idle');
  const use = async (auth: NonNullable<SecuritySchemeSummary['use']>) => {
    state.value = 'busy';
    try {
      const api = await call('api.get', { project, id: apiId });
      await call('api.save', { project, api: { ...api, auth } });
      state.value = 'used';
      toast('success', `${api.name} now authenticates with ${scheme.name}. Requests set to Inherit use it.`);
    } catch (err) {
      state.value = 'idle';
      toast('error', (err as Error).message);
    }
  };
  return (
    <li class="import-scheme">
      <span class="import-item">{scheme.name}</span>
      <span class="badge">{scheme.type}</span>
      <span class="muted import-scheme-details">{scheme.details}</span>
      {scheme.use ? (
        state.value === 'used' ? (
          <span class="badge badge-ok">API auth</span>
        ) : (
          <button type="button" class="button small" aria-label={`Use ${scheme.name}`} disabled={state.value === 'busy'} onClick={() => void use(scheme.use!)}>
            Use
          </button>
        )
      ) : (
        <span class="muted import-unusable">{scheme.unusable ?? 'Set it up by hand on the API tab.'}</span>
      )}
    </li>
  );
}

async function copyReport(result: RunResult): Promise<void> {
  try {
    await navigator.clipboard.writeText(reportText(result));
    toast('success', 'Report copied.');
  } catch (err) {
    toast('error', `The report could not be copied: ${(err as Error).message}`);
  }
}

function Findings({ label, items, tone }: { label: string; items: ReportItem[]; tone: 'warn' | 'err' | 'note' }) {
  if (items.length === 0) return null;
  return (
    <section class={`import-section import-${tone}`} aria-label={label}>
      <h4>
        {label} <span class="count">{items.length}</span>
      </h4>
      <ul class="import-list">
        {items.map((item, i) => (
          <li key={i}>
            <span>{item.message}</span>
            <Where item={item} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Where in the document: file, pointer and line, as far as known. */
function Where({ item }: { item: { file?: string; path?: string; line?: number } }) {
  const parts = [item.file, item.path, item.line !== undefined ? `line ${item.line}` : undefined].filter(Boolean);
  if (parts.length === 0) return null;
  return <code class="muted import-where">{parts.join(' · ')}</code>;
}
