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

  it('keeps a "__proto__" key the key schema accepts as the own key JSON.parse made it', () => {
    const parsed = safeParse(record(string(), string()), JSON.parse('{"__proto__":"x","a":"b"}'));
    if (!parsed.success) throw new Error('the record was refused');
    expect(Object.getPrototypeOf(parsed.data)).toBe(Object.prototype);
    expect(Object.entries(parsed.data)).toEqual([
      ['__proto__', 'x'],
      ['a', 'b'],
    ]);
  });
});
