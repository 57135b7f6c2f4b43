import { describe, expect, it } from 'vitest';
import { integer, optional, safeParse, strictObject, string, withDefault } from '../../../functions/schema';

const Body = strictObject({
  name: string({ trim: true, min: 1 }),
  note: optional(string()),
  count: withDefault(integer(), 1),
});

describe('strictObject', () => {
  it('gives back the shape’s fields in declaration order, an absent optional one left out', () => {
    const parsed = safeParse(Body, { count: 3, name: ' Tea ' });
    expect(parsed).toEqual({ success: true, data: { name: 'Tea', count: 3 } });
    expect(parsed.success && Object.keys(parsed.data)).toEqual(['name', 'count']);
  });

  it('reports field problems in declaration order, then the unknown keys in the order given', () => {
    const parsed = safeParse(Body, { zeta: 1, count: 'x', alpha: 2 });
    expect(parsed.success ? [] : parsed.issues.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: 'invalid_type', path: ['name'] },
      { code: 'invalid_type', path: ['count'] },
      { code: 'unrecognized_keys', path: [] },
    ]);
    expect(parsed.success ? undefined : parsed.issues.at(-1)).toMatchObject({ keys: ['zeta', 'alpha'] });
  });

  it.each([null, [], 'text', 1])('refuses %j as a value of the wrong type', (value) => {
    const parsed = safeParse(Body, value);
    expect(parsed.success ? [] : parsed.issues).toEqual([
      { code: 'invalid_type', expected: 'object', input: value, path: [] },
    ]);
  });
});
