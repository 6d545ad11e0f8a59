/**
 * New Mock on the importer's job thread: the files it answers are exactly the mock engine's New
 * Mock written as the app writes a mock folder, and an answer over its size cap is refused.
 */
import { describe, expect, it } from 'vitest';
import { folderEntry, parseMockFolder } from '../../protocol/project/mock-files.js';
import { newMockFromDocuments } from '../mock-host/engine/new-mock.js';
import { cachedDefinition, documentsOf } from '../mock-host/engine/test-support/mocks.js';
import { LARGE_MESSAGE_LIMIT } from '../../protocol/framing.js';
import { MAX_NEW_MOCK_BYTES, runNewMockJob } from './new-mock-job.js';

/** The files as the app's reader holds them: a binary body's bytes as base64, the rest as text. */
function folderFiles(files: { path: string; content: string | Uint8Array }[]): Map<string, string> {
  return new Map(files.map((f) => [f.path, folderEntry(f.path, f.content)]));
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
    const loaded = parseMockFolder('Museum', folderFiles(files));
    expect(loaded.problems).toEqual([]);
    const direct = await newMockFromDocuments(documents, { name: 'Museum', api: 'api-museum', newId: () => 'x' });
    // On disk operations load sorted by folder name.
    const sorted = (m: typeof direct) => ({ ...m, operations: [...m.operations].sort((a, b) => a.name.localeCompare(b.name)) });
    expect(withoutIds(sorted(loaded.mock!))).toEqual(withoutIds(sorted(direct)));
  });

  it('makes a mock of more than the old 32 MB cap: the answer goes to the supervisor in parts now', async () => {
    const text = 'x'.repeat(40 * 1024 * 1024);
    const documents = {
      openapi: cachedDefinition([
        ['big.openapi.yaml', { openapi: '3.0.3', info: { title: 'Big', version: '1' }, paths: { '/big': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { example: { text } } } } } } } } }],
      ]),
    };
    const { files } = await runNewMockJob({ documents, name: 'Big', api: 'api-big' });
    const bytes = files.reduce((sum, f) => sum + (typeof f.content === 'string' ? Buffer.byteLength(f.content) : f.content.byteLength), 0);
    expect(bytes).toBeGreaterThan(40 * 1024 * 1024);
    expect(MAX_NEW_MOCK_BYTES).toBeLessThanOrEqual(LARGE_MESSAGE_LIMIT / 2);
  });

  it('refuses an answer over its size cap with mock-too-large, naming the sizes', async () => {
    const documents = await documentsOf('redocly-museum.openapi.yaml');
    await expect(runNewMockJob({ documents, name: 'Museum', api: 'api-museum' }, 1024)).rejects.toMatchObject({
      code: 'mock-too-large',
      message: expect.stringMatching(/would write \d+ KB of files, over the 1 KB one mock is made with; nothing was written/),
    });
  });
});
