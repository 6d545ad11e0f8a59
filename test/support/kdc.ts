/**
 * A real MIT KDC for a throwaway realm (PARLEY.TEST) in a temporary folder, on a free 127.0.0.1
 * port, with a service principal HTTP/127.0.0.1 (and HTTP/localhost) in a keytab and a user
 * signed in (`kinit -k -t`) into a private credential cache. Everything a Kerberos client or
 * server needs to use it is in `env`; nothing touches the machine's own /etc/krb5.conf.
 *
 * Under CI=true, missing krb5 tools or a missing `kerberos` module fail loudly; elsewhere
 * `kerberosMissing()` says why the tests skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './until.js';

export const REALM = 'PARLEY.TEST';
const TOOLS = ['krb5kdc', 'kdb5_util', 'kadmin.local', 'kinit'] as const;

export interface Kdc {
  dir: string;
  port: number;
  /** KRB5_CONFIG and KRB5_KDC_PROFILE, and the user's ticket in KRB5CCNAME. */
  env: Record<string, string>;
  /** The same, with an empty credential cache: nobody signed in. */
  noTicketEnv: Record<string, string>;
  /** The service keytab (HTTP/127.0.0.1, HTTP/localhost), for a server's KRB5_KTNAME. */
  serviceKeytab: string;
  user: string;
  /** Stops the KDC and leaves its files (an unreachable KDC). */
  stopKdc(): Promise<void>;
  /** Stops the KDC and removes its files. */
  stop(): Promise<void>;
}

function tool(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/sbin', '/usr/bin'];
  for (const dir of dirs) if (dir && existsSync(join(dir, name))) return join(dir, name);
  return null;
}

/** Why the Kerberos tests cannot run here, or null when they can. Throws under CI instead. */
export function kerberosMissing(): string | null {
  const missing: string[] = TOOLS.filter((t) => tool(t) === null);
  let reason = missing.length ? `the krb5 tools ${missing.join(', ')} are not installed (Debian: krb5-kdc krb5-admin-server krb5-user)` : null;
  if (!reason) {
    try {
      createRequire(import.meta.url)('kerberos');
    } catch (err) {
      reason = `the kerberos module does not load (${(err as Error).message.split('\n')[0]}; Debian: libkrb5-dev, then npm install)`;
    }
  }
  if (reason && process.env.CI) throw new Error(`Kerberos tests cannot be skipped under CI: ${reason}.`);
  return reason;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

function run(name: string, args: string[], env: Record<string, string>): void {
  const result = spawnSync(tool(name)!, args, { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 15_000 });
  if (result.status !== 0) throw new Error(`${name} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export async function startKdc(): Promise<Kdc> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-kdc-'));
  const port = await freePort();
  const kdcConf = join(dir, 'kdc.conf');
  const krb5Conf = join(dir, 'krb5.conf');
  await writeFile(
    kdcConf,
    `[kdcdefaults]
 kdc_ports = ${port}
 kdc_tcp_ports = ${port}
[realms]
 ${REALM} = {
  database_name = ${dir}/principal
  key_stash_file = ${dir}/stash
  acl_file = ${dir}/kadm5.acl
  kdc_listen = 127.0.0.1:${port}
  kdc_tcp_listen = 127.0.0.1:${port}
  max_life = 1h
 }
[logging]
 kdc = FILE:${dir}/kdc.log
`,
  );
  // No DNS and no reverse lookups: HTTP@127.0.0.1 names HTTP/127.0.0.1@PARLEY.TEST as written.
  await writeFile(
    krb5Conf,
    `[libdefaults]
 default_realm = ${REALM}
 dns_lookup_realm = false
 dns_lookup_kdc = false
 dns_canonicalize_hostname = false
 rdns = false
 udp_preference_limit = 1
[realms]
 ${REALM} = {
  kdc = 127.0.0.1:${port}
 }
[domain_realm]
 127.0.0.1 = ${REALM}
 localhost = ${REALM}
`,
  );
  await writeFile(join(dir, 'kadm5.acl'), '');
  const base = { KRB5_CONFIG: krb5Conf, KRB5_KDC_PROFILE: kdcConf };
  const serviceKeytab = join(dir, 'http.keytab');
  const userKeytab = join(dir, 'user.keytab');
  const user = `alice@${REALM}`;
  let kdc: ChildProcess | undefined;
  try {
    run('kdb5_util', ['create', '-s', '-r', REALM, '-P', 'parley-master-key'], base);
    const admin = (q: string) => run('kadmin.local', ['-r', REALM, '-q', q], base);
    admin('addprinc -randkey HTTP/127.0.0.1');
    admin('addprinc -randkey HTTP/localhost');
    admin('addprinc -randkey alice');
    admin(`ktadd -k ${serviceKeytab} HTTP/127.0.0.1 HTTP/localhost`);
    admin(`ktadd -k ${userKeytab} alice`);
    kdc = spawn(tool('krb5kdc')!, ['-n', '-r', REALM], { env: { ...process.env, ...base }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    kdc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const started = kdc;
    await until(() => listening(port), 10_000, () => `krb5kdc did not listen on 127.0.0.1:${port} (exit ${started.exitCode}): ${stderr}`);
    const env = { ...base, KRB5CCNAME: `FILE:${join(dir, 'ccache')}` };
    run('kinit', ['-k', '-t', userKeytab, user], env);
    const noTicketEnv = { ...base, KRB5CCNAME: `FILE:${join(dir, 'empty-ccache')}` };
    const child = kdc;
    const stopKdc = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    return {
      dir,
      port,
      env,
      noTicketEnv,
      serviceKeytab,
      user,
      stopKdc,
      async stop() {
        await stopKdc();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    kdc?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
