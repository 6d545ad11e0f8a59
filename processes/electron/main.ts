/**
 * The desktop entry: the supervisor runs in Electron's main process and the UI in a window
 * with context isolation and the sandbox on, talking through the preload bridge. Electron is
 * an optional dependency; without it Parley runs in the browser via `parley ui`.
 */
import { BrowserWindow, app, dialog, ipcMain, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Peer } from '../../protocol/peer.js';
import { validateCompiled } from '../../protocol/validate-node.js';
import { Supervisor } from '../supervisor/supervisor.js';
import { uiHandlers } from '../supervisor/ui-api.js';
import { defaultDataDir } from '../supervisor/store/workspace-store.js';
import { ipcTransport } from './ipc-transport.js';
import { installCrashPolicy, messageScope } from '../runtime/crash-policy.js';

const distDir = dirname(fileURLToPath(import.meta.url));
const indexHtml = join(distDir, 'ui', 'index.html');

async function openWindow(): Promise<void> {
  const supervisor = await Supervisor.start({ dataDir: defaultDataDir(), electron: true, session: true });
  installCrashPolicy({ role: 'supervisor', log: supervisor.log });
  // Loaded while the window opens; the page joins the loads still under way (app.info): the last
  // session's projects, then the command line's.
  supervisor.restoreSession();
  for (const folder of process.argv.slice(2).filter((a) => !a.startsWith('-'))) {
    supervisor.openProject(folder, { create: true }).catch((err: Error) => supervisor.log(`could not open ${folder}: ${err.message}`));
  }
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Parley',
    webPreferences: {
      preload: join(distDir, 'electron-preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  const ownUrl = pathToFileURL(indexHtml).href;
  const peer = new Peer(ipcTransport(ipcMain, win.webContents, (url) => url.split('?')[0] === ownUrl), {
    role: 'supervisor',
    pid: process.pid,
    validate: validateCompiled,
    handlers: uiHandlers(supervisor),
    scope: messageScope,
    onProtocolError: (err) => supervisor.log(`ui bus: ${err.code}: ${err.message}`),
    onHandlerError: (type, err) => supervisor.log(`ui bus: ${type} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  });
  supervisor.attachUi(peer);
  ipcMain.handle('parley:choose-file', async (event) => {
    if (event.sender !== win.webContents) return null;
    const result = await dialog.showOpenDialog(win, { properties: ['openFile'] });
    return result.canceled ? null : (result.filePaths[0] ?? null);
  });
  // The window shows only our page: links open in the system browser, navigation is refused.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:/.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  await win.loadFile(indexHtml);
  app.on('window-all-closed', () => {
    void supervisor.shutdown().finally(() => app.quit());
  });
}

app.whenReady().then(openWindow, (err: Error) => {
  process.stderr.write(`parley: ${err.message}\n`);
  app.exit(1);
});
