/**
 * `parley check`: contract checks of recorded traffic for CI, through the same checker process
 * the app uses. One response, a JSON Lines batch, or every JSON exchange of a HAR capture.
 * Exit 0 when everything passed, 1 when a check found problems or an unexpected status, 2 when
 * anything was not checked, the input was bad or the definition did not load.
 */
import { once } from 'node:events';
import { access } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { isWireError } from '../../protocol/errors.js';
import type { OperationLink } from '../../protocol/model/request.js';
import type { Verdict } from '../../protocol/model/verdict.js';
import { screenBody } from '../../processes/checker/engine/check.js';
import { isJsonMediaType } from '../../processes/checker/engine/select-response.js';
import { answerOf, badLineAnswer, parseBatchLine, type Answer } from '../check/batch-line.js';
import { CheckerSession, MAX_IN_FLIGHT, type Exchange } from '../check/checker-session.js';
import { readHarEntries, type HarEntry } from '../check/har-entries.js';
import { HarSummary } from '../check/har-summary.js';
import { runInOrder } from '../check/in-order.js';
import { readCommandLineDefinition, type CommandLineDefinition } from '../definition-source.js';
import { declaresOperation, operationLabel, parseOperation } from '../check/operation-arg.js';
import { EXIT_NOT_CHECKED, Outcome } from '../check/outcome.js';
import { readBody } from '../check/read-body.js';
import { readLines } from '../check/read-lines.js';
import { renderVerdict } from '../check/render.js';

export const CHECK_HELP = `parley check: contract-check recorded responses against an OpenAPI definition

Usage:
  parley check --definition <file or URL> --method GET --path /pets/1 --status 200
               [--content-type <type>] [--body <file> | --body -] [--operation "GET /pets/{petId}"] [--json]
      Check one response. --path may be a path or a full URL (any host); --body is the
      response body (a file that is not JSON is sent as text; - reads standard input);
      --content-type defaults to application/json.

  parley check --definition <file or URL> --batch <file.jsonl | ->
      Check one response per line, {"method","path","status","contentType","body"} (or
      "bodyText" for a body that is not JSON; optional "operation"), and answer one JSON line
      each, in the same order: {"verdict","problems":[{"pointer","message"}],"partial"}.

  parley check --definition <file or URL> --har <file.har> [--json]
      Check every JSON exchange of a HAR capture and print a summary per operation.

Options:
  --json       machine-readable output (one JSON object; batch output is always JSON Lines)
  --verbose    show what the checker process writes
  --help       this text

Exit codes: 0 everything passed; 1 a check found problems or an unexpected status;
            2 something was not checked, the input was bad or the definition did not load.
`;

