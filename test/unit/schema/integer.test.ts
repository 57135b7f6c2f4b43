import { describe, expect, it } from 'vitest';
import { integer, safeParse } from '../../../functions/schema';

const codesOf = (result: ReturnType<typeof safeParse>) =>
  result.success
    ? []
    : result.issues.map((issue) => ('limit' in issue ? `${issue.code} ${issue.limit}` : issue.code));

describe('integer', () => {
  it('reads a query value as a number when asked to', () => {
    expect(safeParse(integer({ min: 1, max: 100, coerce: true }), '25')).toEqual({ success: true, data: 25 });
    expect(codesOf(safeParse(integer({ min: 1, coerce: true }), 'ten'))).toEqual(['invalid_type']);
    expect(codesOf(safeParse(integer(), '25'))).toEqual(['invalid_type']);
  });

  it('reports a value past the safe range, and against its own maximum too', () => {
    expect(codesOf(safeParse(integer({ max: 1_000_000 }), 2 ** 60))).toEqual([
      `too_big ${Number.MAX_SAFE_INTEGER}`,
      'too_big 1000000',
    ]);
    expect(codesOf(safeParse(integer(), -(2 ** 60)))).toEqual([`too_small ${Number.MIN_SAFE_INTEGER}`]);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses %s as no integer, without checking bounds',
    (value) => {
      expect(codesOf(safeParse(integer({ min: 5, max: 0 }), value))).toEqual(['invalid_type']);
    },
  );

  it('checks both bounds, inclusive', () => {
    const schema = integer({ min: 1, max: 3 });
    expect([0, 1, 3, 4].map((value) => safeParse(schema, value).success)).toEqual([false, true, true, false]);
  });
});
