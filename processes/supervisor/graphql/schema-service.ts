/**
 * A GraphQL request's schema (docs/graphql.md): read from a `.graphql` SDL file in the project,
 * or fetched by introspection through the request itself (its URL, headers, auth, cookies and
 * TLS, as a send would) and cached in the workspace, one file per project and request, until
 * refreshed. The answer's bytes are bounded in the sender (past MAX_INTROSPECTION_BYTES the body
 * is spooled and refused here), and graphql-js builds the schema on the checker's query thread.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getIntrospectionQuery } from 'graphql';
import { ParleyError, hasCode, quote } from '../../../protocol/errors.js';
import { GraphqlSchemaAnswer, MAX_INTROSPECTION_BYTES } from '../../../protocol/model/graphql.js';
import type { Request } from '../../../protocol/model/request.js';
import { resolveInside } from '../../../protocol/project/safe-path.js';
import { checkAll } from '../../../protocol/validate-node.js';
import type { Supervisor } from '../supervisor.js';
import { prepareSend, type SendDeps } from '../send/send-service.js';
import { bytesText } from '../../sender/engine/send-errors.js';

/** The introspection query graphql-js writes, with descriptions (the docs explorer shows them). */
const INTROSPECTION = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true });

export async function graphqlSchema(sup: Supervisor, deps: SendDeps, projectRoot: string, request: Request, refresh: boolean, signal?: AbortSignal): Promise<GraphqlSchemaAnswer> {
  const store = sup.project(projectRoot);
  const file = request.body.graphql?.schemaFile.trim() ?? '';
  if (file !== '') return schemaFile(sup, store.root, file, signal);
  const cached = cacheFile(sup.dataDir, store.root, request.id);
  if (!refresh) return (await readCached(cached)) ?? { source: 'none', from: '', types: 0 };
  const answer = await introspect(sup, deps, projectRoot, request, signal);
  await writeCached(cached, answer).catch((err: Error) => sup.log(`the GraphQL schema was not cached: ${err.message}`));
  return answer;
}

async function schemaFile(sup: Supervisor, root: string, file: string, signal?: AbortSignal): Promise<GraphqlSchemaAnswer> {
  const path = resolveInside(root, file, 'GraphQL schema file');
  const size = await stat(path).then((s) => s.size, (err: NodeJS.ErrnoException) => {
    throw new ParleyError('not-found', `The GraphQL schema file ${quote(file)} could not be read (${err.code ?? err.message}).`);
  });
  if (size > MAX_INTROSPECTION_BYTES) throw tooLarge(size, `The schema file ${quote(file)}`);
  const { sdl, types } = await sup.checker.call('checker.graphqlSchema', { kind: 'sdl', text: await readFile(path, 'utf8') }, { signal });
  return { sdl, source: 'file', from: file, types };
}

async function introspect(sup: Supervisor, deps: SendDeps, projectRoot: string, request: Request, signal?: AbortSignal): Promise<GraphqlSchemaAnswer> {
  // The request itself carries the introspection query, as a POST (a GET URL of 4 KB of query is refused by many servers); not recorded in History or the HTTP Log.
  const asked: Request = { ...request, method: 'POST', body: { ...request.body, kind: 'graphql', graphql: { query: INTROSPECTION, variables: '', operationName: 'IntrospectionQuery', schemaFile: '' } } };
  const prepared = await prepareSend(sup, deps, projectRoot, asked, { noHistory: true, noLog: true });
  const spec = { ...prepared.spec, inlineLimit: MAX_INTROSPECTION_BYTES };
  const result = await sup.sender.call('sender.send', spec, { signal });
  const endpoint = endpointOf(spec.url);
  if (result.body.spooledTo !== undefined) {
    await unlink(result.body.spooledTo).catch(() => undefined);
    throw tooLarge(result.body.size, `The introspection answer from ${endpoint}`);
  }
  try {
    const { sdl, types } = await sup.checker.call('checker.graphqlSchema', { kind: 'introspection', bytes: result.body.bytes }, { signal });
    return { sdl, source: 'introspection', from: endpoint, at: new Date().toISOString(), types };
  } catch (err) {
    // A refusal (401, 404) says so before what the body could not be.
    if (hasCode(err, 'graphql-introspection-failed') && (result.status < 200 || result.status > 299)) {
      throw new ParleyError('graphql-introspection-failed', `${endpoint} answered introspection with ${result.status} ${result.statusText}: ${(err as Error).message}`);
    }
    throw err;
  }
}

function tooLarge(size: number, what: string): ParleyError {
  return new ParleyError('graphql-schema-too-large', `${what} is ${bytesText(size)}, over the ${bytesText(MAX_INTROSPECTION_BYTES)} Parley reads for a schema: save the schema as a .graphql file in the project and choose it as the schema file.`, { size, limit: MAX_INTROSPECTION_BYTES });
}

/** The endpoint as the cache and the page name it: origin and path, never a query string (it may carry a key). */
function endpointOf(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** One cache file per project and request, in the workspace (never in the project: it is what a server said). */
function cacheFile(dataDir: string, root: string, requestId: string): string {
  return join(dataDir, 'cache', 'graphql', `${createHash('sha256').update(`${root}\0${requestId}`).digest('hex').slice(0, 32)}.json`);
}

async function readCached(path: string): Promise<GraphqlSchemaAnswer | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
  // A damaged or foreign file is as good as none: the next introspection writes it again.
  return checkAll(GraphqlSchemaAnswer, value).length === 0 ? (value as GraphqlSchemaAnswer) : undefined;
}

async function writeCached(path: string, answer: GraphqlSchemaAnswer): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  const temp = `${path}.${randomUUID()}.tmp`;
  await writeFile(temp, JSON.stringify(answer), { mode: 0o600 });
  await rename(temp, path);
}
