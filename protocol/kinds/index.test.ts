import { describe, expect, it } from 'vitest';
import { blankRequest } from '../model/request.js';
import { REQUEST_KINDS, forFile, kindById, kindOf, kindOfFile } from './index.js';

describe('the request kinds', () => {
  it('lists HTTP first, each kind with its own id, suffix and file kind', () => {
    expect(REQUEST_KINDS[0]!.id).toBe('http');
    expect(new Set(REQUEST_KINDS.map((k) => k.id)).size).toBe(REQUEST_KINDS.length);
    expect(new Set(REQUEST_KINDS.map((k) => k.suffix)).size).toBe(REQUEST_KINDS.length);
    // No suffix ends another, so a file is read as one kind only.
    for (const a of REQUEST_KINDS) for (const b of REQUEST_KINDS) if (a !== b) expect(a.suffix.endsWith(b.suffix)).toBe(false);
  });

  it('reads a request without a kind as HTTP, and finds a file kind by its suffix', () => {
    const request = blankRequest({ id: 'r1', name: 'Get', method: 'get', url: '/x' });
    expect(kindOf(request).id).toBe('http');
    expect(kindOf(request).badge(request)).toBe('GET');
    expect(kindOfFile('apis/a/requests/Get.request.yaml')?.id).toBe('http');
    expect(kindOfFile('apis/a/requests/notes.yaml')).toBeUndefined();
    expect(forFile({ ...request, assertions: [] })).not.toHaveProperty('assertions');
  });

  it('has WebSocket as a kind of its own: its file, its badge, a blank one', () => {
    expect(kindOfFile('apis/a/requests/Chat.websocket.yaml')?.id).toBe('websocket');
    const blank = kindById('websocket').blank({ id: 'r2', name: 'Chat', url: 'wss://example.test/chat' });
    expect(blank).toMatchObject({ kind: 'websocket', version: 1, url: 'wss://example.test/chat', messages: [], subprotocols: [] });
    expect(kindOf(blank).badge(blank)).toBe('WS');
    expect(kindOf(blank).api).toBe('websocket');
  });

  it('has gRPC as a kind of its own, held by a gRPC API', () => {
    expect(kindOfFile('apis/a/requests/Greeter/SayHello.grpc.yaml')?.id).toBe('grpc');
    const blank = kindById('grpc').blank({ id: 'r3', name: 'SayHello', url: '' });
    expect(blank).toMatchObject({ kind: 'grpc', version: 1, url: '', service: '', method: '', message: '{}', metadata: [], deadlineMs: 0 });
    expect(kindOf(blank).badge(blank)).toBe('gRPC');
    expect(kindOf(blank).api).toBe('grpc');
  });

  it('refuses a kind it does not know, naming it', () => {
    expect(() => kindById('carrier-pigeon')).toThrow(/"carrier-pigeon" is not a request kind/);
  });
});
