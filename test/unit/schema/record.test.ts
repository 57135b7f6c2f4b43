import { describe, expect, it } from 'vitest';
import { record, safeParse, string } from '../../../functions/schema';

const Metadata = record(string({ min: 1, max: 3 }), string({ max: 2 }));

describe('record', () => {
  it('reports a bad key under its own path and leaves its value unchecked', () => {
    const parsed = safeParse(Metadata, { long: 'too long', ok: 'abc' });
    expect(parsed.success ? [] : parsed.issues.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: 'invalid_key', path: ['long'] },
      { code: 'too_big', path: ['ok'] },
    ]);
  });

  it('drops a "__proto__" key, which JSON.parse makes an own key', () => {
    const parsed = safeParse(Metadata, JSON.parse('{"__proto__":{"x":"1"},"a":"b"}'));
    expect(parsed).toEqual({ success: true, data: { a: 'b' } });
    expect(parsed.success && Object.getPrototypeOf(parsed.data)).toBe(Object.prototype);
  });
});
