/** HTTP, the first request kind: a method, a URL and a body (GraphQL and SOAP ride on it). */
import { Request, blankRequest, requestForFile } from '../model/request.js';
import { REQUEST_SUFFIX, requestKind } from '../project/layout.js';
import type { RequestKind } from './kind.js';

export const httpKind: RequestKind<Request> = {
  id: 'http',
  label: 'HTTP',
  api: 'rest',
  schema: Request,
  suffix: REQUEST_SUFFIX,
  file: requestKind,
  forFile: requestForFile,
  blank: (fields) => blankRequest({ ...fields, method: 'GET' }),
  badge: (request) => request.method,
  record: 'exchange',
};
