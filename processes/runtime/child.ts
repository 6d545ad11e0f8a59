/**
 * The child side of the supervisor's bus: connects fd 3 (the duplex pipe the supervisor
 * opened), answers heartbeats and shutdown, and exits when the supervisor goes away so no
 * child is ever orphaned.
 */
import { Socket } from 'node:net';
import { Peer, type Handlers } from '../../protocol/peer.js';
import { streamTransport } from '../../protocol/transport-stream.js';
import { BUS_MAX_FRAME_ENV, BUS_MAX_MESSAGE_ENV, DEFAULT_MAX_FRAME, LARGE_MESSAGE_LIMIT } from '../../protocol/framing.js';
import { validateCompiled } from '../../protocol/validate-node.js';
import { installCrashPolicy, messageScope } from './crash-policy.js';

export const BUS_FD = 3;
/**
 * The link's largest message as the supervisor set it on a link that carries definitions and
 * mocks (ChildSpec.maxMessage): a whole number within one frame and LARGE_MESSAGE_LIMIT, else one frame.
 */
export function busMaxMessage(value = process.env[BUS_MAX_MESSAGE_ENV]): number {
  return bounded(value, DEFAULT_MAX_FRAME, LARGE_MESSAGE_LIMIT, DEFAULT_MAX_FRAME);
}

/** The link's frame as the supervisor set it (ChildSpec.maxFrame, a test's small frame): 4 KB to DEFAULT_MAX_FRAME. */
export function busMaxFrame(value = process.env[BUS_MAX_FRAME_ENV]): number {
  return bounded(value, 4096, DEFAULT_MAX_FRAME, DEFAULT_MAX_FRAME);
}

function bounded(value: string | undefined, min: number, max: number, fallback: number): number {
  const n = value !== undefined && /^\d{1,12}$/.test(value) ? Number(value) : fallback;
  return Math.min(Math.max(n, min), max);
}

export interface ChildOptions {
  role: string;
  handlers: Handlers;
  /** Runs before exit on shutdown or when the supervisor disappears. */
  onShutdown?: () => Promise<void> | void;
}

export function connectToSupervisor(options: ChildOptions): Peer {
  // stderr reaches the supervisor's log, prefixed with this process's name.
  const log = (line: string) => process.stderr.write(`${line}\n`);
  installCrashPolicy({ role: options.role, log });
  const socket = new Socket({ fd: BUS_FD, readable: true, writable: true });
  const maxFrame = busMaxFrame();
  const peer = new Peer(streamTransport(socket, maxFrame), {
    role: options.role,
    pid: process.pid,
    maxFrame,
    maxMessage: busMaxMessage(),
    validate: validateCompiled,
    scope: messageScope,
    onProtocolError: (err) => log(`[${options.role}] bus: ${err.code}: ${err.message}`),
    onHandlerError: (type, err) => log(`[${options.role}] ${type} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    handlers: {
      'sys.ping': ({ t }) => ({ t, pid: process.pid }),
      'sys.shutdown': async () => {
        setImmediate(() => void exit(0));
        return {};
      },
      ...options.handlers,
    },
  });

  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    try {
      await options.onShutdown?.();
    } finally {
      process.exit(code);
    }
  };
  // The supervisor closing our pipe (or dying) is our signal to go.
  peer.onClose(() => void exit(0));
  process.on('SIGTERM', () => void exit(0));
  return peer;
}
