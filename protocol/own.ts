/**
 * Tables indexed by a name from outside (a schema's property names, a mapping's tags, a header
 * map) must find only their own entries: `constructor`, `toString` or `__proto__` are names like
 * any other. Map and null-prototype objects do this by construction; these two helpers do it for
 * the plain objects that a JSON or YAML value is.
 */

/** The own property `key` of `record`, or undefined: never a member of Object.prototype. */
export function ownValue(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/** Sets an own data property, even one named `__proto__` (an assignment would set the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
