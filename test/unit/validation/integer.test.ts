import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { integer } from '../../../functions/validation/integer';
import { messagesOf } from './parse';

describe('integer', () => {
  it('reads a query value as a number when asked to', () => {
    expect(z.safeParse(integer({ min: 1, max: 100, coerce: true }), '25')).toMatchObject({
      success: true,
      data: 25,
    });
    expect(messagesOf(integer({ min: 1, coerce: true }), 'ten')).toEqual([': must be an integer.']);
    expect(messagesOf(integer(), '25')).toEqual([': must be an integer.']);
  });

  it('reports a value past the safe range, and against its own maximum too', () => {
    expect(messagesOf(integer({ max: 1_000_000 }), 2 ** 60)).toEqual([
      `: must be at most ${Number.MAX_SAFE_INTEGER}.`,
      ': must be at most 1000000.',
    ]);
    expect(messagesOf(integer(), -(2 ** 60))).toEqual([`: must be at least ${Number.MIN_SAFE_INTEGER}.`]);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses %s as no integer, without checking bounds',
    (value) => {
      expect(messagesOf(integer({ min: 5, max: 0 }), value)).toEqual([': must be an integer.']);
    },
  );

  it('checks both bounds, inclusive', () => {
    const schema = integer({ min: 1, max: 3 });
    expect([0, 1, 3, 4].map((value) => z.safeParse(schema, value).success)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});
