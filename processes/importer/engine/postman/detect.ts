/**
 * Recognising Postman exports (SPEC "Auto-detect rules": environment and globals exports by
 * content or file name). File names: `*.postman_collection.json`, `*.postman_environment.json`,
 * `*.postman_globals.json`. Content: a collection's top-level `info` whose `schema` names the
 * v2.0 or v2.1 collection schema (or the same under a top-level `collection`, as the API
 * exports it); an export's top-level `_postman_variable_scope`. A data dump (top-level
 * `collections` and `environments`) and a zip archive are recognised only to be refused with a
 * message that says what they are.
 */
import { baseName, type DetectRule } from '../detect-rules.js';
import { jsonObjectKeys, parseJsonValue, topLevelJsonKeys } from '../load/json-top-level.js';
import { looksLikeJson } from '../load/decode-text.js';

export const COLLECTION = 'postman-collection';
export const ENVIRONMENT = 'postman-environment';
export const GLOBALS = 'postman-globals';

const SCHEMA = /^https?:\/\/schema\.(?:getpostman|postman)\.com\/json\/(?:draft-\d+\/)?collection\/v(2\.[01])\.\d+\//;
/** How long an `info` object detection parses: it holds a name, an id, a schema and a description. */
const INFO_LIMIT = 1024 * 1024;

/** The collection schema version (2.0 or 2.1) an `info.schema` value names, or null. */
export function schemaVersion(schema: unknown): '2.0' | '2.1' | null {
  const match = typeof schema === 'string' ? SCHEMA.exec(schema) : null;
  return match ? (match[1] as '2.0' | '2.1') : null;
}

/**
 * The collection schema version (2.0 or 2.1) a collection text declares, or null. Reads the
 * parsed `info` (top level, or under a top-level `collection` as the API exports it), so the
 * schema URL counts however the JSON writes it (PHP's exports escape every slash).
 */
export function collectionVersion(text: string): '2.0' | '2.1' | null {
  if (!looksLikeJson(text)) return null;
  const keys = topLevelJsonKeys(text, ['info', 'collection']);
  let info = keys.get('info');
  const wrapper = keys.get('collection');
  if (info?.kind !== 'object' && wrapper?.kind === 'object') info = jsonObjectKeys(text, wrapper.at, ['info']).get('info');
  if (info?.kind !== 'object') return null;
  const parsed = parseJsonValue(text, info, INFO_LIMIT);
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? schemaVersion((parsed as { schema?: unknown }).schema) : null;
}

/** What kind of Postman export a text is by its content. */
export function exportKind(text: string): 'environment' | 'globals' | 'dump' | 'zip' | null {
  if (text.startsWith('PK\u0003\u0004')) return 'zip';
  if (!looksLikeJson(text)) return null;
  const keys = topLevelJsonKeys(text, ['_postman_variable_scope', 'collections', 'environments', 'values', 'name', 'info']);
  const scope = keys.get('_postman_variable_scope');
  if (scope?.kind === 'string' && scope.scalar === 'environment') return 'environment';
  if (scope?.kind === 'string' && scope.scalar === 'globals') return 'globals';
  if (keys.get('collections')?.kind === 'array' && keys.get('environments')?.kind === 'array') return 'dump';
  // An export without its scope (older or hand-made): a name and a list of values, and no collection info.
  if (keys.get('values')?.kind === 'array' && keys.get('name')?.kind === 'string' && !keys.has('info')) return 'environment';
  return null;
}

const EXPORT_LABELS = { environment: 'Postman environment', globals: 'Postman globals', dump: 'Postman data dump (not importable)', zip: 'Zip archive (not importable)' } as const;

export const POSTMAN_COLLECTION_RULES: DetectRule[] = [
  { format: COLLECTION, by: 'file-name', match: (input) => (/\.postman_collection\.json$/i.test(baseName(input.name ?? '')) ? { label: 'Postman collection' } : null) },
  {
    format: COLLECTION,
    by: 'content',
    match: (input) => {
      const version = collectionVersion(input.text);
      return version ? { label: `Postman collection v${version}`, version: `postman-collection-${version}` } : null;
    },
  },
];

export const POSTMAN_ENVIRONMENT_RULES: DetectRule[] = [
  { format: ENVIRONMENT, by: 'file-name', match: (input) => (/\.postman_environment\.json$/i.test(baseName(input.name ?? '')) ? { label: 'Postman environment' } : null) },
  {
    format: ENVIRONMENT,
    by: 'content',
    match: (input) => {
      const kind = exportKind(input.text);
      // A dump or a zip is offered to the environment importer, whose convert refuses it by name.
      return kind === 'environment' || kind === 'dump' || kind === 'zip' ? { label: EXPORT_LABELS[kind] } : null;
    },
  },
];

export const POSTMAN_GLOBALS_RULES: DetectRule[] = [
  { format: GLOBALS, by: 'file-name', match: (input) => (/\.postman_globals\.json$/i.test(baseName(input.name ?? '')) ? { label: 'Postman globals' } : null) },
  { format: GLOBALS, by: 'content', match: (input) => (exportKind(input.text) === 'globals' ? { label: EXPORT_LABELS.globals } : null) },
];
