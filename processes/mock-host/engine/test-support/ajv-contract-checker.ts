/**
 * A small, real ContractChecker for the engine's tests: ajv against a bundled OpenAPI document
 * (parameters and JSON request bodies, JSON response bodies). The app plugs in the project's
 * checker engine instead; this one exists so tests exercise real validation, not a stub.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { MockProblem } from '../../../../protocol/model/mock.js';
import { deref } from '../openapi-documents.js';
import { findContractOperation, isJsonMediaType, mediaTypeDeclared, responseForStatus, type Contract, type ContractChecker, type OperationRef } from '../contract.js';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: unknown;
}

export function ajvContractChecker(contract: Contract): ContractChecker {
  const doc = contract.document;
  const is31 = String(doc.openapi).startsWith('3.1');
  const make = (coerceTypes: boolean) => {
    const options = { strict: false, allErrors: true, validateSchema: false, coerceTypes };
    const ajv = is31 ? new Ajv2020(options) : new Ajv(options);
    ajv.addSchema(doc as object, 'openapi');
    return ajv;
  };
  const plain = make(false);
  const coercing = make(true);
  const cache = new Map<string, ValidateFunction>();
  const compile = (pointer: string, coerce: boolean, wrap: boolean): ValidateFunction => {
    const key = `${coerce}${wrap}${pointer}`;
    let fn = cache.get(key);
    if (!fn) {
      const ref = { $ref: `openapi#${pointer}` };
      // Coercion cannot replace the root value, so parameters are validated as `{ v: value }`.
      const schema = wrap ? { type: 'object', properties: { v: ref } } : ref;
      fn = (coerce ? coercing : plain).compile(schema);
      cache.set(key, fn);
    }
    return fn;
  };
  const inline = new WeakMap<object, ValidateFunction>();
  const inlineParameter = (schema: object): ValidateFunction => {
    let fn = inline.get(schema);
    if (!fn) inline.set(schema, (fn = coercing.compile({ type: 'object', properties: { v: schema } })));
    return fn;
  };
  const operationPointer = (op: OperationRef) => `/paths/${escape(op.path)}/${op.method.toLowerCase()}`;

  return {
    async checkRequest(op, request) {
      const problems: MockProblem[] = [];
      const item = deref(doc, (doc.paths as Record<string, unknown>)[op.path]) ?? {};
      const operation = deref(doc, item[op.method.toLowerCase()]) ?? {};
      const params = [...((item.parameters ?? []) as unknown[]), ...((operation.parameters ?? []) as unknown[])];
      params.forEach((raw) => {
        const p = deref<Parameter>(doc, raw);
        if (!p || p.in === 'cookie') return;
        const value =
          p.in === 'path'
            ? request.pathParams[p.name]
            : p.in === 'query'
              ? request.query[p.name]?.[0]
              : request.headers.find(([n]) => n.toLowerCase() === p.name.toLowerCase())?.[1];
        if (value === undefined) {
          if (p.required) problems.push({ in: p.in, pointer: p.name, message: `The ${p.in} parameter ${p.name} is required.` });
          return;
        }
        if (!p.schema) return;
        const pointer = typeof raw === 'object' && raw && '$ref' in raw ? `${(raw as { $ref: string }).$ref.slice(1)}/schema` : null;
        const validate = pointer ? compile(pointer, true, true) : inlineParameter(p.schema as object);
        if (!validate({ v: value })) problems.push(...(validate.errors ?? []).map((e) => ({ in: p.in as MockProblem['in'], pointer: p.name, message: `${p.name} ${e.message ?? 'is not valid'}.` })));
      });
      const body = deref(doc, operation.requestBody);
      if (body) {
        const content = (body.content ?? {}) as Record<string, unknown>;
        if (request.body === '') {
          if (body.required) problems.push({ in: 'body', pointer: '', message: 'A request body is required.' });
        } else {
          const declared = mediaTypeDeclared(Object.keys(content), request.contentType || 'application/json');
          if (!declared) problems.push({ in: 'header', pointer: 'Content-Type', message: `Content-Type ${request.contentType || '(none)'} is not declared for the request body.` });
          else if (isJsonMediaType(declared) && deref(doc, content[declared])?.schema) {
            problems.push(...validateJson(request.body, compile(`${requestBodyPointer(operationPointer(op), operation.requestBody)}/content/${escape(declared)}/schema`, false, false)));
          }
        }
      }
      return { problems: problems.slice(0, 50) };
    },

    async checkResponseBody(op, response) {
      const contractOp = findContractOperation(contract, op);
      const documented = contractOp && responseForStatus(contractOp, response.status);
      if (!documented) return { problems: [] };
      const declared = mediaTypeDeclared(documented.mediaTypes, response.contentType);
      if (!declared) return { problems: [] };
      const operation = deref(doc, deref(doc, (doc.paths as Record<string, unknown>)[op.path])?.[op.method.toLowerCase()]) ?? {};
      const raw = (operation.responses as Record<string, unknown>)[documented.key];
      const base = typeof raw === 'object' && raw && '$ref' in raw ? (raw as { $ref: string }).$ref.slice(1) : `${operationPointer(op)}/responses/${escape(documented.key)}`;
      const media = deref(doc, (deref(doc, raw)?.content as Record<string, unknown>)[declared]);
      if (!media?.schema) return { problems: [] };
      return { problems: validateJson(response.body, compile(`${base}/content/${escape(declared)}/schema`, false, false)) };
    },
  };
}

function requestBodyPointer(operationPointer: string, raw: unknown): string {
  return typeof raw === 'object' && raw && '$ref' in raw ? (raw as { $ref: string }).$ref.slice(1) : `${operationPointer}/requestBody`;
}

function validateJson(text: string, validate: ValidateFunction): MockProblem[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [{ in: 'body', pointer: '', message: 'The body is not valid JSON.' }];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => ({ in: 'body' as const, pointer: e.instancePath, message: `${e.instancePath || '/'} ${e.message ?? 'is not valid'}` }));
}

/** One JSON Pointer segment, percent-encoded since it sits in a URI fragment (`{petId}`). */
function escape(key: string): string {
  return encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'));
}
