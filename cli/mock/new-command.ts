/** `parley mock new`: the app's New Mock on a project's imported API, in a headless session. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ParleyError } from '../../protocol/errors.js';
import { CliSession } from '../import/session.js';
import { newMockInProject, printNewMock } from './new-mock.js';

export async function newMock(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { api: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1 || !values.api) throw new ParleyError('bad-input', 'Usage: parley mock new <project-folder> --api <name> [--name <mock>] [--json].');
  const session = new CliSession();
  try {
    const sup = await session.supervisor(undefined);
    // Ctrl+C ends the session: its shutdown kills a sampling child (nothing is written then).
    const report = await Promise.race([newMockInProject(sup, resolve(positionals[0]!), values.api, values.name), aborted(session.signal)]);
    if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else printNewMock(report, positionals[0]!, (text) => process.stdout.write(text));
    return 0;
  } catch (err) {
    if (session.wasInterrupted(err)) return session.cancelled('mock new', process.stderr);
    throw err;
  } finally {
    await session.close();
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new ParleyError('cancelled', 'Cancelled.'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
