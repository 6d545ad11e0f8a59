/**
 * The server and definition the run tests (the app's runner, `parley run`) send to: a real HTTP
 * server on 127.0.0.1 with the routes both use (a pet, a pet that breaks the definition, a request
 * held until the test answers it), each test's own routes beside them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The pets API the runs check contracts against: /pets/1 fits it, /pets/2 does not. */
export const PETS_DEFINITION = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'a pet', content: { 'application/json': { schema: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } } },
      },
    },
  },
};

/** Answers with a JSON body. */
export type Json = (status: number, body: unknown, headers?: Record<string, string>) => void;

export interface RunServer {
  /** http://127.0.0.1:<port> */
  base: string;
  /** The path of every request, in the order they came. */
  paths: string[];
  /** The /slow requests waiting for their answer, each answering its own (200 `{}`) when called. */
  slow: (() => void)[];
  /** Called as each /slow request arrives. */
  onSlow: () => void;
  close(): Promise<void>;
}

/**
 * Starts the server: /pets/1 `{ id: 1, name: 'Rex' }`, /pets/2 `{ id: 'two' }` (against
 * PETS_DEFINITION), /slow held (`slow`); any other path goes to `route` (`req`, its URL, `json`,
 * `res`), which answers it and says true, or it is a 404.
 */
export async function startRunServer(route: (req: IncomingMessage, url: URL, json: Json, res: ServerResponse) => boolean = () => false): Promise<RunServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    running.paths.push(url.pathname);
    const json: Json = (status, body, headers = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (url.pathname === '/pets/1') return json(200, { id: 1, name: 'Rex' });
    if (url.pathname === '/pets/2') return json(200, { id: 'two' });
    if (url.pathname === '/slow') {
      running.slow.push(() => json(200, {}));
      running.onSlow();
      return;
    }
    if (!route(req, url, json, res)) json(404, { error: 'no route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const running: RunServer = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths: [],
    slow: [],
    onSlow: () => {},
    close: async () => {
      running.slow.splice(0).forEach((answer) => answer());
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return running;
}
