// An HTTP server on 127.0.0.1 that requires Negotiate (SPNEGO), checked by the `kerberos`
// package against the service keytab in KRB5_KTNAME. It runs in its own process because the
// acceptor's environment (KRB5_KTNAME, KRB5_CONFIG) must differ from the client's.
// argv[2]: a JSON object of path -> { file, contentType } or { redirect }. Prints one JSON line
// per event on stdout: { port } when listening, then { path, authorization, user } per request.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const kerberos = createRequire(import.meta.url)('kerberos');
const routes = new Map(Object.entries(JSON.parse(process.argv[2])));
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function accept(header) {
  const token = /^Negotiate\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!token) return { ok: false, why: 'no Negotiate token' };
  try {
    const server = await kerberos.initializeServer('');
    await server.step(token);
    return server.contextComplete ? { ok: true, user: server.username, response: server.response } : { ok: false, why: 'context incomplete' };
  } catch (err) {
    return { ok: false, why: err.message };
  }
}

const http = createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  const authorization = req.headers.authorization;
  const result = await accept(authorization);
  say({ path, authorization: authorization ? authorization.split(' ')[0] : null, user: result.ok ? result.user : null, why: result.ok ? null : result.why });
  if (!result.ok) {
    res.writeHead(401, { 'www-authenticate': 'Negotiate', 'content-type': 'text/plain' });
    res.end('Kerberos sign-in required');
    return;
  }
  const route = routes.get(path);
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  const headers = result.response ? { 'www-authenticate': `Negotiate ${result.response}` } : {};
  if (route.redirect) {
    res.writeHead(302, { ...headers, location: route.redirect }).end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': route.contentType ?? 'text/xml' });
  res.end(readFileSync(route.file));
});
http.listen(0, '127.0.0.1', () => say({ port: http.address().port }));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
