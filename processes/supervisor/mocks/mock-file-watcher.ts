/**
 * Watches a project's mocks/ folder for the files the project watcher leaves out (it reports
 * YAML only): response bodies and dispatch.ts. A hand edit of a body then reaches a running mock
 * just as an edit of its response file does. It watches the project folder, not mocks/, which
 * may not exist yet when the first mock is made.
 */
import { relative, sep } from 'node:path';
import { FolderWatcher } from '../store/folder-watcher.js';

const WATCHED = /(\.body\.(json|xml|txt)|[\\/]dispatch\.ts)$/;

/** `onChange` gets the tree ids (`m:<folder>`) of mocks whose files changed. */
export function watchMockFiles(projectRoot: string, onChange: (ids: string[]) => void, log: (line: string) => void): FolderWatcher {
  const mockOf = (path: string): string | undefined => {
    const [top, folder, ...rest] = relative(projectRoot, path).split(sep);
    return top === 'mocks' && folder && rest.length > 0 ? folder : undefined;
  };
  return new FolderWatcher(projectRoot, {
    accept: (path) => WATCHED.test(path) && mockOf(path) !== undefined,
    onChange: (paths) => onChange([...new Set(paths.map((path) => `m:${mockOf(path)}`))]),
    log: (line) => log(`mock file watcher: ${line}`),
  });
}
