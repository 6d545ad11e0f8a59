/**
 * Side-by-side diffs for Compare: text line by line (Myers' shortest edit script), JSON
 * structurally (key order ignored, arrays matched by equal elements), headers by name.
 * Every diff is a list of aligned rows: a left line and a right line, and what changed.
 */

export type RowKind = 'same' | 'del' | 'add' | 'change';

export interface DiffRow {
  kind: RowKind;
  /** Absent on an `add` row (nothing on the left). */
  left?: string;
  /** Absent on a `del` row. */
  right?: string;
}

/** How many rows differ. */
export function changes(rows: readonly DiffRow[]): number {
  return rows.filter((r) => r.kind !== 'same').length;
}

// --- text --------------------------------------------------------------------------------------

/** Past this many differing lines the middle of a text diff is shown as removed then added. */
const MAX_EDIT_DISTANCE = 4000;

export function diffText(a: string, b: string): DiffRow[] {
  return pairUp(diffSequences(a.split('\n'), b.split('\n'), (x, y) => x === y).map(([kind, l, r]) => ({ kind, ...(l !== undefined ? { left: l } : {}), ...(r !== undefined ? { right: r } : {}) })));
}

type Step<T> = ['same' | 'del' | 'add', T | undefined, T | undefined];

/** Myers' O((N+M)D) diff: the steps that turn `a` into `b`. */
export function diffSequences<T>(a: readonly T[], b: readonly T[], equal: (x: T, y: T) => boolean): Step<T>[] {
  // Common ends first: most diffs are small changes in long texts.
  let start = 0;
  while (start < a.length && start < b.length && equal(a[start]!, b[start]!)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && equal(a[endA - 1]!, b[endB - 1]!)) {
    endA--;
    endB--;
  }
  const head: Step<T>[] = a.slice(0, start).map((x, i) => ['same', x, b[i]]);
  const tail: Step<T>[] = a.slice(endA).map((x, i) => ['same', x, b[endB + i]]);
  const mid = myers(a.slice(start, endA), b.slice(start, endB), equal);
  return [...head, ...mid, ...tail];
}

function myers<T>(a: readonly T[], b: readonly T[], equal: (x: T, y: T) => boolean): Step<T>[] {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && equal(a[x]!, b[y]!)) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    v = next;
  }
  if (!found) return [...a.map((x): Step<T> => ['del', x, undefined]), ...b.map((y): Step<T> => ['add', undefined, y])];
  // Walk the trace back from the end to recover the path.
  const steps: Step<T>[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) steps.push(['same', a[--x], b[--y]]);
    if (d > 0) {
      if (x === prevX) steps.push(['add', undefined, b[--y]]);
      else steps.push(['del', a[--x], undefined]);
    }
  }
  while (x > 0 && y > 0) steps.push(['same', a[--x], b[--y]]);
  return steps.reverse();
}

/** Removed lines followed by added ones are shown side by side as changed rows. */
function pairUp(rows: DiffRow[]): DiffRow[] {
  const out: DiffRow[] = [];
  for (let i = 0; i < rows.length; ) {
    if (rows[i]!.kind !== 'del') {
      out.push(rows[i++]!);
      continue;
    }
    const dels: DiffRow[] = [];
    while (i < rows.length && rows[i]!.kind === 'del') dels.push(rows[i++]!);
    const adds: DiffRow[] = [];
    while (i < rows.length && rows[i]!.kind === 'add') adds.push(rows[i++]!);
    for (let j = 0; j < Math.max(dels.length, adds.length); j++) {
      const l = dels[j];
      const r = adds[j];
      out.push(l && r ? { kind: 'change', left: l.left!, right: r.right! } : (l ?? r)!);
    }
  }
  return out;
}

// --- JSON --------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The JSON value of a text, or undefined when it does not parse. */
export function parseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** Two JSON values compared as values: the same members in another order are the same object. */
export function diffJson(a: Json, b: Json): DiffRow[] {
  const rows: DiffRow[] = [];
  walk(a, b, '', '', { left: false, right: false }, rows);
  return rows;
}

const isObject = (v: Json): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`).join(',')}}`;
  return JSON.stringify(v);
}

/** The lines of one value pretty-printed, the first prefixed by its key and the last followed by a comma when asked. */
function lines(v: Json, indent: string, prefix: string, comma: boolean): string[] {
  const text = JSON.stringify(v, null, 2).split('\n');
  return text.map((line, i) => (i === 0 ? indent + prefix + line : indent + line) + (i === text.length - 1 && comma ? ',' : ''));
}

function side(kind: 'del' | 'add', texts: string[], rows: DiffRow[]): void {
  for (const t of texts) rows.push(kind === 'del' ? { kind, left: t } : { kind, right: t });
}

