/**
 * A cached definition file's text as a value: JSON by JSON.parse; YAML of a megabyte or more by
 * the value-only fast path when it can (as the importer reads it: about 10x quicker than `yaml`
 * and a fraction of the memory), else by `yaml` (aliases bounded).
 */
import { parse as parseYaml } from 'yaml';
import { ParleyError } from '../../../protocol/errors.js';
import { FAST_VALUE_FROM_CHARS, fastLoadValue } from '../../../protocol/project/yaml-file.js';

export function parseDefinitionText(text: string, name: string): unknown {
  try {
    if (name.endsWith('.json')) return JSON.parse(text);
    const fast = text.length >= FAST_VALUE_FROM_CHARS ? fastLoadValue(text) : undefined;
    return fast !== undefined ? fast : parseYaml(text, { maxAliasCount: 1000 });
  } catch (err) {
    throw new ParleyError('no-definition', `The cached definition file ${name} does not parse: ${(err as Error).message.split('\n')[0]}`);
  }
}
