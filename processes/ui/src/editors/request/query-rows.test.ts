import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Row } from '../../../../../protocol/model/common.js';
import { shownRows, splitShown } from './query-rows.js';

const row = (name: string, enabled = true): Row => ({ name, value: '', enabled });

describe('the Params table of query rows', () => {
  it('keeps a row switched off where it was: the table reads the same after the URL loses it', () => {
    const table = [row('a'), row('b', false), row('c')];
    const { on, off, offAt } = splitShown(table);
    expect({ on, off, offAt }).toEqual({ on: [row('a'), row('c')], off: [row('b', false)], offAt: [1] });
    expect(shownRows(on, off, offAt)).toEqual(table);
    // Without known places (a reload), the rows switched off come after the URL's.
    expect(shownRows(on, off, undefined)).toEqual([row('a'), row('c'), row('b', false)]);
    // A pair typed at the end of the URL shows after the row switched off; one fewer keeps the order.
    expect(shownRows([...on, row('d')], off, offAt)).toEqual([row('a'), row('b', false), row('c'), row('d')]);
    expect(shownRows([], off, offAt)).toEqual([row('b', false)]);
  });

  it('shows any table as it was split, for any rows on and off', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ name: fc.string({ maxLength: 3 }), value: fc.constant(''), enabled: fc.boolean() }), { maxLength: 8 }), (table) => {
        const { on, off, offAt } = splitShown(table);
        expect(shownRows(on, off, offAt)).toEqual(table);
      }),
    );
  });
});
