/**
 * A request's recorded examples on disk (`<name>.examples/` beside its file, see
 * protocol/project/examples.ts): read on demand, written through the project store's single
 * writer. Five per request at most, one per status code.
 */
import { readFile, readdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ParleyError } from '../../../protocol/errors.js';
import { EXAMPLE_LIMIT, ExampleFile, type Example, type ExampleSource } from '../../../protocol/model/example.js';
import { exampleFileName, exampleFiles, exampleFromFile, examplesDirOf, recordExample } from '../../../protocol/project/examples.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { parseYamlFile, writeYaml, type FileKind } from '../../../protocol/project/yaml-file.js';
import { checkAll } from '../../../protocol/validate-node.js';
import type { FileChange } from './atomic.js';
import type { ProjectStore } from './project-store.js';

const exampleKind: FileKind<ExampleFile> = { label: 'example', schema: ExampleFile, version: 1 };
const EXAMPLE_NAME = /^(\d{3})\.example\.yaml$/;
const BODY_NAME = /^\d{3}\.body\.[a-z]+$/;

export interface ExampleList {
  examples: Example[];
  /** Example files that could not be read, each with why. */
  problems: string[];
}

interface Stored {
  example: Example;
  /** The files it is made of, to delete or replace them. */
  paths: string[];
}

export class ExampleStore {
  constructor(private readonly store: ProjectStore) {}

  async list(requestId: string): Promise<ExampleList> {
    const { stored, problems } = await this.read(requestId);
    return { examples: stored.map((s) => s.example), problems };
  }

  /**
   * Keeps a response as an example; the same status replaces its example, a sixth status is
   * refused. `replacements`: the known values to take out of it first (recordExample).
   */
  async save(requestId: string, source: ExampleSource, options: { replacements?: readonly (readonly [string, string])[]; now?: Date } = {}): Promise<{ example: Example; replaced: boolean; examples: Example[] }> {
    const dir = examplesDirOf(this.store.requestFile(requestId));
    const { stored } = await this.read(requestId);
    const same = stored.find((s) => s.example.status === source.status);
    if (!same && stored.length >= EXAMPLE_LIMIT) {
      const kept = stored.map((s) => s.example.status).join(', ');
      throw new ParleyError('examples-full', `This request already keeps ${EXAMPLE_LIMIT} examples (${kept}), one per status code: delete one to keep a ${source.status} example. Nothing was saved.`);
    }
    const example = recordExample(source, (options.now ?? new Date()).toISOString(), options.replacements);
    const { yaml, bodyFile } = exampleFiles(example);
    const changes: FileChange[] = [{ path: join(dir, exampleFileName(example.status)), content: writeYaml(yaml) }];
    if (bodyFile) changes.push({ path: join(dir, bodyFile), content: example.body });
    for (const path of same?.paths ?? []) if (!changes.some((c) => c.path === path)) changes.push({ path, content: null });
    await this.store.commit(changes);
    return { example, replaced: same !== undefined, examples: (await this.list(requestId)).examples };
  }

  async delete(requestId: string, status: number): Promise<Example[]> {
    const { stored } = await this.read(requestId);
    const found = stored.find((s) => s.example.status === status);
    if (!found) throw new ParleyError('not-found', `This request keeps no ${status} example.`);
    await this.store.commit(found.paths.map((path) => ({ path, content: null })));
    await rmdir(examplesDirOf(this.store.requestFile(requestId))).catch(() => {}); // only when it is empty
    return (await this.list(requestId)).examples;
  }

  private async read(requestId: string): Promise<{ stored: Stored[]; problems: string[] }> {
    const dir = examplesDirOf(this.store.requestFile(requestId));
    const names = await readdir(dir).catch(() => [] as string[]);
    const stored: Stored[] = [];
    const problems: string[] = [];
    for (const name of names.filter((n) => EXAMPLE_NAME.test(n)).sort()) {
      const path = join(dir, name);
      const text = await readFile(path, 'utf8').catch(() => null);
      if (text === null) continue;
      const parsed = parseYamlFile(text, name, exampleKind, (schema, value) => checkAll(schema, value));
      if (!parsed.ok) {
        problems.push(parsed.problems[0]!.message);
        continue;
      }
      const file = parsed.value;
      if (String(file.status) !== EXAMPLE_NAME.exec(name)![1]) {
        problems.push(`${name}: its status ${file.status} does not match its file name.`);
        continue;
      }
      const paths = [path];
      let body = new Uint8Array();
      if (file.body !== undefined) {
        if (!BODY_NAME.test(file.body)) {
          problems.push(`${name}: the body file ${JSON.stringify(file.body)} must be a file beside it named like 200.body.json.`);
          continue;
        }
        const bodyPath = resolveInside(dir, file.body, 'example body file');
        const bytes = await readFile(bodyPath).catch(() => null);
        if (!bytes) {
          problems.push(`${name}: its body file ${file.body} is missing.`);
          continue;
        }
        body = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        paths.push(bodyPath);
      }
      stored.push({ example: exampleFromFile(file, body), paths });
    }
    stored.sort((a, b) => a.example.status - b.example.status);
    return { stored, problems };
  }
}

/** Every file of a request's examples folder that Parley wrote, for deleting the request with them. */
export async function exampleFilePaths(requestFile: string): Promise<string[]> {
  const dir = examplesDirOf(requestFile);
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => EXAMPLE_NAME.test(n) || BODY_NAME.test(n)).map((n) => join(dir, n));
}