/** A batch line longer than this is answered as unreadable rather than held in memory. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface CheckIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

const processIo = (): CheckIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

interface Options {
  definition?: string;
  method?: string;
  path?: string;
  status?: string;
  'content-type'?: string;
  body?: string;
  operation?: string;
  batch?: string;
  har?: string;
  json: boolean;
  verbose: boolean;
  help: boolean;
}

export async function runCheck(args: string[], io: CheckIo = processIo()): Promise<number> {
  let options: Options;
  try {
    options = parseArgs({
      args,
      allowPositionals: false,
      options: {
        definition: { type: 'string' },
        method: { type: 'string' },
        path: { type: 'string' },
        status: { type: 'string' },
        'content-type': { type: 'string' },
        body: { type: 'string' },
        operation: { type: 'string' },
        batch: { type: 'string' },
        har: { type: 'string' },
        json: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values as Options;
  } catch (err) {
    return usageError(io, (err as Error).message);
  }
  if (options.help) {
    io.stdout.write(CHECK_HELP);
    return 0;
  }
  const usage = usageProblem(options);
  if (usage) return usageError(io, usage);

  // Ctrl+C or SIGTERM: stop reading, cancel what is in flight, stop the checker, then exit.
  // A second signal exits at once (the checker child exits by itself when its pipe closes).
  const controller = new AbortController();
  let interruptedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interruptedBy) process.exit(signal === 'SIGINT' ? 130 : 143);
    interruptedBy = signal;
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const out = writerFor(io.stdout, () => controller.abort());
  let session: CheckerSession | undefined;
  try {
    const definition = await readCommandLineDefinition(options.definition!, controller.signal);
    for (const warning of definition.warnings) io.stderr.write(`parley check: warning: ${warning}\n`);
    const plan = await planOf(options, definition, io);
    if (typeof plan === 'string') {
      io.stderr.write(`parley check: ${plan}\n`);
      return EXIT_NOT_CHECKED;
    }
    const log = options.verbose ? (line: string) => void io.stderr.write(`${line}\n`) : undefined;
    session = CheckerSession.create(definition, log ? { log } : {});
    const code = await plan(session, out, controller.signal);
    return interruptedBy ? exitForSignal(interruptedBy) : code;
  } catch (err) {
    if (interruptedBy) return exitForSignal(interruptedBy);
    io.stderr.write(`parley check: ${isWireError(err) ? err.message : (err as Error).message}\n`);
    return EXIT_NOT_CHECKED;
  } finally {
    await session?.stop();
    out.detach();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

type Plan = (session: CheckerSession, out: Writer, signal: AbortSignal) => Promise<number>;

/** What the options ask for, checked before any process starts; a string says what is wrong. */
async function planOf(options: Options, definition: CommandLineDefinition, io: CheckIo): Promise<Plan | string> {
  if (options.batch !== undefined) {
    const file = options.batch;
    if (file !== '-' && !(await readable(file))) return `--batch ${file} was not found or cannot be read.`;
    return (session, out, signal) => runBatch(file === '-' ? io.stdin : createReadStream(file, { signal }), session, out, io, signal);
  }
  if (options.har !== undefined) {
    const file = options.har;
    if (!(await readable(file))) return `--har ${file} was not found or cannot be read.`;
    return (session, out, signal) => runHar(file, definition, session, out, options.json, signal);
  }
  const status = Number(options.status);
  let operation: OperationLink | undefined;
  if (options.operation !== undefined) {
    try {
      operation = parseOperation(options.operation);
    } catch (err) {
      return `--operation: ${(err as Error).message}.`;
    }
    if (!declaresOperation(definition.documents[0]?.document, operation)) return `the definition ${definition.name} has no operation ${operationLabel(operation)}.`;
  }
  if (options.body !== undefined && options.body !== '-' && !(await readable(options.body))) return `--body ${options.body} was not found or cannot be read.`;
  return async (session, out, signal) => {
    const body = options.body === undefined ? { body: new Uint8Array(0) } : await readBody(options.body, io.stdin, signal);
    const exchange: Exchange = {
      method: options.method!.toUpperCase(),
      url: options.path!,
      ...(operation ? { operation } : {}),
      status,
      contentType: options['content-type'] ?? 'application/json',
      ...body,
    };
    const verdict = await session.check(exchange, signal);
    await out.write(options.json ? `${JSON.stringify(answerOf(verdict))}\n` : renderVerdict(verdict, exchange));
    const outcome = new Outcome();
    outcome.add(verdict.kind);
    return outcome.exitCode;
  };
}

async function runBatch(input: Readable, session: CheckerSession, out: Writer, io: CheckIo, signal: AbortSignal): Promise<number> {
  const outcome = new Outcome();
  // Standard input is not closed by the signal by itself.
  const stopInput = () => input.destroy();
  signal.addEventListener('abort', stopInput, { once: true });
  async function* lines() {
    for await (const line of readLines(input, MAX_LINE_BYTES)) {
      if (line.text === undefined || line.text.trim() !== '') yield line;
    }
  }
  try {
    await runInOrder(
      lines(),
      MAX_IN_FLIGHT,
      async (line): Promise<{ answer: Answer; invalid: boolean }> => {
        if (line.text === undefined) return { answer: badLineAnswer(`line ${line.number}: longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB`), invalid: true };
        let exchange: Exchange;
        try {
          exchange = parseBatchLine(line.text, line.number);
        } catch (err) {
          return { answer: badLineAnswer((err as Error).message), invalid: true };
        }
        return { answer: answerOf(await session.check(exchange, signal)), invalid: false };
      },
      async ({ answer, invalid }) => {
        if (invalid) outcome.invalid++;
        else outcome.add(answer.verdict);
        await out.write(`${JSON.stringify(answer)}\n`);
      },
    );
  } catch (err) {
    if (!signal.aborted) throw err;
  } finally {
    signal.removeEventListener('abort', stopInput);
  }
  io.stderr.write(`parley check: ${outcome.describe('check')}\n`);
  return outcome.exitCode;
}

