import { describe, expect, it } from 'vitest';
import { array, integer, safeParse } from '../../../functions/schema';

const Counts = array(integer({ min: 0 }), { min: 2, max: 3 });

describe('array', () => {
  it('gives back the checked items', () => {
    expect(safeParse(Counts, [1, 2])).toEqual({ success: true, data: [1, 2] });
  });

  it('lists each bad item under its index, then a count under the minimum', () => {
    const parsed = safeParse(Counts, [-1]);
    expect(parsed.success ? [] : parsed.issues.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: 'too_small', path: [0] },
      { code: 'too_small', path: [] },
    ]);
  });

  it('refuses an array over its maximum as a whole, without checking its items', () => {
    expect(safeParse(Counts, [-1, 'x', null, 4])).toEqual({
      success: false,
      issues: [{ code: 'too_big', limit: 3, unit: 'item', path: [] }],
    });
  });
});
