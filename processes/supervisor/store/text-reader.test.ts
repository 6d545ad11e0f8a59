import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TextReader } from './project-loader.js';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function files(count: number): Promise<string[]> {
  dir = await mkdtemp(join(tmpdir(), 'parley-text-reader-'));
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = join(dir, `r${String(i).padStart(3, '0')}.yaml`);
    await writeFile(path, `text ${i}`);
    paths.push(path);
  }
  return paths;
}

async function readAll(reader: TextReader, count: number): Promise<{ texts: unknown[]; promised: number }> {
  const texts: unknown[] = [];
  let promised = 0;
  for (let i = 0; i < count; i++) {
    const read = reader.read();
    if (read instanceof Promise) promised++;
    texts.push(read instanceof Promise ? await read : read);
  }
  return { texts, promised };
}

describe('TextReader', () => {
  it('reads quick files at once, with no promise per file', async () => {
    const paths = await files(50);
    const { texts, promised } = await readAll(new TextReader(paths), paths.length);
    expect(promised).toBe(0);
    expect(texts).toEqual(paths.map((_, i) => `text ${i}`));
  });

  it('after three slow reads goes to the thread pool, keeping the order and each read error', async () => {
    const paths = await files(80);
    paths.splice(40, 0, join(dir, 'missing.yaml'));
    const { texts, promised } = await readAll(new TextReader(paths, -1), paths.length);
    expect(promised).toBe(paths.length - 3);
    expect(texts.slice(0, 40)).toEqual(paths.slice(0, 40).map((_, i) => `text ${i}`));
    expect((texts[40] as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(texts.slice(41)).toEqual(paths.slice(41).map((_, i) => `text ${i + 40}`));
  });
});
