/**
 * gRPC on the bus (docs/grpc.md): the sender's ask for a definition's text by its hash, and the
 * request editor's ask for an API's methods and a method's input type as a JSON Schema with an
 * example message (the schema is made here, where protobufjs is; the page checks and completes
 * with it).
 */
import { ParleyError, quote } from '../../../../protocol/errors.js';
import { callKindOf, grpcMethods } from '../../../../protocol/grpc/definition.js';
import { exampleMessage } from '../../../../protocol/grpc/message-check.js';
import { messageSchema } from '../../../../protocol/grpc/message-schema.js';
import type { Handlers } from '../../../../protocol/peer.js';
import type { Supervisor } from '../../supervisor.js';
import { descriptorByHash, loadApiDefinition } from './definitions.js';

export function grpcSenderHandlers(): Handlers {
  return {
    'grpc.descriptor': ({ hash }) => ({ text: descriptorByHash(hash) }),
  };
}

export function grpcUiHandlers(sup: Supervisor): Handlers {
  return {
    'grpc.describe': async ({ project, api: apiId, service, method }) => {
      const store = sup.project(project);
      const api = store.getApi(apiId);
      const definition = await loadApiDefinition(api, store.apiDir(api.id));
      const methods = grpcMethods(definition.root).map((m) => ({ ...m, kind: callKindOf(m) }));
      if (service === undefined || method === undefined || service === '' || method === '') return { methods, target: api.baseUrl };
      const found = methods.find((m) => m.service === service && m.method === method);
      if (!found) throw new ParleyError('not-found', `The API's definition has no method ${quote(`${service}/${method}`)}.`);
      const schema = messageSchema(definition.root.lookupType(`.${found.requestType}`));
      return { methods, target: api.baseUrl, input: { schema, example: `${JSON.stringify(exampleMessage(schema), null, 2)}\n` } };
    },
  };
}
