/**
 * The declared version of an OpenAPI or Swagger document: `openapi-3.1`, `swagger-2.0`,
 * `swagger-1.2`. A version field this importer cannot read is "this format but broken".
 */
import { ParleyError } from '../../../../protocol/errors.js';
import { isObj } from './normalize/values.js';

export interface DeclaredVersion {
  /** openapi-3.1, swagger-2.0, swagger-1.2 */
  label: string;
  family: 'openapi3' | 'swagger2' | 'swagger1';
  /** major.minor */
  generation: string;
  /** Known to this importer (3.0-3.2, 2.0, 1.0-1.2); a later 3.x imports with a warning. */
  known: boolean;
}

/** Reads the version key of a root object; `file` names the document in messages. */
export function declaredVersion(root: unknown, file: string): DeclaredVersion {
  if (!isObj(root)) throw new ParleyError('import-malformed', `${file} is not an OpenAPI document: its top level is not an object.`, { file, path: '/' });
  if (root['openapi'] !== undefined) {
    const v = versionParts(root['openapi']);
    if (!v || v.major !== 3) {
      throw new ParleyError(
        'import-malformed',
        `${file} declares openapi: ${String(root['openapi'])}, which is not an OpenAPI version this importer reads (3.0, 3.1, 3.2; Swagger 2.0 documents declare swagger: "2.0").`,
        { file, path: '/openapi' },
      );
    }
    const generation = `3.${v.minor}`;
    return { label: `openapi-${generation}`, family: 'openapi3', generation, known: v.minor <= 2 };
  }
  if (root['swagger'] !== undefined) {
    const v = versionParts(root['swagger']);
    if (!v || v.major !== 2 || v.minor !== 0) {
      throw new ParleyError('import-malformed', `${file} declares swagger: ${String(root['swagger'])}; only Swagger 2.0 uses that key.`, { file, path: '/swagger' });
    }
    return { label: 'swagger-2.0', family: 'swagger2', generation: '2.0', known: true };
  }
  if (root['swaggerVersion'] !== undefined) {
    const v = versionParts(root['swaggerVersion']);
    if (!v || v.major !== 1) {
      throw new ParleyError('import-malformed', `${file} declares swaggerVersion: ${String(root['swaggerVersion'])}, which is not a Swagger 1.x version.`, { file, path: '/swaggerVersion' });
    }
    const generation = `1.${v.minor}`;
    return { label: `swagger-${generation}`, family: 'swagger1', generation, known: v.minor <= 2 };
  }
  throw new ParleyError('import-malformed', `${file} has no openapi, swagger or swaggerVersion field, so it is not an OpenAPI or Swagger document.`, { file, path: '/' });
}

function versionParts(value: unknown): { major: number; minor: number } | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const match = /^(\d+)(?:\.(\d+))?/.exec(String(value).trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0) };
}
