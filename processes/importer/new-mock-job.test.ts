/**
 * New Mock on the importer's job thread: the files it answers are exactly the mock engine's New
 * Mock written as the app writes a mock folder, and an answer over its size cap is refused.
 */
import { describe, expect, it } from 'vitest';
import { parseMockFolder } from '../../protocol/project/mock-files.js';
import { newMockFromDocuments } from '../mock-host/engine/new-mock.js';
import { documentsOf } from '../mock-host/engine/test-support/mocks.js';
import { runNewMockJob } from './new-mock-job.js';

function textFiles(files: { path: string; content: string | Uint8Array }[]): Map<string, string> {
  return new Map(files.map((f) => [f.path, typeof f.content === 'string' ? f.content : Buffer.from(f.content).toString('utf8')]));
}

/** A mock with its generated ids made equal, to compare two New Mocks of one definition. */
function withoutIds(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'id' ? 'id' : v)));
}

describe('importer.newMock', () => {
  it('answers the files of the mock the engine makes, which load back as that mock', async () => {
    const documents = await documentsOf('redocly-museum.openapi.yaml');
    const { files } = await runNewMockJob({ documents, name: 'Museum', api: 'api-museum' });
    expect(files.map((f) => f.path)).toContain('mock.yaml');
    const loaded = parseMockFolder('Museum', textFiles(files));
    expect(loaded.problems).toEqual([]);
    const direct = await newMockFromDocuments(documents, { name: 'Museum', api: 'api-museum', newId: () => 'x' });
    // On disk operations load sorted by folder name.
    const sorted = (m: typeof direct) => ({ ...m, operations: [...m.operations].sort((a, b) => a.name.localeCompare(b.name)) });
    expect(withoutIds(sorted(loaded.mock!))).toEqual(withoutIds(sorted(direct)));
  });

  it('refuses an answer over its size cap with mock-too-large, naming the sizes', async () => {
    const documents = await documentsOf('redocly-museum.openapi.yaml');
    await expect(runNewMockJob({ documents, name: 'Museum', api: 'api-museum' }, 1024)).rejects.toMatchObject({
      code: 'mock-too-large',
      message: expect.stringMatching(/would write \d+ KB of files, over the 1 KB one mock is made with; nothing was written/),
    });
  });
});
