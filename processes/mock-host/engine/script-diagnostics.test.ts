import { describe, expect, it } from 'vitest';
import { checkDispatchScript, dispatchDeclarations } from './script-diagnostics.js';

const names = ['Default', 'Not found'];
const at = (source: string) => checkDispatchScript(source, names).map((d) => `${d.line}:${d.column} ${d.message}`);

describe('dispatch.ts diagnostics', () => {
  it('accepts a script that uses the API as declared', () => {
    const source = [
      "const id = request.pathParams['petId'] ?? '';",
      "const verbose = (request.query['verbose'] ?? []).includes('1');",
      "const traced = request.headers.some((h) => h.name === 'X-Trace');",
      "if (scenarios.get('stock') === 'Empty') respond('Not found');",
      "else if (id === '0' || request.body.length > 10) respond(responses[1]!.name);",
      "scenarios.set('stock', 'Empty');",
      'log(request.operation, request.method, request.path, verbose, traced);',
    ].join('\n');
    expect(checkDispatchScript(source, names)).toEqual([]);
  });

  it('reports misspelt names, fields the request does not have, and missing responses, with line and column', () => {
    const source = ["const q = request.qurey['a'];", "respnd('Default');", "respond('Not Found');", 'request.cookies;', 'logg(1);'].join('\n');
    expect(at(source)).toEqual([
      "1:19 Property 'qurey' does not exist on type 'ParleyRequest'. Did you mean 'query'?",
      "2:1 Cannot find name 'respnd'. Did you mean 'respond'?",
      `3:9 Argument of type '"Not Found"' is not assignable to parameter of type '"Default" | "Not found"'.`,
      "4:9 Property 'cookies' does not exist on type 'ParleyRequest'.",
      "5:1 Cannot find name 'logg'. Did you mean 'log'?",
    ]);
  });

  it('reports what the sandbox does not have: network, timers, modules', () => {
    const diagnostics = checkDispatchScript("import fs from 'node:fs';\nfetch('http://x');\nsetTimeout(() => respond('Default'), 1);\nexport {};", names);
    const messages = diagnostics.map((d) => `${d.line} ${d.message}`);
    expect(messages).toContain("2 Cannot find name 'fetch'.");
    expect(messages).toContain("3 Cannot find name 'setTimeout'.");
    expect(messages.filter((m) => m.includes('cannot import or export')).map((m) => m.split(' ')[0])).toEqual(['1', '4']);
  });

  it('reports syntax errors with their place', () => {
    expect(checkDispatchScript("respond('Default'", names)).toEqual([expect.objectContaining({ line: 1, column: 18, severity: 'error', message: "')' expected." })]);
  });

  it('types respond() with exactly the operation\'s names', () => {
    expect(dispatchDeclarations(['A', 'B "quoted"'])).toContain('declare function respond(name: "A" | "B \\"quoted\\""): void;');
    expect(dispatchDeclarations([])).toContain('declare function respond(name: never): void;');
    expect(at("respond('A');")).toEqual([`1:9 Argument of type '"A"' is not assignable to parameter of type '"Default" | "Not found"'.`]);
  });
});
