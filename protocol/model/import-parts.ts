/**
 * An import's answer in parts. A result of thousands of requests, examples or History entries is
 * megabytes; as one message, the supervisor decoded and checked it in one piece on its loop (388 ms
 * for a 5,000-request Postman collection, bench/README.md), so every UI call waited behind it.
 * The importer sends the long lists ahead of its answer, a few hundred items per part, each part
 * decoded and checked on its own; the answer then carries the rest, and the supervisor puts the
 * parts back in order. Parts are checked against what they join: one that names an API the
 * answer lacks is refused, never guessed at.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { ParleyError } from '../errors.js';
import { HistoryEntry } from './history.js';
import { ImportedExample, PlacedRequest, type ImportResult } from './import.js';

export const ImportResultPart = T.Union([
  /** Requests of `result.apis[api]`, in order. */
  T.Object({ part: T.Literal('requests'), api: T.Integer({ minimum: 0 }), items: T.Array(PlacedRequest) }),
  T.Object({ part: T.Literal('webhooks'), items: T.Array(PlacedRequest) }),
  T.Object({ part: T.Literal('examples'), items: T.Array(ImportedExample) }),
  T.Object({ part: T.Literal('history'), items: T.Array(HistoryEntry) }),
]);
export type ImportResultPart = Static<typeof ImportResultPart>;

/** Items per part: requests are a few hundred bytes to a few KB; examples hold bodies up to 256 KB. */
const PART_ITEMS = { requests: 250, webhooks: 250, examples: 8, history: 50 } as const;

/**
 * Sends the long lists of `result` through `send`, part by part, and returns the result without
 * them (the answer to send last). `result` itself is not changed.
 */
export function sendInParts(result: ImportResult, send: (part: ImportResultPart) => void): ImportResult {
  result.apis.forEach((api, index) => slices(api.requests, PART_ITEMS.requests, (items) => send({ part: 'requests', api: index, items })));
  if (result.webhooks) slices(result.webhooks.requests, PART_ITEMS.webhooks, (items) => send({ part: 'webhooks', items }));
  if (result.examples) slices(result.examples, PART_ITEMS.examples, (items) => send({ part: 'examples', items }));
  if (result.history) slices(result.history, PART_ITEMS.history, (items) => send({ part: 'history', items }));
  const rest: ImportResult = { ...result, apis: result.apis.map((api) => ({ ...api, requests: [] })) };
  if (result.webhooks) rest.webhooks = { ...result.webhooks, requests: [] };
  if (result.examples) rest.examples = [];
  if (result.history) rest.history = [];
  return rest;
}

/**
 * Where a converter puts the requests of one API as it makes them: kept for its result, or, when
 * the job was given a `send` (ImportContext.sendPart), sent on in parts of PART_ITEMS.requests
 * and let go of, so an import of Graph's 11,422 operations never holds them all. Either way the
 * supervisor ends up with the same requests in the same order (ResultParts.join).
 */
export class RequestOutlet {
  /** What the result carries: every request, or none when they went in parts. */
  readonly kept: PlacedRequest[] = [];
  count = 0;
  private pending: PlacedRequest[] = [];

  constructor(
    private readonly api: number,
    private readonly send?: (part: ImportResultPart) => void,
  ) {}

  add(item: PlacedRequest): void {
    this.count++;
    if (!this.send) {
      this.kept.push(item);
      return;
    }
    this.pending.push(item);
    if (this.pending.length >= PART_ITEMS.requests) this.flush();
  }

  /** Sends what is left; call once, after the last add. */
  flush(): void {
    if (!this.send || this.pending.length === 0) return;
    this.send({ part: 'requests', api: this.api, items: this.pending });
    this.pending = [];
  }
}

/** The parts as they arrive, put back into the answer once it comes. */
export class ResultParts {
  private readonly requests: PlacedRequest[][] = [];
  private readonly webhooks: PlacedRequest[] = [];
  private readonly examples: ImportedExample[] = [];
  private readonly history: HistoryEntry[] = [];

  add(part: ImportResultPart): void {
    switch (part.part) {
      case 'requests':
        append((this.requests[part.api] ??= []), part.items);
        return;
      case 'webhooks':
        append(this.webhooks, part.items);
        return;
      case 'examples':
        append(this.examples, part.items);
        return;
      case 'history':
        append(this.history, part.items);
        return;
    }
  }

  /** `rest` (the answer) with every part back in its place; a part with no place is refused. */
  join(rest: ImportResult): ImportResult {
    if (this.requests.length > rest.apis.length) {
      throw new ParleyError('invalid-payload', `The importer sent requests for API ${this.requests.length} of an answer that has ${rest.apis.length}.`);
    }
    if (this.webhooks.length > 0 && !rest.webhooks) throw new ParleyError('invalid-payload', 'The importer sent Webhooks requests, but its answer has no Webhooks folder.');
    const result: ImportResult = { ...rest, apis: rest.apis.map((api, index) => ({ ...api, requests: [...api.requests, ...(this.requests[index] ?? [])] })) };
    if (rest.webhooks) result.webhooks = { ...rest.webhooks, requests: [...rest.webhooks.requests, ...this.webhooks] };
    if (this.examples.length > 0 || rest.examples) result.examples = [...(rest.examples ?? []), ...this.examples];
    if (this.history.length > 0 || rest.history) result.history = [...(rest.history ?? []), ...this.history];
    return result;
  }
}

/** push(...items) without spreading a list of any length onto the stack. */
function append<T>(into: T[], items: readonly T[]): void {
  for (const item of items) into.push(item);
}

function slices<T>(items: readonly T[], size: number, send: (slice: T[]) => void): void {
  for (let at = 0; at < items.length; at += size) send(items.slice(at, at + size));
}
