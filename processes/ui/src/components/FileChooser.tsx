/**
 * Picks a local file for a body. Under Electron the native dialog; in the browser a folder
 * browser served by the supervisor (the page itself cannot see file paths).
 */
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { ResOf } from '../../../../protocol/messages.js';
import { call } from '../state/rpc.js';
import { openCustom } from '../state/overlays.js';
import { toast } from '../state/toasts.js';
import { FolderIcon } from './Icons.js';

declare global {
  interface Window {
    parleyNative?: { chooseFile(): Promise<string | null> };
  }
}

let lastFolder: string | undefined;

export async function chooseFile(): Promise<string | null> {
  if (window.parleyNative) return window.parleyNative.chooseFile();
  return new Promise((resolve) => {
    openCustom({
      title: 'Choose a file',
      wide: true,
      render: (close) => (
        <FolderBrowser
          onPick={(path) => {
            close();
            resolve(path);
          }}
          onCancel={() => {
            close();
            resolve(null);
          }}
        />
      ),
    });
  });
}

/**
 * Picks a body file for a request of `project`. Body files live in the project, so a project from
 * elsewhere cannot make Send upload another file of this machine: the file chosen is copied into
 * the project's files/ folder (or named where it is, when it is inside already), and its path in
 * the project is what the request stores (docs/project-files.md).
 */
export async function chooseBodyFile(project: string): Promise<string | null> {
  const picked = await chooseFile();
  if (!picked) return null;
  try {
    const added = await call('project.addFile', { project, path: picked });
    if (added.copied) toast('success', `Copied ${picked.split(/[\\/]/).pop()} into the project as ${added.path} (${formatBytes(added.size)}).`);
    return added.path;
  } catch (err) {
    toast('error', `The file was not added: ${(err as Error).message}`);
    return null;
  }
}

/**
 * Picks a file for `what` (a binary message) of a request in `project`: one inside the project is
 * named where it is; one outside is copied into the project's files/ folder only once the user
 * agrees, as the cURL import asks before it copies a command's local files (files/ goes with the
 * project to everyone who gets it). Null when nothing was picked, or the copy was declined.
 */
export async function chooseProjectFile(project: string, what: string): Promise<{ path: string; size: number } | null> {
  const picked = await chooseFile();
  if (!picked) return null;
  const inside = picked.startsWith(project.endsWith('/') ? project : `${project}/`);
  if (!inside && !(await agreeToCopy(picked, what))) return null;
  try {
    const added = await call('project.addFile', { project, path: picked });
    if (added.copied) toast('success', `Copied ${fileName(picked)} into the project as ${added.path} (${formatBytes(added.size)}).`);
    return { path: added.path, size: added.size };
  } catch (err) {
    toast('error', `The file was not added: ${(err as Error).message}`);
    return null;
  }
}

const fileName = (path: string) => path.split(/[\\/]/).pop() ?? path;

function agreeToCopy(picked: string, what: string): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (yes: boolean, close: () => void) => {
      answered = true;
      close();
      resolve(yes);
    };
    openCustom({
      title: 'Copy the file into the project?',
      onClose: () => void (answered || resolve(false)),
      render: (close) => (
        <div class="dialog-body">
          <p>
            <code class="mono break">{picked}</code> is outside the project. {what} is sent from a file in the project: it can be copied into the project's <code>files/</code> folder, which
            is shared with everyone who gets the project.
          </p>
          <footer class="dialog-footer">
            <button class="button" onClick={() => answer(false, close)}>
              Cancel
            </button>
            <button class="button primary" onClick={() => answer(true, close)}>
              Copy into the project
            </button>
          </footer>
        </div>
      ),
    });
  });
}

/** Body files Send refuses: a path outside the project (absolute, or climbing out with ../). */
export function isOutsideProject(file: string): boolean {
  return /^([\\/]|[A-Za-z]:[\\/])/.test(file) || file.split(/[\\/]/).includes('..');
}

/** Under a body file's field: where the file comes from, or why Send will refuse it. */
export function BodyFileSource({ file }: { file: string }) {
  if (file === '') return <span class="file-source muted">Choose… copies the file into this project's files/ folder.</span>;
  if (isOutsideProject(file)) {
    return (
      <span class="file-source outside" role="status">
        Outside the project: Send refuses it. Choose… copies the file into the project.
      </span>
    );
  }
  return <span class="file-source muted">From the project folder: {file}</span>;
}

function FolderBrowser({ onPick, onCancel }: { onPick(path: string): void; onCancel(): void }) {
  const listing = useSignal<ResOf<'fs.list'> | null>(null);
  const error = useSignal('');
  const typed = useSignal('');
  const latest = useRef(0);
  const edits = useRef(0);
  const go = async (path?: string) => {
    // Only the newest listing asked for is shown, and the path field takes its folder only if
    // nothing was typed there meanwhile: the first folder's answer can arrive after the user
    // already typed another folder, or went to it.
    const asked = ++latest.current;
    const editsWhenAsked = edits.current;
    try {
      const answer = await call('fs.list', path === undefined ? {} : { path });
      if (asked !== latest.current) return;
      listing.value = answer;
      lastFolder = answer.path;
      if (edits.current === editsWhenAsked) typed.value = answer.path;
      error.value = '';
    } catch (err) {
      if (asked === latest.current) error.value = (err as Error).message;
    }
  };
  useEffect(() => void go(lastFolder), []);
  const current = listing.value;
  return (
    <div class="dialog-body file-browser">
      <form
        class="file-browser-path"
        onSubmit={(e) => {
          e.preventDefault();
          void go(typed.value);
        }}
      >
        <input
          aria-label="Folder"
          value={typed.value}
          onInput={(e) => {
            edits.current++;
            typed.value = (e.target as HTMLInputElement).value;
          }}
        />
        <button class="button" type="submit">
          Go
        </button>
      </form>
      {error.value && <p class="form-error">{error.value}</p>}
      <ul class="file-list">
        {current?.parent && (
          <li onClick={() => void go(current.parent)}>
            <FolderIcon /> ..
          </li>
        )}
        {current?.entries.map((entry) => (
          <li key={entry.name} onClick={() => (entry.dir ? void go(`${current.path}/${entry.name}`) : onPick(`${current.path}/${entry.name}`))}>
            {entry.dir ? <FolderIcon /> : <span class="file-dot" />}
            <span>{entry.name}</span>
            {!entry.dir && <span class="muted">{formatBytes(entry.size)}</span>}
          </li>
        ))}
      </ul>
      <footer class="dialog-footer">
        <button class="button" onClick={onCancel}>
          Cancel
        </button>
      </footer>
    </div>
  );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
