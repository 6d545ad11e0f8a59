/** A cached definition file's text as a value: JSON by JSON.parse, YAML by `yaml` (aliases bounded). */
import { parse as parseYaml } from 'yaml';
import { ParleyError } from '../../../protocol/errors.js';

export function parseDefinitionText(text: string, name: string): unknown {
  try {
    return name.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000 });
  } catch (err) {
    throw new ParleyError('no-definition', `The cached definition file ${name} does not parse: ${(err as Error).message.split('\n')[0]}`);
  }
}
