/**
 * Starts test/support/negotiate-server.mjs (an HTTP server requiring Negotiate) in its own
 * process with the KDC's configuration and the service keytab, and records what each request
 * carried.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Kdc } from './kdc.js';
import { until } from './until.js';

export type NegotiateRoute = { file: string; contentType?: string } | { redirect: string };

export interface SeenRequest {
  path: string;
  /** The Authorization scheme sent (`Negotiate`), or null. */
  authorization: string | null;
  /** The signed-in principal the server accepted, or null. */
  user: string | null;
  why: string | null;
}

export interface NegotiateServer {
  origin: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startNegotiateServer(kdc: Kdc, routes: Record<string, NegotiateRoute>): Promise<NegotiateServer> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'negotiate-server.mjs'), JSON.stringify(routes)], {
    env: { ...process.env, KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5_KTNAME: `FILE:${kdc.serviceKeytab}`, KRB5CCNAME: kdc.noTicketEnv.KRB5CCNAME },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const seen: SeenRequest[] = [];
  let port = 0;
  let stderr = '';
  let pending = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    pending += d.toString();
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = JSON.parse(pending.slice(0, nl)) as { port?: number } & SeenRequest;
      pending = pending.slice(nl + 1);
      if (line.port) port = line.port;
      else seen.push(line);
    }
  });
  await until(() => port > 0 || child.exitCode !== null, 10_000, () => `the Negotiate server did not start: ${stderr}`);
  if (!port) throw new Error(`the Negotiate server did not start (exit ${child.exitCode}): ${stderr}`);
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    async close() {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.stdin.end();
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Another origin (another port) a Negotiate server can redirect to: it answers with `respond` and records each request's headers. */
export interface RecordingOrigin {
  origin: string;
  saw: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startRecordingOrigin(respond: (res: ServerResponse) => void): Promise<RecordingOrigin> {
  const saw: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    saw.push(req.headers);
    respond(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    saw,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
