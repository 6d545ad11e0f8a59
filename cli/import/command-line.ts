/**
 * What `parley import` and `parley update-definition` share around their own work: reading the
 * command line (their flags plus the credential flags, --json, --verbose and --help), printing
 * help, refusing bad usage before anything starts, and reporting a failure.
 */
import type { Readable, Writable } from 'node:stream';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isWireError } from '../../protocol/errors.js';
import type { FetchCredentials } from '../../protocol/model/import.js';
import { CREDENTIAL_OPTIONS, credentialsFrom, type CredentialFlags } from './credentials.js';
import type { ProgressStream } from './progress.js';

export interface CommandIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable & ProgressStream;
}

export const processIo = (): CommandIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

/** The flags every such command has besides its own. */
export interface CommonFlags extends CredentialFlags {
  json: boolean;
  verbose: boolean;
  help: boolean;
}

export interface CommandLine<O extends CommonFlags> {
  /** `import`, `update-definition`: how messages name the command. */
  name: string;
  /** The usage line printed under a usage problem. */
  usage: string;
  help: string;
  /** The command's own flags (parseArgs options). */
  options: NonNullable<ParseArgsConfig['options']>;
  /** What is missing or contradictory, before anything is read or started. */
  usageProblem(options: O, positionals: string[]): string | undefined;
}

/**
 * The flags, positionals and credentials of `args`; or, when there is nothing more to do (help
 * printed, bad usage reported), the exit code.
 */
export function readCommandLine<O extends CommonFlags>(
  command: CommandLine<O>,
  args: string[],
  io: CommandIo,
): { options: O; positionals: string[]; credentials: FetchCredentials | undefined } | { exit: number } {
  let options: O;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...command.options,
        ...CREDENTIAL_OPTIONS,
        json: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    options = parsed.values as unknown as O;
    positionals = parsed.positionals;
  } catch (err) {
    return { exit: usageError(io, command, (err as Error).message) };
  }
  if (options.help) {
    io.stdout.write(command.help);
    return { exit: 0 };
  }
  const usage = command.usageProblem(options, positionals);
  if (usage) return { exit: usageError(io, command, usage) };
  try {
    return { options, positionals, credentials: credentialsFrom(options) };
  } catch (err) {
    return { exit: usageError(io, command, (err as Error).message) };
  }
}

function usageError(io: CommandIo, command: CommandLine<never>, message: string): number {
  io.stderr.write(`parley ${command.name}: ${message}\nUsage: ${command.usage}\nRun parley ${command.name} --help for every option.\n`);
  return 2;
}

/**
 * Reports a failure with the error's own message (the importer keeps credentials out of it) and
 * `advice` after it; with --json also as JSON on stdout. Exit code 2.
 */
export function commandFailed(io: CommandIo, name: string, err: unknown, json: boolean, advice = ''): number {
  const wire = isWireError(err) ? err : { code: 'internal', message: (err as Error).message };
  const message = wire.message + advice;
  io.stderr.write(`parley ${name}: ${message}\n`);
  if (json) io.stdout.write(`${JSON.stringify({ error: { code: wire.code, message } }, null, 2)}\n`);
  return 2;
}
