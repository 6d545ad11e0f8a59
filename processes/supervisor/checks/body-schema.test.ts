/**
 * `request.bodySchema` on the supervisor: the definition read from the API's cache, the schema
 * inlined by the checker (here an in-process stand-in that answers as the checker process does,
 * with the same engine and the same fingerprint-first exchange; test/e2e/form-editor.test.ts goes
 * through the real checker).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isHttp } from '../../../protocol/kinds/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDemoProject } from '../../../demo/project.js';
import { ParleyError } from '../../../protocol/errors.js';
import type { DefinitionDocument } from '../../../protocol/model/verdict.js';
import { NAME_KEY, requestBodySchema } from '../../checker/engine/body-schema.js';
import { ProjectStore } from '../store/project-store.js';
import { bodySchemaHandler, bodySchemaHandlers, type BodySchemaChecker } from './body-schema.js';

/** Holds definitions by fingerprint and asks for the documents of one it has not seen, as the checker does. */
function fingerprintChecker(): BodySchemaChecker & { calls: string[] } {
  const held = new Map<string, DefinitionDocument[]>();
  const calls: string[] = [];
  return {
    calls,
    async call(_type, { definition, operation }) {
      calls.push(definition.documents ? 'with documents' : 'fingerprint only');
      if (definition.documents) held.set(definition.fingerprint, definition.documents);
      const documents = held.get(definition.fingerprint);
      if (!documents) throw new ParleyError('no-definition', 'The checker does not hold this definition; send its documents.');
      return requestBodySchema(documents, operation);
    },
  };
}

describe('bodySchemaHandler', () => {
  const stores: ProjectStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  it('answers for a request of the demo project from its cached definition, and says why not for others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-body-schema-'));
    await ensureDemoProject(dir, 'http://127.0.0.1:4010');
    const store = await ProjectStore.open(dir);
    stores.push(store);
    const checker = fingerprintChecker();
    const handler = bodySchemaHandler({ project: () => store, checker });
    const ctx = { signal: new AbortController().signal, chunk: () => {} };
    const requests = (await Promise.all(store.listApis().map((a) => store.requestsOf(a.id)))).flat().filter(isHttp);
    const create = requests.find((r) => r.name === 'Create a pet')!;
    const list = requests.find((r) => r.name === 'List pets')!;

    const answer = await handler({ project: dir, request: create }, ctx);
    expect(answer).toMatchObject({ available: true, mediaType: 'application/json', schema: { required: ['name'], [NAME_KEY]: 'NewPet' } });
    expect(checker.calls).toEqual(['fingerprint only', 'with documents']); // the checker asked for the documents once
    expect(await handler({ project: dir, request: create }, ctx)).toBe(answer); // remembered per fingerprint
    expect(checker.calls).toHaveLength(2);
    expect(await handler({ project: dir, request: list }, ctx)).toEqual({ available: false, reason: 'GET /pets declares no request body.' });
    const { operation: _dropped, ...unlinked } = create;
    expect(await handler({ project: dir, request: unlinked }, ctx)).toEqual({ available: false, reason: 'This request is not linked to an operation of an imported definition.' });

    const plain = await store.createApi({ name: 'Plain', baseUrl: 'http://127.0.0.1:1' });
    const inPlain = await store.createRequest({ parent: plain.id, name: 'Anything', method: 'POST', url: '/x' });
    expect(await handler({ project: dir, request: { ...inPlain, operation: { method: 'post', path: '/x' } } }, ctx)).toEqual({ available: false, reason: 'The API Plain has no imported definition.' });
    expect(Object.keys(bodySchemaHandlers({ project: () => store, checker: checker as never }))).toEqual(['request.bodySchema']);
  });
});
