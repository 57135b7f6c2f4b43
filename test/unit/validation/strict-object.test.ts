import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { integer } from '../../../functions/validation/integer';
import { text } from '../../../functions/validation/text';
import { messagesOf, problemsOf } from './parse';

const Body = z.strictObject({
  name: text({ trim: true, min: 1 }),
  note: z.optional(text()),
  count: z._default(integer(), 1),
});

describe('strictObject', () => {
  it('gives back the shape’s fields in declaration order, an absent optional one left out', () => {
    const parsed = z.safeParse(Body, { count: 3, name: ' Tea ' });
    expect(parsed).toMatchObject({ success: true, data: { name: 'Tea', count: 3 } });
    expect(parsed.success && Object.keys(parsed.data)).toEqual(['name', 'count']);
  });

  it('reports field problems in declaration order, then the unknown keys in the order given', () => {
    expect(problemsOf(Body, { zeta: 1, count: 'x', alpha: 2 })).toEqual([
      { code: 'invalid_type', path: ['name'] },
      { code: 'invalid_type', path: ['count'] },
      { code: 'unrecognized_keys', path: [] },
    ]);
    const parsed = z.safeParse(Body, { zeta: 1, count: 'x', alpha: 2 });
    expect(parsed.success ? undefined : parsed.error.issues.at(-1)).toMatchObject({
      keys: ['zeta', 'alpha'],
    });
  });

  it.each([null, [], 'text', 1])('refuses %j as a value of the wrong type', (value) => {
    expect(messagesOf(Body, value)).toEqual([': must be an object.']);
  });
});

describe('z.parse', () => {
  it('gives back the parsed value, or throws naming every bad path', () => {
    const Message = z.strictObject({ id: text({ min: 1 }), count: integer({ min: 0 }) });
    expect(z.parse(Message, { id: 'a', count: 0 })).toEqual({ id: 'a', count: 0 });
    expect(() => z.parse(Message, { id: '', count: -1 })).toThrow(
      expect.objectContaining({
        issues: [expect.objectContaining({ path: ['id'] }), expect.objectContaining({ path: ['count'] })],
      }),
    );
  });
});