async function runHar(file: string, definition: CommandLineDefinition, session: CheckerSession, out: Writer, json: boolean, signal: AbortSignal): Promise<number> {
  const summary = new HarSummary(basename(file), definition.title ? `${definition.title} (${definition.name})` : definition.name);
  try {
    await runInOrder(
      readHarEntries(file, signal),
      MAX_IN_FLIGHT,
      (entry) => harVerdict(entry, session, signal),
      (verdict, entry) => {
        summary.entries++;
        if ('error' in entry) summary.addInvalid(entry.index, entry.error);
        else if ('noResponse' in entry) summary.noResponse++;
        else if (verdict === undefined) summary.notJson++;
        else summary.add(entry.index, entry.exchange, verdict);
      },
    );
  } catch (err) {
    if (signal.aborted) return EXIT_NOT_CHECKED;
    summary.error = isWireError(err) ? err.message : (err as Error).message;
  }
  await out.write(json ? `${JSON.stringify(summary.toJson(), null, 2)}\n` : summary.toText());
  return summary.exitCode;
}

/** The verdict of one HAR entry, or undefined when its response is not JSON. */
async function harVerdict(entry: HarEntry, session: CheckerSession, signal: AbortSignal): Promise<Verdict | undefined> {
  if ('error' in entry || 'noResponse' in entry) return undefined;
  const { exchange } = entry;
  if ('bodyMissing' in entry) {
    if (exchange.contentType === undefined || !isJsonMediaType(exchange.contentType)) return undefined;
    // Still asked, for the operation, the status and the schema: only the body's own check cannot happen.
    const verdict = await session.check(exchange, signal);
    if (verdict.kind !== 'not-checked' || verdict.reason?.code !== 'checker-failure') return verdict;
    return { ...verdict, reason: { code: 'no-body', message: 'the capture did not record this response body' } };
  }
  if (screenBody(exchange.method, exchange.contentType, exchange.body, exchange.size)) return undefined;
  return session.check(exchange, signal);
}

/** What is missing or contradictory in the options, before anything is read. */
function usageProblem(options: Options): string | undefined {
  if (!options.definition) return 'give the definition with --definition <file or URL>.';
  const modes = [options.batch !== undefined, options.har !== undefined, options.method !== undefined || options.path !== undefined || options.status !== undefined].filter(Boolean).length;
  if (modes > 1) return 'choose one of a single response (--method, --path, --status), --batch or --har.';
  if (options.batch !== undefined || options.har !== undefined) {
    const single = (['content-type', 'body', 'operation'] as const).find((name) => options[name] !== undefined);
    return single ? `--${single} is for a single response; in a batch each line carries its own.` : undefined;
  }
  if (options.method === undefined || options.path === undefined || options.status === undefined) return 'a single check needs --method, --path and --status (or use --batch or --har).';
  if (!/^[A-Za-z][A-Za-z-]*$/.test(options.method)) return `--method must be an HTTP method such as GET.`;
  if (options.path.trim() === '') return '--path must be a path or a URL.';
  const status = Number(options.status);
  if (!Number.isInteger(status) || status < 100 || status > 999) return `--status must be an HTTP status from 100 to 999.`;
  return undefined;
}

function usageError(io: CheckIo, message: string): number {
  io.stderr.write(`parley check: ${message}\nRun parley check --help for usage.\n`);
  return EXIT_NOT_CHECKED;
}

function exitForSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 130 : 143;
}

async function readable(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

interface Writer {
  write(text: string): Promise<void>;
  detach(): void;
}

/** Writes with backpressure; a reader that went away (EPIPE, `| head`) ends the run quietly. */
function writerFor(stream: Writable, onBroken: () => void): Writer {
  let broken = false;
  const onError = () => {
    broken = true;
    onBroken();
  };
  stream.on('error', onError);
  return {
    async write(text) {
      if (broken) return;
      if (!stream.write(text)) await once(stream, 'drain').catch(() => undefined);
    },
    detach: () => stream.off('error', onError),
  };
}
