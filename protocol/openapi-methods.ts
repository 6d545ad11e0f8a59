/**
 * The operation methods an OpenAPI path item holds as fixed fields, by generation: the one list
 * the importer, the checker, the mock's contract and the request-body schema read path items by.
 * (Methods without a fixed field live under 3.2's `additionalOperations`.)
 */
export const SWAGGER_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
/** OpenAPI 3.0 and 3.1. */
export const OPENAPI_3_METHODS = [...SWAGGER_METHODS, 'trace'] as const;
/** OpenAPI 3.2; checks and mocks read every 3.x document by it, so a `query` written early still counts. */
export const OPENAPI_32_METHODS = [...OPENAPI_3_METHODS, 'query'] as const;

export type OperationMethod = (typeof OPENAPI_32_METHODS)[number];

export function isOperationMethod(name: string, methods: readonly string[] = OPENAPI_32_METHODS): name is OperationMethod {
  return methods.includes(name);
}
