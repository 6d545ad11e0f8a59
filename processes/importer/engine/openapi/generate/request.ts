/**
 * One request per operation. What is generated is also recorded in `generated` so a later
 * definition update can tell the user's edits from values the document produced.
 */
import type { Row } from '../../../../../protocol/model/common.js';
import type { OperationKey } from '../../../../../protocol/model/import.js';
import { defaultSettings, type GeneratedFields, type Request } from '../../../../../protocol/model/request.js';
import type { NApi, NOperation } from '../normalize/model.js';
import { operationAuth } from './auth.js';
import { bodyFromGenerated, generateBody, shapeFor } from './body.js';

export interface GeneratedOperation {
  key: OperationKey;
  folder: string;
  name: string;
  /** Upper case, as Request.method holds it. */
  method: string;
  generated: GeneratedFields;
}

export function generateOperation(op: NOperation, api: NApi): GeneratedOperation {
  const method = op.method.toUpperCase();
  const { contentType, text } = generateBody(op.body, api.sampler);
  const headers: Row[] = op.params.filter((p) => p.in === 'header').map((p) => ({ name: p.name, value: p.value, enabled: p.required }));
  if (op.accept.length > 0) headers.push({ name: 'Accept', value: op.accept.join(', '), enabled: true });
  // Form and multipart bodies get their Content-Type (with its boundary) from the body kind itself.
  if (contentType !== '' && shapeFor(contentType).kind === 'raw') headers.push({ name: 'Content-Type', value: contentType, enabled: true });
  return {
    key: { method: op.method, path: op.path },
    folder: op.folder,
    name: op.summary ?? op.operationId ?? `${method} ${op.path}`,
    method,
    generated: {
      url: (op.serverUrl ?? '') + op.path,
      query: op.params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, value: p.value, enabled: p.required })),
      headers,
      pathParams: op.params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, value: p.value })),
      contentType,
      body: text,
      auth: operationAuth(op.security, api.security, api.schemes),
    },
  };
}

/**
 * A new request from a generation; `link` false for webhooks and callbacks (no operation to
 * update from). `owned`: the caller lets go of `g`, so the request keeps its record as it is
 * rather than a copy (an import of thousands of operations need not hold both).
 */
export function requestFromGenerated(g: GeneratedOperation, id: string, link = true, owned = false): Request {
  const request: Request = {
    version: 1,
    id,
    name: g.name.trim() === '' ? `${g.method} ${g.key.path}` : g.name,
    method: g.method,
    url: g.generated.url,
    pathParams: g.generated.pathParams.map((p) => ({ ...p })),
    query: g.generated.query.map((r) => ({ ...r })),
    headers: g.generated.headers.map((r) => ({ ...r })),
    body: bodyFromGenerated(g.generated.contentType, g.generated.body),
    auth: structuredClone(g.generated.auth),
    settings: defaultSettings(),
  };
  if (link) {
    request.operation = { ...g.key };
    request.generated = owned ? g.generated : structuredClone(g.generated);
  }
  return request;
}
