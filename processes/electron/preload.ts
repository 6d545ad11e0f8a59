/** The only bridge between the sandboxed UI and the main process: bus bytes and the native file dialog. */
import { contextBridge, ipcRenderer } from 'electron';

const BUS_CHANNEL = 'parley:bus';

contextBridge.exposeInMainWorld('parleyBridge', {
  send: (bytes: Uint8Array) => ipcRenderer.send(BUS_CHANNEL, bytes),
  onMessage: (listener: (bytes: Uint8Array) => void) => {
    ipcRenderer.on(BUS_CHANNEL, (_event, bytes: Uint8Array) => listener(bytes));
  },
  onClose: () => {},
});

contextBridge.exposeInMainWorld('parleyNative', {
  chooseFile: (): Promise<string | null> => ipcRenderer.invoke('parley:choose-file'),
});
