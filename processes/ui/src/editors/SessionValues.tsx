/**
 * The values captured from responses this session (docs/captures.md), per open project, in the
 * Environments view: each name, its value (masked for a credential: the supervisor never sends
 * one, and a credential-looking name is masked here too), the request whose capture set it; Clear
 * one, or Clear all of a project. They live in the supervisor's memory only (`captures.clear`).
 */
import { MASK, isCredentialName } from '../../../../protocol/credentials/index.js';
import type { CapturedVariable } from '../../../../protocol/model/capture.js';
import { projects } from '../state/app.js';
import { capturedByProject } from '../state/captured.js';
import { attempt } from '../state/rpc.js';

const shown = (v: CapturedVariable) => (v.credential || isCredentialName(v.name) ? MASK : v.value);

function clear(project: string, names?: string[]): void {
  void attempt('captures.clear', { project, ...(names ? { names } : {}) });
}

export function SessionValues() {
  const captured = capturedByProject.value;
  const held = projects.value.flatMap((p) => {
    const variables = captured.get(p.root) ?? [];
    return variables.length > 0 ? [{ project: p, variables }] : [];
  });
  return (
    <section class="session-values" aria-label="Session values">
      <h3>Session values</h3>
      <p class="muted">
        Set by the captures of requests this session, read before the environment. Kept in memory only, until Parley quits or the project is closed.
      </p>
      {held.length === 0 && <p class="muted">Nothing captured this session.</p>}
      {held.map(({ project, variables }) => (
        <div key={project.root} class="session-project">
          <div class="toolbar">
            <h4>{project.name}</h4>
            <span class="spacer" />
            <button class="button small" aria-label={`Clear all session values of ${project.name}`} onClick={() => clear(project.root)}>
              Clear all
            </button>
          </div>
          <table class="rows-table readonly" aria-label={`Session values of ${project.name}`}>
            <tbody>
              {variables.map((v) => (
                <tr key={v.name} aria-label={`Session value ${v.name}`}>
                  <td class="cell-text mono">{v.name}</td>
                  <td class="cell-text mono">{shown(v)}</td>
                  <td class="cell-source muted">{v.from ? `from ${v.from}` : ''}</td>
                  <td class="cell-action">
                    <button class="button small" aria-label={`Clear ${v.name}`} onClick={() => clear(project.root, [v.name])}>
                      Clear
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
