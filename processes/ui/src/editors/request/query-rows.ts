/**
 * The query rows as the Params table shows them: the URL's pairs in their order, and each row
 * switched off where the user switched it off, so unticking a row leaves it in place (greyed)
 * instead of moving it. Where they stand is the table's to remember (`offPlaces`, per draft, for
 * this session); the request itself keeps the URL text and, in `query`, the rows switched off.
 */
import type { Row } from '../../../../../protocol/model/common.js';

/** The table's rows: `off[k]` at place `offAt[k]` (ascending), the URL's rows in the places between; `off` after them when no places are known. */
export function shownRows(inUrl: readonly Row[], off: readonly Row[], offAt: readonly number[] | undefined): Row[] {
  if (!offAt || offAt.length !== off.length) return [...inUrl, ...off];
  const out: Row[] = [];
  let u = 0;
  let d = 0;
  while (u < inUrl.length || d < off.length) {
    if (d < off.length && (offAt[d]! <= out.length || u >= inUrl.length)) out.push(off[d++]!);
    else out.push(inUrl[u++]!);
  }
  return out;
}

/** The table's rows back to the request's shape: the rows on (for the URL), the rows off and their places. */
export function splitShown(rows: readonly Row[]): { on: Row[]; off: Row[]; offAt: number[] } {
  const on: Row[] = [];
  const off: Row[] = [];
  const offAt: number[] = [];
  rows.forEach((row, i) => {
    if (row.enabled) on.push(row);
    else {
      off.push(row);
      offAt.push(i);
    }
  });
  return { on, off, offAt };
}

/** Where each draft's rows switched off stand in its table. */
export const offPlaces = new WeakMap<object, number[]>();
