/** `parley ui`: the supervisor, headless, serving the UI to a browser on 127.0.0.1. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Supervisor } from '../../processes/supervisor/supervisor.js';
import { startUiServer } from '../../processes/supervisor/ui-server.js';
import { uiHandlers } from '../../processes/supervisor/ui-api.js';
import { distEntry } from '../../processes/supervisor/paths.js';
import { defaultDataDir } from '../../processes/supervisor/store/workspace-store.js';
import { ParleyError } from '../../protocol/errors.js';
import { startDemoServer, type DemoServer } from '../../demo/server.js';
import { demoDir, ensureDemoProject } from '../../demo/project.js';
import { dirname } from 'node:path';
import { installCrashPolicy } from '../../processes/runtime/crash-policy.js';

export async function runUi(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'no-open': { type: 'boolean', default: false },
      demo: { type: 'boolean', default: false },
    },
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ParleyError('bad-input', `--port must be a port number, not ${values.port}.`);

  const dataDir = defaultDataDir();
  const supervisor = await Supervisor.start({ dataDir, session: true });
  // A failure one UI message leaves behind is logged, and the app with its children goes on.
  installCrashPolicy({ role: 'supervisor', log: supervisor.log });
  let demo: DemoServer | null = null;
  const cleanup = async () => {
    await supervisor.shutdown();
    await demo?.close();
  };
  try {
    if (values.demo) {
      demo = await startDemoServer(4010).catch(() => startDemoServer(0));
      await ensureDemoProject(demoDir(dataDir), demo.url);
      await supervisor.openProject(demoDir(dataDir));
      process.stdout.write(`Demo API: ${demo.url}\n`);
    }
    // The folders load while the UI starts, so its URL does not wait for a big project; a page
    // that connects meanwhile is told they are opening and joins their load (app.info). The last
    // session's projects first, then the command line's.
    supervisor.restoreSession();
    for (const folder of positionals) {
      supervisor.openProject(resolve(folder), { create: true }).catch((err: Error) => process.stderr.write(`Could not open ${folder}: ${err.message}\n`));
    }

    const server = await startUiServer({
      port,
      uiDir: resolve(dirname(distEntry('cli.js')), 'ui'),
      handlers: uiHandlers(supervisor),
      onConnect: (peer) => supervisor.attachUi(peer),
      log: supervisor.log,
    });
    process.stdout.write(`Parley is running at ${server.url}\n`);
    if (!values['no-open']) openBrowser(server.url);

    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    process.stdout.write('Stopping Parley…\n');
    await server.close();
    await cleanup();
    return 0;
  } catch (err) {
    await cleanup();
    throw err;
  }
}

function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return;
  const child = spawn(cmd as string, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => process.stdout.write('Open the URL above in your browser.\n'));
  child.unref();
}
