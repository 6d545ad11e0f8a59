/**
 * A parameter or form field arrives as text; its schema speaks of numbers, booleans and null.
 * These read one text value as the schema's type says, the way OpenAPI's form and simple styles
 * (and Swagger 2.0's parameters) write it; text that does not read as the type stays text, for
 * the schema to say what was expected.
 */

/** The types a schema names (`type` as a string or a list); [] when it names none. */
export function typesOf(schema: Record<string, unknown> | undefined): string[] {
  if (!schema) return [];
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return [];
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export function scalar(text: string, types: string[]): unknown {
  if ((types.includes('integer') || types.includes('number')) && NUMBER.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === '' && !types.includes('string')) return null;
  return text;
}
