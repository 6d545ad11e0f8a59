/**
 * The workspace: environments, globals, preferences, secret references and recent projects,
 * in the user's data folder (never in a project folder). `PARLEY_HOME` overrides the folder.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';
import { Workspace, emptyWorkspace, type Workspace as WorkspaceT } from '../../../protocol/model/workspace.js';
import { parseYamlFile, writeYaml, type FileKind } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';
import { commitFiles, nodeFs, recoverCommits, type FsOps } from './atomic.js';

const workspaceKind: FileKind<WorkspaceT> = { label: 'workspace', schema: Workspace, version: 1 };
export const WORKSPACE_FILE = 'workspace.yaml';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.PARLEY_HOME) return env.PARLEY_HOME;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Parley');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Parley');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'parley');
}

export class WorkspaceStore {
  readonly dir: string;
  private current: WorkspaceT = emptyWorkspace();
  private text: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    dir: string,
    private readonly fs: FsOps,
  ) {
    this.dir = dir;
  }

  static async open(dir: string, fs: FsOps = nodeFs): Promise<WorkspaceStore> {
    const store = new WorkspaceStore(dir, fs);
    const path = join(dir, WORKSPACE_FILE);
    await recoverCommits(dir, { fs });
    const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw new ParleyError('load-failed', `The workspace file ${path} could not be read (${err.code}).`);
    });
    if (text !== null) {
      const parsed = parseYamlFile(text, path, workspaceKind, (schema, value) => checkAll(schema, value));
      if (!parsed.ok) {
        const first = parsed.problems[0]!;
        // Refuse rather than overwrite: the user's environments are in that file.
        throw new ParleyError('load-failed', `${first.message}${first.line ? ` (line ${first.line})` : ''}`, { problems: parsed.problems });
      }
      store.current = parsed.value;
      store.text = text;
    }
    return store;
  }

  get(): WorkspaceT {
    return this.current;
  }

  /** Resolves once every update asked for so far has been saved (or has failed). */
  async settled(): Promise<void> {
    await this.queue;
  }

  /** Applies `change` to a copy and saves it atomically; memory changes only if the save did. */
  update(change: (draft: WorkspaceT) => WorkspaceT | void): Promise<WorkspaceT> {
    const run = async () => {
      const draft = structuredClone(this.current);
      const next = change(draft) ?? draft;
      const problems = checkAll(Workspace, next);
      if (problems.length > 0) throw new ParleyError('bad-input', `Workspace change refused: ${problems[0]!.path} ${problems[0]!.message}`);
      const text = writeYaml(next, this.text);
      await commitFiles([{ path: join(this.dir, WORKSPACE_FILE), content: text }], { journalDir: this.dir, fs: this.fs });
      this.current = next;
      this.text = text;
      return next;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }
}
