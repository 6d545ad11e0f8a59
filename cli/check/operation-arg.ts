/** `--operation "GET /pets/{petId}"`: the operation a request is linked to, method and path as the document writes them. */
import { ParleyError } from '../../protocol/errors.js';
import type { OperationLink } from '../../protocol/model/request.js';
import { ownValue } from '../../protocol/own.js';

export function parseOperation(text: string): OperationLink {
  const match = /^\s*([A-Za-z][A-Za-z-]*)\s+(\S+)\s*$/.exec(text);
  if (!match || !match[2]!.startsWith('/')) {
    throw new ParleyError('bad-input', `an operation is written as a method and a path template, e.g. "GET /pets/{petId}"`);
  }
  return { method: match[1]!.toLowerCase(), path: match[2]! };
}

/** "GET /pets/{petId}" for messages and summaries. */
export function operationLabel(link: OperationLink): string {
  return `${link.method.toUpperCase()} ${link.path}`;
}

/**
 * Whether the entry document declares the operation. A path item written as a `$ref` is taken
 * on trust (its methods live in another place); the checker still matches by path if it is not there.
 */
export function declaresOperation(entry: unknown, link: OperationLink): boolean {
  const paths = (entry as { paths?: unknown } | null)?.paths;
  if (typeof paths !== 'object' || paths === null) return false;
  const item = ownValue(paths, link.path);
  if (typeof item !== 'object' || item === null) return false;
  if (typeof (item as { $ref?: unknown }).$ref === 'string') return true;
  const record = item as Record<string, unknown>;
  const additional = record.additionalOperations;
  return (
    (typeof ownValue(record, link.method) === 'object' && ownValue(record, link.method) !== null) ||
    (typeof additional === 'object' && additional !== null && Object.keys(additional).some((m) => m.toLowerCase() === link.method))
  );
}
