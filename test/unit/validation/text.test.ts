import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { dateTime } from '../../../functions/validation/date-time';
import { text } from '../../../functions/validation/text';
import { messagesOf } from './parse';

describe('text', () => {
  it('trims before it measures, and gives back the trimmed text', () => {
    const Name = text({ trim: true, min: 1, max: 3 });
    expect(z.safeParse(Name, '  Ana  ')).toMatchObject({ success: true, data: 'Ana' });
    expect(z.safeParse(Name, '   ').success).toBe(false);
  });

  it('counts characters, not UTF-16 units: an emoji is one character', () => {
    const Name = text({ min: 2, max: 3 });
    expect(z.safeParse(Name, '😀😀😀').success).toBe(true);
    expect(messagesOf(Name, '😀😀😀😀')).toEqual([': must be at most 3 characters.']);
    expect(messagesOf(Name, '😀')).toEqual([': must be at least 2 characters.']);
  });

  it('refuses a lone UTF-16 surrogate anywhere, which has no UTF-8 form, and keeps a pair as its character', () => {
    const Name = text({ max: 10 });
    for (const value of ['\ud83d', 'tea \ud83d', '\ude00 tea', '\ude00\ud83d']) {
      expect(messagesOf(Name, value), JSON.stringify(value)).toEqual([
        ': must be well-formed Unicode text, without a lone UTF-16 surrogate.',
      ]);
    }
    expect(z.safeParse(Name, 'tea \ud83d\ude00')).toMatchObject({ success: true, data: 'tea 😀' });
  });

  it('carries its own message for a pattern it does not match, or a refused one it matches', () => {
    const Key = text({ pattern: /^[a-z_]+$/, notPattern: /^__proto__$/, patternMessage: 'must be a key.' });
    expect(z.safeParse(Key, 'name').success).toBe(true);
    expect(messagesOf(Key, '__proto__')).toEqual([': must be a key.']);
    expect(messagesOf(Key, 'Name')).toEqual([': must be a key.']);
  });
});

describe('dateTime', () => {
  it.each([
    ['2024-02-29T12:00:00Z', true],
    ['2024-02-29T12:00:00.123456Z', true],
    ['2023-02-29T12:00:00Z', false],
    ['2024-04-31T00:00:00Z', false],
    ['2024-01-01T00:00:00+01:00', false],
    ['2024-01-01T24:00:00Z', false],
    ['2024-01-01', false],
  ])('%s is accepted: %s', (value, accepted) => {
    expect(z.safeParse(dateTime(), value).success).toBe(accepted);
  });
});

describe('_default', () => {
  it('takes its value for an absent field only, unchecked', () => {
    const Limit = z._default(z.int().check(z.minimum(1)), 20);
    expect(z.safeParse(Limit, undefined)).toMatchObject({ success: true, data: 20 });
    expect(z.safeParse(Limit, 0).success).toBe(false);
    expect(z.safeParse(Limit, null).success).toBe(false);
  });
});
