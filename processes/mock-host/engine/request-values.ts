/**
 * Reads one value from a request the way a match condition or a template value declares it:
 * the body through XPath 3.1 or JSONPath, a query parameter, a header or a path parameter.
 * The body is parsed at most once per request, and only when a source asks for it.
 */
import type { Document as XmlDocument } from 'slimdom';
import type { ValueSource } from '../../../protocol/model/mock.js';
import { evaluateJsonPath, evaluateXPath, isXmlNode, parseXmlBody, preloadQueryEngines } from '../../checker/engine/body-query.js';

/** Loads the engines the sources in `config` use (a mock, or any part of one) now rather than on its first request. */
export function preloadBodyQueries(config: unknown): void {
  const languages = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record['from'] === 'body' && typeof record['language'] === 'string') languages.add(record['language']);
      Object.values(record).forEach(visit);
    }
  };
  visit(config);
  preloadQueryEngines(languages);
}

export interface MockRequest {
  method: string;
  /** Path and query as the client sent them. */
  target: string;
  /** Path after the mock's Path was removed, without the query, percent-encoded as sent. */
  path: string;
  query: Record<string, string[]>;
  /** As sent, in order, names as the client spelled them. */
  headers: Array<[string, string]>;
  pathParams: Record<string, string>;
  body: Buffer;
}

const NOT_PARSED = Symbol('not parsed');
const UNREADABLE = Symbol('unreadable');

export class RequestValues {
  private json: unknown = NOT_PARSED;
  private xml: XmlDocument | typeof NOT_PARSED | typeof UNREADABLE = NOT_PARSED;
  private text: string | undefined;
  /** Why a source could not be read (a bad expression, a body that does not parse), for the log. */
  readonly notes: string[] = [];

  constructor(readonly request: MockRequest) {}

  bodyText(): string {
    return (this.text ??= this.request.body.toString('utf8'));
  }

  /** That header, case-insensitive; repeated ones joined with `, `. */
  header(name: string): string | undefined {
    const lower = name.toLowerCase();
    let found: string | undefined;
    for (const [n, v] of this.request.headers) {
      if (n.length !== lower.length || n.toLowerCase() !== lower) continue;
      found = found === undefined ? v : `${found}, ${v}`;
    }
    return found;
  }

  /** The value, or undefined when the request does not carry it. */
  read(source: ValueSource): string | undefined {
    switch (source.from) {
      case 'header':
        return this.header(source.name);
      case 'query':
        return this.request.query[source.name]?.[0];
      case 'path':
        return this.request.pathParams[source.name];
      case 'body':
        return source.language === 'jsonpath' ? this.readJsonPath(source.expression) : this.readXPath(source.expression);
    }
  }

  private parsedJson(): unknown {
    if (this.json === NOT_PARSED) {
      try {
        this.json = JSON.parse(this.bodyText());
      } catch {
        this.json = UNREADABLE;
      }
    }
    return this.json;
  }

  private parsedXml(): XmlDocument | typeof UNREADABLE {
    if (this.xml === NOT_PARSED) {
      try {
        this.xml = parseXmlBody(this.bodyText());
      } catch {
        this.xml = UNREADABLE;
      }
    }
    return this.xml;
  }

  private readJsonPath(expression: string): string | undefined {
    const json = this.parsedJson();
    if (json === UNREADABLE) return undefined;
    try {
      const found = evaluateJsonPath(expression, json);
      return found.length === 0 ? undefined : asText(found[0]);
    } catch {
      this.notes.push(`JSONPath ${expression} could not be evaluated.`);
      return undefined;
    }
  }

  /** XPath over an XML body, or over a JSON body as XPath 3.1 maps and arrays. */
  private readXPath(expression: string): string | undefined {
    const trimmed = this.bodyText().trimStart();
    let context: unknown;
    if (trimmed.startsWith('<')) {
      const doc = this.parsedXml();
      if (doc === UNREADABLE) return undefined;
      context = doc;
    } else {
      context = this.parsedJson();
      if (context === UNREADABLE) return undefined;
    }
    try {
      const found = evaluateXPath(expression, context);
      return found.length === 0 ? undefined : asText(found[0]);
    } catch {
      this.notes.push(`XPath ${expression} could not be evaluated.`);
      return undefined;
    }
  }
}

function asText(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (typeof value === 'object') {
    if (isXmlNode(value)) return String(value.textContent ?? '');
    return JSON.stringify(value);
  }
  return String(value);
}