function walk(a: Json, b: Json, indent: string, prefix: string, comma: { left: boolean; right: boolean }, rows: DiffRow[]): void {
  const lc = comma.left ? ',' : '';
  const rc = comma.right ? ',' : '';
  // Equal as values (members perhaps in another order): shown once per side, in the left's order.
  if (canonical(a) === canonical(b)) {
    const l = lines(a, indent, prefix, comma.left);
    const r = lines(a, indent, prefix, comma.right);
    l.forEach((line, i) => rows.push({ kind: 'same', left: line, right: r[i]! }));
    return;
  }
  const inner = `${indent}  `;
  if (isObject(a) && isObject(b)) {
    rows.push({ kind: 'same', left: `${indent}${prefix}{`, right: `${indent}${prefix}{` });
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !Object.hasOwn(a, k))];
    const leftKeys = Object.keys(a);
    const rightKeys = Object.keys(b);
    for (const key of keys) {
      const p = `${JSON.stringify(key)}: `;
      const inA = Object.hasOwn(a, key);
      const inB = Object.hasOwn(b, key);
      const c = { left: inA && leftKeys.indexOf(key) < leftKeys.length - 1, right: inB && rightKeys.indexOf(key) < rightKeys.length - 1 };
      if (inA && inB) walk(a[key]!, b[key]!, inner, p, c, rows);
      else if (inA) side('del', lines(a[key]!, inner, p, c.left), rows);
      else side('add', lines(b[key]!, inner, p, c.right), rows);
    }
    rows.push({ kind: 'same', left: `${indent}}${lc}`, right: `${indent}}${rc}` });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    rows.push({ kind: 'same', left: `${indent}${prefix}[`, right: `${indent}${prefix}[` });
    const steps = diffSequences(a, b, (x, y) => canonical(x) === canonical(y));
    let i = 0;
    let j = 0;
    for (let s = 0; s < steps.length; ) {
      const [kind] = steps[s]!;
      if (kind === 'same') {
        walk(a[i]!, b[j]!, inner, '', { left: i < a.length - 1, right: j < b.length - 1 }, rows);
        i++;
        j++;
        s++;
        continue;
      }
      // A run of removed and added elements: pairs are compared inside, the rest shown as removed or added.
      let dels = 0;
      let adds = 0;
      while (s < steps.length && steps[s]![0] !== 'same') {
        if (steps[s]![0] === 'del') dels++;
        else adds++;
        s++;
      }
      for (let t = 0; t < Math.max(dels, adds); t++) {
        if (t < dels && t < adds) walk(a[i]!, b[j]!, inner, '', { left: i < a.length - 1, right: j < b.length - 1 }, rows);
        else if (t < dels) side('del', lines(a[i]!, inner, '', i < a.length - 1), rows);
        else side('add', lines(b[j]!, inner, '', j < b.length - 1), rows);
        if (t < dels) i++;
        if (t < adds) j++;
      }
    }
    rows.push({ kind: 'same', left: `${indent}]${lc}`, right: `${indent}]${rc}` });
    return;
  }
  const l = lines(a, indent, prefix, comma.left);
  const r = lines(b, indent, prefix, comma.right);
  if (l.length === 1 && r.length === 1) {
    rows.push({ kind: 'change', left: l[0]!, right: r[0]! });
    return;
  }
  side('del', l, rows);
  side('add', r, rows);
}

// --- headers -----------------------------------------------------------------------------------

export interface HeaderRow {
  kind: RowKind;
  name: string;
  left?: string;
  right?: string;
}

/** Headers by name (ignoring case), repeated ones joined; in the left side's order, then the right's new ones. */
export function diffHeaders(a: readonly (readonly [string, string])[], b: readonly (readonly [string, string])[]): HeaderRow[] {
  const group = (headers: readonly (readonly [string, string])[]) => {
    const map = new Map<string, { name: string; values: string[] }>();
    for (const [name, value] of headers) {
      const key = name.toLowerCase();
      const entry = map.get(key) ?? { name, values: [] };
      entry.values.push(value);
      map.set(key, entry);
    }
    return map;
  };
  const left = group(a);
  const right = group(b);
  const out: HeaderRow[] = [];
  for (const key of [...left.keys(), ...[...right.keys()].filter((k) => !left.has(k))]) {
    const l = left.get(key);
    const r = right.get(key);
    const lv = l?.values.join(', ');
    const rv = r?.values.join(', ');
    const kind: RowKind = !l ? 'add' : !r ? 'del' : lv === rv ? 'same' : 'change';
    out.push({ kind, name: (l ?? r)!.name, ...(lv !== undefined ? { left: lv } : {}), ...(rv !== undefined ? { right: rv } : {}) });
  }
  return out;
}
