import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { integer } from '../../../functions/validation/integer';
import { list } from '../../../functions/validation/list';
import { messagesOf, problemsOf } from './parse';

const Counts = list(integer({ min: 0 }), { min: 2, max: 3 });

describe('list', () => {
  it('gives back the checked items', () => {
    expect(z.safeParse(Counts, [1, 2])).toMatchObject({ success: true, data: [1, 2] });
  });

  it('lists each bad item under its index, then a count under the minimum', () => {
    expect(problemsOf(Counts, [-1])).toEqual([
      { code: 'too_small', path: [0] },
      { code: 'too_small', path: [] },
    ]);
  });

  it('refuses an array over its maximum as a whole, without checking its items', () => {
    expect(messagesOf(Counts, [-1, 'x', null, 4])).toEqual([': must have at most 3 items.']);
  });

  it('measures arrays only: a string in its place is one problem, its type', () => {
    expect(messagesOf(z.strictObject({ counts: Counts }), { counts: 'a' })).toEqual([
      'counts: must be an array.',
    ]);
  });
});
