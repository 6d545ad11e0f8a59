/**
 * Reads a curl command with curlconverter, which parses bash with a real grammar (tree-sitter)
 * and knows every curl option and its arity. Loaded on first use: the parser is a native module
 * and most runs never read a curl command.
 */
import { ParleyError } from '../../../../protocol/errors.js';
import type { Request as CcRequest } from 'curlconverter/dist/src/Request.js';
import type { OperationConfig } from 'curlconverter/dist/src/curl/opts.js';
import type { Word } from 'curlconverter/dist/src/shell/Word.js';
import type * as Tokenizer from 'curlconverter/dist/src/shell/tokenizer.js';
import type * as Opts from 'curlconverter/dist/src/curl/opts.js';
import type * as Requests from 'curlconverter/dist/src/Request.js';

/** A command longer than this is refused: pasted commands are far smaller, and parsing holds the thread. */
export const MAX_COMMAND_LENGTH = 1024 * 1024;

export interface ParsedCommand {
  /** curlconverter's reading of the first request of the command. */
  request: CcRequest;
  /** The raw options of that request, in curl's own names. */
  config: OperationConfig;
  /** Every option given, in order: [curl's name, as written]. */
  flags: [string, string][];
  /** More than one request (`;`, `&&`, `--next`, several URLs): only the first is used. */
  more: boolean;
}

interface Curlconverter {
  tokenize: typeof Tokenizer.tokenize;
  parseArgs: typeof Opts.parseArgs;
  /** curl's option tables, copied without a prototype: `--constructor` is an unknown option, as in curl. */
  longOpts: Opts.LongOpts;
  shortenedLongOpts: Opts.LongOpts;
  shortOpts: Opts.ShortOpts;
  buildRequests: typeof Requests.buildRequests;
  Word: typeof Word;
}

let loading: Promise<Curlconverter> | undefined;

function load(): Promise<Curlconverter> {
  return (loading ??= (async () => {
    const parser = (await import('curlconverter/dist/src/shell/Parser.js')).default as unknown as TreeSitterParser;
    feedInSlices(parser);
    const [tokenizer, opts, requests, word] = await Promise.all([
      import('curlconverter/dist/src/shell/tokenizer.js'),
      import('curlconverter/dist/src/curl/opts.js'),
      import('curlconverter/dist/src/Request.js'),
      import('curlconverter/dist/src/shell/Word.js'),
    ]);
    return {
      tokenize: tokenizer.tokenize,
      parseArgs: opts.parseArgs,
      longOpts: withoutPrototype(opts.curlLongOpts),
      shortenedLongOpts: withoutPrototype(opts.curlLongOptsShortened),
      shortOpts: withoutPrototype(opts.curlShortOpts),
      buildRequests: requests.buildRequests,
      Word: word.Word,
    };
  })());
}

interface TreeSitterTree {
  input: unknown;
  getText: (node: { startIndex: number; endIndex: number }) => string;
}

interface TreeSitterParser {
  parse(input: string | ((offset: number) => string), oldTree?: unknown, options?: { bufferSize?: number }): TreeSitterTree | undefined;
}

/**
 * node-tree-sitter 0.21 refuses a string of 32 KiB or more with "Invalid argument" (its reading
 * buffer is 32 KiB; tree-sitter/node-tree-sitter#199, fixed in later releases than curlconverter
 * pins). Handing it the text through its callback form, a slice at a time, parses any length.
 * The tree then reads node texts back from the string itself, as it does for a string input: its
 * callback form rebuilds each node's text slice by slice, and curlconverter asks a concatenated
 * word for its text once per part, which made a 400 KB command take 43 s instead of 0.5 s.
 */
function feedInSlices(parser: TreeSitterParser): void {
  const parse = parser.parse.bind(parser);
  parser.parse = (input, oldTree, options) => {
    if (typeof input !== 'string') return parse(input, oldTree, options);
    const tree = parse((offset: number) => input.slice(offset, offset + 16 * 1024), oldTree, options);
    if (tree) {
      tree.input = input;
      tree.getText = (node) => input.substring(node.startIndex, node.endIndex);
    }
    return tree;
  };
}

