/**
 * A runner tab's settings (which requests are left out, iterations, delay, data file,
 * environment) and the run it shows, kept while the tab is open so that switching tabs loses
 * nothing. Settings are the page's: nothing here is saved to the project.
 */
import { signal, type Signal } from '@preact/signals';
import type { DataPreview, RunStartInput } from '../../../../protocol/model/run.js';
import { MAX_RUN_DELAY_MS, MAX_RUN_ITERATIONS } from '../../../../protocol/model/run.js';
import { onTabClosed, type Tab } from '../state/tabs.js';

/** The environment choice: the workspace's active one when the run starts, none, or an environment's id. */
export const ACTIVE_ENVIRONMENT = '@active';
export const NO_ENVIRONMENT = '@none';

export interface RunnerTab {
  /** Requests left out (new requests of the scope are in by default). */
  unticked: Signal<ReadonlySet<string>>;
  iterations: Signal<string>;
  delay: Signal<string>;
  data: Signal<string>;
  preview: Signal<{ file: string; preview?: DataPreview; error?: string; loading?: boolean } | null>;
  environment: Signal<string>;
  /** The run shown: the newest started here, or found for this runner. */
  run: Signal<string | null>;
  starting: Signal<boolean>;
}

const states = new Map<string, RunnerTab>();
onTabClosed((id) => states.delete(id));

export function runnerTab(tab: Tab): RunnerTab {
  let state = states.get(tab.id);
  if (!state) {
    state = {
      unticked: signal(new Set()),
      iterations: signal(''),
      delay: signal('0'),
      data: signal(''),
      preview: signal(null),
      environment: signal(ACTIVE_ENVIRONMENT),
      run: signal(null),
      starting: signal(false),
    };
    states.set(tab.id, state);
  }
  return state;
}

/** The run's settings from the tab's fields, or what is wrong with them. */
export function runSettings(state: RunnerTab): Pick<RunStartInput, 'iterations' | 'delayMs' | 'data' | 'environment'> | string {
  const iterations = whole(state.iterations.value, 1, MAX_RUN_ITERATIONS);
  if (iterations === null) return `Iterations: a whole number from 1 to ${MAX_RUN_ITERATIONS.toLocaleString('en-US')}, or empty.`;
  const delay = whole(state.delay.value, 0, MAX_RUN_DELAY_MS);
  if (delay === null) return `Delay: a whole number of milliseconds from 0 to ${MAX_RUN_DELAY_MS.toLocaleString('en-US')}.`;
  const data = state.data.value.trim();
  const env = state.environment.value;
  return {
    ...(iterations !== undefined ? { iterations } : {}),
    delayMs: delay ?? 0,
    ...(data ? { data } : {}),
    ...(env === ACTIVE_ENVIRONMENT ? {} : { environment: env === NO_ENVIRONMENT ? null : env }),
  };
}

/** A whole number in bounds; undefined when empty; null when it is not one. */
function whole(text: string, min: number, max: number): number | undefined | null {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}
