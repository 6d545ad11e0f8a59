/** `parley mock new`: the app's New Mock on a project's imported API. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ParleyError } from '../../protocol/errors.js';
import { newMockInProject, printNewMock } from './new-mock.js';

export async function newMock(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { api: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1 || !values.api) throw new ParleyError('bad-input', 'Usage: parley mock new <project-folder> --api <name> [--name <mock>] [--json].');
  const report = await newMockInProject(resolve(positionals[0]!), values.api, values.name);
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printNewMock(report, positionals[0]!, (text) => process.stdout.write(text));
  return 0;
}
