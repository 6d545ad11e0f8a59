/**
 * Definition update rules 3 and 4 for rows (path, query and header parameters), matched by
 * name within their location:
 * - a row still exactly as the old document generated it takes the new generation;
 * - an edited row is kept (rule 4: a query row the new document newly makes required is
 *   switched on, its value kept);
 * - a row the old document did not generate is the user's: kept, never switched on;
 * - a row the new document no longer declares is removed if still as generated, kept if edited;
 * - a row the new document newly declares is added, unless the user had deleted it.
 */
export interface MergeRowsOptions<R> {
  /** Header names match case-insensitively. */
  caseInsensitive?: boolean;
  /** Rule 4, for query rows. */
  switchOnNewlyRequired?: boolean;
  same(a: R, b: R): boolean;
}

type Named = { name: string };

export function mergeRows<R extends Named>(current: readonly R[], before: readonly R[] | undefined, after: readonly R[], options: MergeRowsOptions<R>): R[] {
  const key = (name: string) => (options.caseInsensitive ? name.toLowerCase() : name);
  const find = (rows: readonly R[], name: string) => rows.find((r) => key(r.name) === key(name));
  const out: R[] = [];
  const claimed = new Set<R>();
  for (const row of current) {
    const generatedBefore = before ? find(before, row.name) : undefined;
    // Only the first row of a name is the generated one; later ones are the user's.
    const isFirstOfName = find(current, row.name) === row;
    const next = find(after, row.name);
    if (!generatedBefore || !isFirstOfName) {
      out.push(row);
      continue;
    }
    if (next) claimed.add(next);
    const untouched = options.same(row, generatedBefore);
    if (untouched) {
      if (next) out.push({ ...next });
      continue;
    }
    if (next && options.switchOnNewlyRequired && isEnabled(next) && !isEnabled(generatedBefore) && !isEnabled(row)) {
      out.push({ ...row, enabled: true });
      continue;
    }
    out.push(row);
  }
  for (const next of after) {
    if (claimed.has(next) || find(current, next.name)) continue;
    // Generated before but gone from the request: the user deleted it, and it stays deleted.
    if (before && find(before, next.name)) continue;
    out.push({ ...next });
  }
  return out;
}

function isEnabled(row: object): boolean {
  return (row as { enabled?: unknown }).enabled === true;
}

export const sameRow = (a: { name: string; value: string; enabled: boolean }, b: { name: string; value: string; enabled: boolean }) =>
  a.name === b.name && a.value === b.value && a.enabled === b.enabled;

export const samePathParam = (a: { name: string; value: string }, b: { name: string; value: string }) => a.name === b.name && a.value === b.value;
