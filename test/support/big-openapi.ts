/**
 * A generated OpenAPI 3.1 definition big enough that New Mock samples for seconds: `operations`
 * operations, each answering a wide schema of its own (no example, so every Default response is a
 * sample) that nests shared components a few levels deep.
 */
export function bigOpenApi(operations: number, fields = 40): Record<string, unknown> {
  const schemas: Record<string, unknown> = {
    Address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' }, country: { type: 'string', enum: ['DE', 'FR', 'NL'] } } },
    Owner: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string', format: 'email' }, home: { $ref: '#/components/schemas/Address' }, work: { $ref: '#/components/schemas/Address' } } },
  };
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < operations; i++) {
    const properties: Record<string, unknown> = {};
    for (let f = 0; f < fields; f++) {
      properties[`field${f}`] =
        f % 4 === 0 ? { type: 'string', format: 'date-time' } : f % 4 === 1 ? { type: 'integer', minimum: f } : f % 4 === 2 ? { type: 'array', items: { $ref: '#/components/schemas/Owner' } } : { $ref: '#/components/schemas/Owner' };
    }
    schemas[`Thing${i}`] = { type: 'object', required: ['field0'], properties };
    paths[`/things${i}/{id}`] = {
      get: {
        operationId: `getThing${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/Thing${i}` } } } }, '404': { description: 'missing' } },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: 'Big', version: '1.0.0' }, paths, components: { schemas } };
}
