/** Hangs the Text / Form switch on the request editor's raw body toolbar. */
import { bodyExtras } from '../RequestEditor.js';
import { FormSwitch } from './FormSwitch.js';
import './form.css';

let registered = false;

export function registerBodyForm(): void {
  if (registered) return;
  registered = true;
  bodyExtras.push((state) => <FormSwitch key="body-form" state={state} />);
}
