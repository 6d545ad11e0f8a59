/** Calls into the supervisor; failures become an error toast unless the caller handles them. */
import type { MethodName, ReqOf, ResOf } from '../../../../protocol/messages.js';
import type { CallOptions } from '../../../../protocol/peer.js';
import { ParleyError } from '../../../../protocol/errors.js';
import { withPages, type ProjectTree, type TreePage } from '../../../../protocol/model/project.js';
import { openingProjects, peer } from './app.js';
import { toast } from './toasts.js';

export function call<M extends MethodName>(type: M, payload: ReqOf<M>, options?: CallOptions<M>): Promise<ResOf<M>> {
  const current = peer.value;
  if (!current) return Promise.reject(new ParleyError('peer-closed', 'Not connected to Parley.'));
  return current.call(type, payload, options);
}

/** Like `call`, but shows the error as a toast and resolves to null. */
export async function attempt<M extends MethodName>(type: M, payload: ReqOf<M>, options?: CallOptions<M>): Promise<ResOf<M> | null> {
  try {
    return await call(type, payload, options);
  } catch (err) {
    const e = err as ParleyError;
    if (e.code !== 'cancelled') toast('error', e.message);
    return null;
  }
}

/** `project.open`, its tree put together from the pages a big project's tree comes in. */
export async function openProjectTree(path: string): Promise<ProjectTree> {
  const pages: TreePage[] = [];
  openingProjects.value = [...openingProjects.value, path];
  try {
    const tree = await call('project.open', { path }, { onChunk: (page) => void pages.push(page) });
    return withPages(pages, tree);
  } finally {
    const at = openingProjects.value.indexOf(path);
    openingProjects.value = openingProjects.value.filter((_, i) => i !== at);
  }
}
