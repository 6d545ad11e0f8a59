/**
 * Which local files a document may pull in. A definition is often split across sibling and
 * parent folders (`../common/Error.yaml`), so references may leave the entry's folder; but the
 * files read are cached into the project, which is shared, so a reference must not be able to
 * reach a key file or a dotfile: it must name a regular JSON or YAML file, and no folder or file
 * below the point where its path leaves the entry's folder may be hidden (`.ssh`, `.aws`, ...).
 */
import { dirname, isAbsolute, relative, sep } from 'node:path';
import { ParleyError } from '../../../../protocol/errors.js';

const DOCUMENT_NAME = /\.(json|ya?ml)$/i;
/** What a WSDL's wsdl:import, xsd:import and xsd:include may name. */
const XML_DOCUMENT_NAME = /\.(wsdl|xsd|xml)$/i;

/** `target` and `entryDir` are real paths (symlinks resolved); `xml` for a WSDL's imports and includes. */
export function checkReferencedFile(target: string, entryDir: string, shown: string, kind: 'json-yaml' | 'xml' = 'json-yaml'): void {
  if (kind === 'xml' ? !XML_DOCUMENT_NAME.test(target) : !DOCUMENT_NAME.test(target)) {
    throw refused(shown, kind === 'xml' ? 'only .wsdl, .xsd and .xml files may be imported or included' : 'only .json, .yaml and .yml files may be referenced');
  }
  for (const segment of segmentsChosenBy(target, entryDir)) {
    if (segment.startsWith('.')) throw refused(shown, 'hidden files and folders are never read');
  }
}

/** A Swagger 1.x API declaration is read from the resource listing's own folder or below it. */
export function checkDeclarationFile(target: string, entryDir: string, shown: string): void {
  const rel = relative(entryDir, target);
  if (rel === '' || isOutside(rel)) {
    throw refused(shown, "an API declaration must sit in the resource listing's folder or below it");
  }
  if (rel.split(sep).some((segment) => segment.startsWith('.'))) throw refused(shown, 'hidden files and folders are never read');
}

/** The path segments below the longest folder `target` shares with `entryDir`. */
function segmentsChosenBy(target: string, entryDir: string): string[] {
  let base = entryDir;
  while (isOutside(relative(base, target))) {
    const parent = dirname(base);
    if (parent === base) break;
    base = parent;
  }
  return relative(base, target).split(sep).filter((s) => s !== '');
}

function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

function refused(shown: string, why: string): ParleyError {
  return new ParleyError('import-ref-refused', `${shown} was not read: ${why}.`, { file: shown });
}
