/** The API tab's Definition group: format, recorded source, API version, and Update definition…. */
import { useRef, useEffect } from 'preact/hooks';
import type { Api } from '../../../../protocol/model/api.js';
import { definitionApplied } from './definition-update.js';
import { describeRecordedCredentials } from './fetch-credentials.js';
import { openDefinitionUpdate } from './DefinitionUpdateDialog.js';
import { versionLabel } from './import-form.js';

export function DefinitionSection({ project, api, reload }: { project: string; api: Api; reload(): void }) {
  // An Apply made from the tree or the palette changes this API under the open tab: reload it.
  const applied = definitionApplied.value;
  const seen = useRef(applied.n);
  useEffect(() => {
    if (applied.n === seen.current) return;
    seen.current = applied.n;
    if (applied.project === project && applied.api === api.id) reload();
  }, [applied.n]);

  const definition = api.definition;
  if (!definition) return null;
  const source = definition.source;
  const cached = definition.cached.length;
  return (
    <section class="section api-definition" aria-label="Definition">
      <h3>Definition</h3>
      <table class="kv-table definition-facts">
        <tbody>
          <tr>
            <th scope="row">Format</th>
            <td>{versionLabel(definition.format)}</td>
          </tr>
          <tr>
            <th scope="row">Source</th>
            <td>
              {source ? (
                <>
                  <span class="badge">{source.kind === 'url' ? 'URL' : 'File'}</span> <code class="break">{source.location}</code>
                  {source.credentials &&
                    (source.credentials.type === 'kerberos' ? (
                      // Nothing is stored for Kerberos: each fetch uses whoever is signed in then.
                      <span class="muted"> fetched with {describeRecordedCredentials(source.credentials)}</span>
                    ) : (
                      <span class="muted"> with stored credentials: {describeRecordedCredentials(source.credentials)}</span>
                    ))}
                </>
              ) : (
                <span class="muted">Pasted text, so none is recorded: updating asks for a file or URL.</span>
              )}
            </td>
          </tr>
          {api.soap ? (
            <tr>
              <th scope="row">SOAP binding</th>
              <td>
                <code>{api.soap.binding}</code> <span class="badge">SOAP {api.soap.soapVersion}</span>
              </td>
            </tr>
          ) : (
            <tr>
              <th scope="row">API version</th>
              <td>{definition.apiVersion ?? <span class="muted">not stated</span>}</td>
            </tr>
          )}
          <tr>
            <th scope="row">Cached</th>
            <td>{cached === 0 ? <span class="muted">not cached with the project</span> : `${cached} document${cached === 1 ? '' : 's'}`}</td>
          </tr>
        </tbody>
      </table>
      <button class="button" onClick={() => openDefinitionUpdate(project, api.id, api.name)}>
        Update definition…
      </button>
    </section>
  );
}
