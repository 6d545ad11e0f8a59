/**
 * What a Parley process does with an error nothing caught. Node's default ends the process, and
 * with the supervisor every child and every open project's watcher go too. A failure left behind
 * by the handling of one bus message (an uncaught exception in a timer it set, a rejection
 * nobody awaited) is logged with that message's type and the process goes on: the message
 * failed, the process did not. Anything else is a real programming error with no message to
 * blame: it is logged and the process exits with code 1, as Node would.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface MessageContext {
  type: string;
}

const current = new AsyncLocalStorage<MessageContext>();

/** Runs the handling of one bus message; what it starts (timers, promises) carries its type. Peer's `scope`. */
export function messageScope<T>(type: string, work: () => T): T {
  return current.run({ type }, work);
}

/** The type of the bus message whose handling is running now, if any. */
export function currentMessageType(): string | undefined {
  return current.getStore()?.type;
}

export interface CrashPolicyOptions {
  /** Names the process in log lines: "supervisor", "sender". */
  role: string;
  log: (line: string) => void;
  /** How to end the process; tests pass their own. */
  exit?: (code: number) => void;
}

/**
 * The decision for one uncaught error: survive (logged with its message type) or exit (logged).
 * Returned for tests; `installCrashPolicy` wires it to the process.
 */
export function crashHandler(options: CrashPolicyOptions): (err: unknown, origin: 'uncaughtException' | 'unhandledRejection') => 'kept' | 'exited' {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  return (err, origin) => {
    const what = origin === 'unhandledRejection' ? 'unhandled rejection' : 'uncaught exception';
    const type = currentMessageType();
    if (type !== undefined) {
      options.log(`[${options.role}] ${what} while handling ${type}; the process goes on: ${describe(err)}`);
      return 'kept';
    }
    options.log(`[${options.role}] ${what}, not caused by a bus message; exiting: ${describe(err)}`);
    exit(1);
    return 'exited';
  };
}

let installed = false;

/** Installs the policy for this process (once; a second call is ignored). */
export function installCrashPolicy(options: CrashPolicyOptions): void {
  if (installed) return;
  installed = true;
  const handle = crashHandler(options);
  process.on('uncaughtException', (err, origin) => void handle(err, origin === 'unhandledRejection' ? 'unhandledRejection' : 'uncaughtException'));
  process.on('unhandledRejection', (reason) => void handle(reason, 'unhandledRejection'));
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
