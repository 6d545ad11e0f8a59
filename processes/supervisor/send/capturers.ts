/**
 * Which requests of a project capture a variable (docs/captures.md): named when a send is refused
 * for want of it, so the user knows which response sets it. Read only on that refusal: a request
 * file that does not hold the name is skipped unparsed.
 */
import type { ProjectStore } from '../store/project-store.js';

/** The places ("API/folder/name") of the requests whose enabled captures set `name`. */
export function capturersOf(store: ProjectStore, name: string): string[] {
  const names: string[] = [];
  for (const { request, path } of store.requestsHolding(name)) {
    if (!('captures' in request) || !request.captures) continue;
    if (request.captures.some((c) => c.enabled && c.name.trim() === name)) names.push(path);
  }
  return names;
}
