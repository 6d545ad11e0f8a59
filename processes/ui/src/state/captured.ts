/**
 * The variables captured this session in each open project (docs/captures.md), as the supervisor
 * tells the page (`captures.list`, then `captures.changed`): names and shown values, a
 * credential's masked. The editor's `${name}` scope reads them first, as a send does.
 */
import { signal } from '@preact/signals';
import type { CapturedVariable } from '../../../../protocol/model/capture.js';
import type { Peer } from '../../../../protocol/peer.js';

export const capturedByProject = signal<ReadonlyMap<string, readonly CapturedVariable[]>>(new Map());

function put(project: string, variables: readonly CapturedVariable[]): void {
  const next = new Map(capturedByProject.value);
  next.set(project, variables);
  capturedByProject.value = next;
}

/** Follows a new connection: asked once, then every change the supervisor announces. */
export function watchCaptures(current: Peer): void {
  current.on('captures.changed', ({ project, variables }) => put(project, variables));
  current.call('captures.list', {}).then(
    ({ projects }) => {
      capturedByProject.value = new Map(projects.map((p) => [p.project, p.variables]));
    },
    () => undefined,
  );
}