export async function parseCommand(text: string): Promise<ParsedCommand> {
  if (text.length > MAX_COMMAND_LENGTH) throw new ParleyError('import-too-large', `The curl command is ${Math.round(text.length / 1024)} KB; commands over ${MAX_COMMAND_LENGTH / 1024 / 1024} MB are not imported.`);
  const trimmed = text.trim();
  if (!/^curl(\s|$)/.test(trimmed)) throw new ParleyError('import-unrecognised', 'This is not a curl command: it must start with curl.');
  const cc = await load();
  try {
    const warnings: [string, string][] = [];
    const commands = cc.tokenize(trimmed, warnings);
    if (commands.length === 0) throw new ParleyError('import-unrecognised', 'No curl command was found in the text.');
    const [argv, stdin, stdinFile] = commands[0]!;
    const [global, flags] = cc.parseArgs(argv, cc.longOpts, cc.shortenedLongOpts, cc.shortOpts, undefined, warnings);
    for (const config of global.configs) {
      if (config.header) config.header = config.header.map((h) => escapeHeaderName(h, cc.Word));
      if (config['proxy-header']) config['proxy-header'] = config['proxy-header'].map((h) => escapeHeaderName(h, cc.Word));
    }
    const requests = cc.buildRequests(global, stdin, stdinFile);
    for (const built of requests) {
      unescapeHeaderNames(built.headers, cc.Word);
      unescapeHeaderNames(built.proxyHeaders, cc.Word);
    }
    const request = requests[0];
    const config = global.configs[0];
    if (!request || !config) throw new ParleyError('import-malformed', 'The curl command names no URL.');
    return { request, config, flags, more: commands.length > 1 || requests.length > 1 || request.urls.length > 1 };
  } catch (err) {
    if (err instanceof ParleyError) throw err;
    // curlconverter's CCError: an unknown option, a missing value, no URL... Its message says which.
    const message = (err as Error).message.split('\n')[0] ?? 'it could not be read';
    throw new ParleyError('import-malformed', `The curl command could not be read: ${message}.`);
  }
}

function withoutPrototype<T extends object>(table: T): T {
  return Object.assign(Object.create(null) as T, table);
}

/**
 * curlconverter groups repeated headers in a plain object indexed by the lower-cased name, so a
 * header named `constructor` or `__proto__` finds Object.prototype's member there and the read
 * fails (`uniqueHeaders[lowerName].push is not a function`). Such a name goes through it with
 * ESCAPE before it (and a name that already starts with ESCAPE gets one more), and comes back
 * without it: no header name is a prototype member inside the library, and every name comes out
 * as written.
 */
const ESCAPE = '\u0000';

function escapeHeaderName(header: Word, W: typeof Word): Word {
  const text = header.toString();
  const end = text.includes(':') ? text.indexOf(':') : text.indexOf(';');
  const name = (end < 0 ? text : text.slice(0, end)).toLowerCase();
  if (!Object.hasOwn(Object.prototype, name) && !name.startsWith(ESCAPE)) return header;
  return new W([ESCAPE, ...header.tokens]);
}

function unescapeHeaderNames(headers: Requests.Request['headers'], W: typeof Word): void {
  for (const entry of headers.headers) {
    const [first, ...rest] = entry[0].tokens;
    if (typeof first === 'string' && first.startsWith(ESCAPE)) entry[0] = new W([first.slice(ESCAPE.length), ...rest]);
  }
}

/** A shell word as Parley text: a `$NAME` shell variable becomes the `${NAME}` expansion; other text as written. */
export function wordText(word: Word | undefined | null, notes?: Set<string>): string {
  if (!word) return '';
  let out = '';
  for (const token of word.tokens) {
    if (typeof token === 'string') out += token;
    else if (token.type === 'variable') out += `\${${token.value}}`;
    else {
      notes?.add(`The command substitution ${token.text} was kept as written: Parley does not run commands.`);
      out += token.text;
    }
  }
  return out;
}
