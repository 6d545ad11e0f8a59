import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { ScriptSandbox, type ScriptInput } from './script-sandbox.js';

const input: ScriptInput = {
  request: { operation: 'op', method: 'GET', path: '/x', query: {}, headers: [], pathParams: {}, body: '' },
  responses: [
    { id: 'r1', name: 'Default' },
    { id: 'r2', name: 'Other' },
  ],
  scenarios: { stock: 'Low' },
};

const sandbox = new ScriptSandbox();
afterAll(() => sandbox.dispose());

describe('ScriptSandbox', () => {
  it('runs a typed script and reports the pick, scenario changes and log lines', async () => {
    const outcome = await sandbox.run("const s: string = scenarios.get('stock'); scenarios.set('stock', 'Empty'); log('was', s, scenarios.get('stock'), scenarios.get('new')); respond('Other');", input);
    expect(outcome).toEqual({ picked: 'Other', scenarioChanges: [['stock', 'Empty']], logs: ['was Low Empty Started'] });
  });

  it('gives each request a fresh context: globals a script leaves behind are gone', async () => {
    await sandbox.run('(globalThis as any).leftover = 1;', input);
    const outcome = await sandbox.run("log(typeof (globalThis as any).leftover);", input);
    expect(outcome.logs).toEqual(['undefined']);
  });

  it('does not let a script forge its outcome or change the request', async () => {
    const outcome = await sandbox.run("try { (globalThis as any).__parleyResult = () => '{}'; } catch {} try { (request as any).method = 'X'; } catch {} log(request.method); respond('Default');", input);
    expect(outcome).toMatchObject({ picked: 'Default', logs: ['GET'] });
  });

  it('stops a script over the memory limit and works again afterwards', async () => {
    // A time budget the filling never reaches on a loaded machine: this is about memory alone.
    const sandbox = new ScriptSandbox({ timeoutMs: 60_000 });
    onTestFinished(() => sandbox.dispose());
    const outcome = await sandbox.run('const keep: string[][] = []; while (true) keep.push(new Array(100000).fill("x".repeat(10)));', input);
    expect(outcome.error?.code).toBe('mock-script-failed');
    expect(outcome.error?.reason).toBe('The dispatch script used more than 32 MB and was stopped.');
    expect((await sandbox.run("respond('Other')", input)).picked).toBe('Other');
  });
});
