import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { keyRecord } from '../../../functions/validation/key-record';
import { text } from '../../../functions/validation/text';
import { messagesOf, problemsOf } from './parse';

const Metadata = keyRecord(text({ min: 1, max: 3 }), text({ max: 2 }));

describe('keyRecord', () => {
  it('reports a bad key under its own path and leaves its value unchecked', () => {
    expect(problemsOf(Metadata, { long: 'too long', ok: 'abc' })).toEqual([
      { code: 'invalid_key', path: ['long'] },
      { code: 'too_big', path: ['ok'] },
    ]);
  });

  it('keeps a "__proto__" key the key schema accepts as the own key JSON.parse made it', () => {
    const parsed = z.safeParse(keyRecord(text(), text()), JSON.parse('{"__proto__":"x","a":"b"}'));
    if (!parsed.success) throw new Error('the record was refused');
    expect(Object.getPrototypeOf(parsed.data)).toBe(Object.prototype);
    expect(Object.entries(parsed.data)).toEqual([
      ['__proto__', 'x'],
      ['a', 'b'],
    ]);
  });

  it('checks a "__proto__" key like any other, its problem in its place among the keys', () => {
    const Keys = keyRecord(
      text({ notPattern: /^__proto__$/, patternMessage: 'must be a plain key.' }),
      text({ max: 1 }),
    );
    expect(messagesOf(Keys, JSON.parse('{"a":"xx","__proto__":"x","b":"yy"}'))).toEqual([
      'a: must be at most 1 character.',
      '__proto__: must be a plain key.',
      'b: must be at most 1 character.',
    ]);
  });
});
