/**
 * The file chooser, called from inside one of our dialogs. In the browser the chooser is itself
 * a custom dialog and takes the one dialog slot; ours keeps its state outside the component,
 * so it is simply shown again when the chooser leaves (picked, cancelled or Escape).
 */
import { effect } from '@preact/signals';
import { chooseFile } from '../components/FileChooser.js';
import { customDialog, openCustom } from '../state/overlays.js';

export function pickFile(): Promise<string | null> {
  const mine = customDialog.value;
  const picked = chooseFile();
  const chooser = customDialog.value;
  if (mine && chooser !== mine) {
    let stop = (): void => {};
    stop = effect(() => {
      const now = customDialog.value;
      if (now === chooser) return;
      // Not from inside the effect: it reads the signal it would write.
      queueMicrotask(() => {
        stop();
        // Only when the chooser simply left; another dialog opened over it wins.
        if (now === null && customDialog.value === null) openCustom(mine);
      });
    });
  }
  return picked;
}
