import { describe, expect, it } from 'vitest';
import {
  annotate,
  dateTime,
  integer,
  parse,
  SchemaError,
  safeParse,
  strictObject,
  string,
  withDefault,
} from '../../../functions/schema';

describe('parse', () => {
  it('gives back the parsed value, or throws a SchemaError naming every bad path', () => {
    const Message = strictObject({ id: string({ min: 1 }), count: integer({ min: 0 }) });
    expect(parse(Message, { id: 'a', count: 0 })).toEqual({ id: 'a', count: 0 });
    expect(() => parse(Message, { id: '', count: -1 })).toThrow(
      expect.objectContaining({ name: 'SchemaError', message: 'Invalid value at id, count' }),
    );
    expect(() => parse(Message, null)).toThrow(SchemaError);
  });
});

describe('annotate', () => {
  it('attaches documentation and leaves validation as it was', () => {
    const Name = string({ max: 3 });
    const Documented = annotate(Name, { description: 'A name.', example: 'Ana' });
    expect(Documented.meta).toEqual({ description: 'A name.', example: 'Ana' });
    expect(Name.meta).toBeUndefined();
    expect(safeParse(Documented, 'Anabel').success).toBe(false);
  });
});

describe('string', () => {
  it('trims before it measures, and gives back the trimmed text', () => {
    const Name = string({ trim: true, min: 1, max: 3 });
    expect(safeParse(Name, '  Ana  ')).toEqual({ success: true, data: 'Ana' });
    expect(safeParse(Name, '   ').success).toBe(false);
  });

  it('counts characters, not UTF-16 units: an emoji is one character', () => {
    const Name = string({ min: 2, max: 3 });
    expect(safeParse(Name, '😀😀😀').success).toBe(true);
    expect(safeParse(Name, '😀😀😀😀')).toMatchObject({
      success: false,
      issues: [{ code: 'too_big', limit: 3 }],
    });
    expect(safeParse(Name, '😀')).toMatchObject({
      success: false,
      issues: [{ code: 'too_small', limit: 2 }],
    });
  });

  it('refuses a lone UTF-16 surrogate anywhere, which has no UTF-8 form, and keeps a pair as its character', () => {
    const Name = string({ max: 10 });
    for (const text of ['\ud83d', 'tea \ud83d', '\ude00 tea', '\ude00\ud83d']) {
      expect(safeParse(Name, text), JSON.stringify(text)).toMatchObject({
        success: false,
        issues: [{ code: 'invalid_format', format: 'unicode' }],
      });
    }
    expect(safeParse(Name, 'tea \ud83d\ude00')).toEqual({ success: true, data: 'tea 😀' });
  });

  it('carries its own message for a pattern it does not match', () => {
    const Id = string({ pattern: /^id_\d+$/, patternMessage: 'must be an id.' });
    expect(safeParse(Id, 'x')).toMatchObject({ success: false, issues: [{ message: 'must be an id.' }] });
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
    expect(safeParse(dateTime(), value).success).toBe(accepted);
  });
});

describe('withDefault', () => {
  it('takes its value for an absent field only, unchecked', () => {
    const Limit = withDefault(integer({ min: 1 }), 20);
    expect(safeParse(Limit, undefined)).toEqual({ success: true, data: 20 });
    expect(safeParse(Limit, 0).success).toBe(false);
    expect(safeParse(Limit, null).success).toBe(false);
  });
});
