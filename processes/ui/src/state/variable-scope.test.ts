/** What the editor says a `${name}` stands for: the send's precedence, where a value comes from, what stays unresolved. */
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../../protocol/model/common.js';
import { emptyWorkspace, type Workspace } from '../../../../protocol/model/workspace.js';
import { describeSource, editorScope, resolve, unresolvedIn, type EditorScope } from './variable-scope.js';

const row = (name: string, value: string, enabled = true): Row => ({ name, value, enabled });

function workspaceWith(patch: Partial<Workspace>): Workspace {
  return { ...emptyWorkspace(), ...patch };
}

const staging = workspaceWith({
  environments: [
    { id: 'e_dev', name: 'Dev', variables: [row('host', 'dev.example.com')] },
    { id: 'e_stg', name: 'Staging', variables: [row('host', 'stg.example.com'), row('token', '${secret:staging/token}'), row('off', 'x', false), row('', 'nameless')] },
  ],
  activeEnvironment: 'e_stg',
  globals: [row('host', 'global.example.com'), row('agent', 'parley'), row('region', 'eu')],
  secrets: ['staging/token', 'shared'],
});
const properties = [row('host', 'property.example.com'), row('region', 'us'), row('base', 'https://${host}/v1')];

describe('editorScope and resolve', () => {
  const scope = editorScope(staging, properties);

  it('takes the active environment over the project properties over the globals, as the send does', () => {
    expect(resolve('host', scope)).toEqual({ kind: 'value', value: 'stg.example.com', source: 'environment', secret: false });
    expect(resolve('region', scope)).toEqual({ kind: 'value', value: 'us', source: 'property', secret: false });
    expect(resolve('agent', scope)).toEqual({ kind: 'value', value: 'parley', source: 'global', secret: false });
  });

  it('says where a value comes from in words, naming the environment', () => {
    const from = (name: string) => describeSource(resolve(name, scope) as Extract<ReturnType<typeof resolve>, { kind: 'value' }>, scope);
    expect([from('host'), from('region'), from('agent')]).toEqual(['environment Staging', 'project property', 'global']);
  });

  it("takes a folder's variables over the project's properties and under the environment, as the send does, naming the folder", () => {
    const from = { kind: 'folder' as const, id: 'a_shop/Orders', name: 'Orders' };
    const withFolders = editorScope(staging, properties, [], [
      { name: 'region', value: 'orders-region', from },
      { name: 'host', value: 'orders.example.com', from },
      { name: 'ordersToken', value: 'tok', from },
    ]);
    const value = (name: string) => resolve(name, withFolders) as Extract<ReturnType<typeof resolve>, { kind: 'value' }>;
    expect(value('region')).toEqual({ kind: 'value', value: 'orders-region', source: 'property', secret: false, folder: 'Orders' });
    expect(value('host')).toMatchObject({ value: 'stg.example.com', source: 'environment' });
    expect(describeSource(value('ordersToken'), withFolders)).toBe('folder Orders');
    expect(describeSource(value('host'), withFolders)).toBe('environment Staging');
    expect(describeSource(value('agent'), withFolders)).toBe('global');
    expect(unresolvedIn(['${ordersToken}'], withFolders)).toEqual([]);
  });

  it('leaves out rows switched off and rows without a name', () => {
    expect(resolve('off', scope).kind).toBe('missing');
    expect(resolve('', scope).kind).toBe('missing');
    expect([...scope.values.keys()].sort()).toEqual(['agent', 'base', 'host', 'region', 'token']);
  });

  it('marks a variable whose value holds a secret reference as a secret, and knows stored secrets by name only', () => {
    expect(resolve('token', scope)).toEqual({ kind: 'value', value: '${secret:staging/token}', source: 'environment', secret: true });
    expect(resolve('secret:shared', scope)).toEqual({ kind: 'secret', name: 'shared' });
    expect(resolve('secret:nowhere', scope)).toEqual({ kind: 'missing', why: 'no secret named nowhere is stored' });
  });

  it('says why a name is missing, with and without an active environment', () => {
    expect(resolve('nope', scope)).toEqual({ kind: 'missing', why: "not defined in environment Staging, the project's properties or the globals" });
    const none = editorScope(workspaceWith({ globals: [row('agent', 'parley')] }), []);
    expect(resolve('nope', none)).toEqual({ kind: 'missing', why: "not defined in the project's properties or the globals (no environment is active)" });
    expect(none.environment).toBeNull();
  });

  it('follows an environment switch: the scope is made from the workspace it is given', () => {
    const dev = editorScope({ ...staging, activeEnvironment: 'e_dev' }, properties);
    expect(resolve('host', dev)).toEqual({ kind: 'value', value: 'dev.example.com', source: 'environment', secret: false });
    expect(resolve('token', dev).kind).toBe('missing');
  });

  it('reads a value captured this session first, as the send does, and takes it as it is', () => {
    const captured = editorScope(staging, properties, [
      { name: 'host', value: 'captured.example.com' },
      { name: 'token', value: '••••••' },
      { name: 'echo', value: '${missing} ${secret:gone}' },
    ]);
    expect(resolve('host', captured)).toEqual({ kind: 'value', value: 'captured.example.com', source: 'captured', secret: false });
    expect(describeSource(resolve('host', captured) as Extract<ReturnType<typeof resolve>, { kind: 'value' }>, captured)).toBe('a capture this session');
    expect(resolve('token', captured)).toMatchObject({ value: '••••••', source: 'captured' });
    // What a response sent is text: its `${...}` names nothing the send would look for.
    expect(unresolvedIn(['${echo}'], captured)).toEqual([]);
  });

  it('is empty before the workspace has loaded', () => {
    const scope = editorScope(null, []);
    expect(scope.values.size).toBe(0);
    expect(resolve('secret:shared', scope).kind).toBe('missing');
  });
});

describe('unresolvedIn', () => {
  const scope = editorScope(staging, properties);

  it('names each unresolved name once, in order of first use', () => {
    expect(unresolvedIn(['${b}/${host}/${a}', 'x ${b} ${secret:nope} ${a}'], scope)).toEqual(['b', 'a', 'secret:nope']);
  });

  it('follows a value into its own expansions, as the send does', () => {
    const scope = editorScope(staging, [row('base', 'https://${apiHost}/v1'), row('auth', '${secret:gone}')]);
    expect(unresolvedIn(['${base}/pets', '${auth}'], scope)).toEqual(['apiHost', 'secret:gone']);
    expect(unresolvedIn(['${token}'], scope)).toEqual([]);
  });

  it('stops following at the depth the send stops at, so a value naming itself ends', () => {
    const loop: EditorScope = editorScope(workspaceWith({ globals: [row('a', '${b}'), row('b', '${a}')] }), []);
    expect(unresolvedIn(['${a}'], loop)).toEqual([]);
    const deep = editorScope(workspaceWith({ globals: [row('l0', '${l1}'), row('l1', '${l2}'), row('l2', '${l3}'), row('l3', '${l4}'), row('l4', '${l5}'), row('l5', '${l6}'), row('l6', '${gone}')] }), []);
    // ${l0} → l1 → ... → l5 (depth 5): l5's own `${l6}` is left as written, not looked into.
    expect(unresolvedIn(['${l0}'], deep)).toEqual([]);
    expect(unresolvedIn(['${l2}'], deep)).toEqual(['gone']);
  });

  it('finds nothing in text without expansions, or with a `$` or braces that make none', () => {
    expect(unresolvedIn(['/pets/{petId}', '$5 {x}', '${}', ''], scope)).toEqual([]);
  });
});
