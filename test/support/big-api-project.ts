/** A project holding one API whose cached definition is `document` (JSON), as an import with caching leaves it. */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ProjectStore } from '../../processes/supervisor/store/project-store.js';

export async function projectWithDefinition(dir: string, name: string, document: unknown): Promise<{ apiId: string }> {
  const text = JSON.stringify(document);
  const store = await ProjectStore.open(dir, { create: true, name });
  try {
    const api = await store.createApi({
      name,
      baseUrl: 'http://127.0.0.1:9',
      api: { definition: { format: 'openapi-3.1', cached: ['definition/openapi.json'], fingerprint: createHash('sha256').update(text).digest('hex'), apiVersion: '1.0.0' } },
    });
    await store.commit([{ path: join(store.apiDir(api.id), 'definition', 'openapi.json'), content: text }]);
    return { apiId: api.id };
  } finally {
    await store.close();
  }
}
