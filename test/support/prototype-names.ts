/**
 * Every name Object.prototype answers to (`__proto__`, `constructor`, `toString`, `valueOf`,
 * `hasOwnProperty`, ...): the names a table indexed by an outside name must not mistake for its own.
 */
export const PROTOTYPE_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype);

/** An object with `name` as an own key, even `__proto__` (an object literal would set the prototype). */
export function withKey<T>(name: string, value: T): Record<string, T> {
  return Object.fromEntries([[name, value]]) as Record<string, T>;
}
