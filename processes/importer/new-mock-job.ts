/**
 * New Mock on the importer's job thread (job-worker.ts): the mock engine's own New Mock, unchanged,
 * and the mock's folder as the app writes it (mock-files.ts), so the supervisor only commits the
 * files. The answer is held to a size the bus and the supervisor take in comfortably (a shared
 * schema sampled for each of thousands of operations can grow far past its definition).
 */
import { ParleyError } from '../../protocol/errors.js';
import { newId } from '../../protocol/ids.js';
import type { ReqOf, ResOf } from '../../protocol/messages.js';
import { serializeMockFolder } from '../../protocol/project/mock-files.js';
import { newMockFromDocuments } from '../mock-host/engine/new-mock.js';
import { newSoapMockFromDocuments } from '../mock-host/engine/soap/new-soap-mock.js';

/**
 * The most one New Mock writes: 128 MiB. Its answer now goes to the supervisor in parts (up to
 * LARGE_MESSAGE_LIMIT, 512 MiB), so the bus no longer sets it: Microsoft Graph v1.0's New Mock
 * writes 37.7 MB in 31,983 files, beta's some 50-100 MB. Past that the job's heap (at least
 * 512 MB, new-mock-sampler.ts) holds the files as text beside the mock they come from, and every
 * start of the mock sends it whole to a mock host: a folder that size is no mock anyone can use.
 */
export const MAX_NEW_MOCK_BYTES = 128 * 1024 * 1024;

export async function runNewMockJob(job: ReqOf<'importer.newMock'>, limitBytes = MAX_NEW_MOCK_BYTES): Promise<ResOf<'importer.newMock'>> {
  const options = { name: job.name, api: job.api, newId: () => newId('m') };
  // A SOAP interface is one binding of its WSDL: New Mock of it mocks that binding.
  const mock =
    job.soapBinding !== undefined
      ? await newSoapMockFromDocuments(job.documents, { ...options, binding: job.soapBinding })
      : await newMockFromDocuments(job.documents, options);
  const files: ResOf<'importer.newMock'>['files'] = [];
  let bytes = 0;
  // A new folder: nothing exists to keep or delete.
  for (const change of serializeMockFolder(mock, new Map())) {
    if (change.content === null) continue;
    bytes += typeof change.content === 'string' ? Buffer.byteLength(change.content) : change.content.byteLength;
    files.push({ path: change.path, content: change.content });
  }
  if (bytes > limitBytes) {
    throw new ParleyError(
      'mock-too-large',
      `New Mock of this definition would write ${size(bytes)} of files, over the ${size(limitBytes)} one mock is made with; nothing was written. Its schemas' samples are very large: mock a smaller definition, or fewer operations.`,
      { bytes, limit: limitBytes },
    );
  }
  return { files };
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.ceil(bytes / (1024 * 1024))} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
