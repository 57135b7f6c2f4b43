import { describe, expect, it } from 'vitest';
import {
  discriminatedUnion,
  integer,
  literal,
  safeParse,
  strictObject,
  string,
} from '../../../functions/schema';

const Method = discriminatedUnion('type', [
  strictObject({ type: literal('card'), cvc: string() }),
  strictObject({ type: literal('bank_account'), routing: integer() }),
]);

describe('discriminatedUnion', () => {
  it('checks the form its discriminator names', () => {
    expect(safeParse(Method, { type: 'bank_account', routing: 1 })).toEqual({
      success: true,
      data: { type: 'bank_account', routing: 1 },
    });
    const parsed = safeParse(Method, { type: 'card', routing: 1 });
    expect(parsed.success ? [] : parsed.issues.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: 'invalid_type', path: ['cvc'] },
      { code: 'unrecognized_keys', path: [] },
    ]);
  });

  it.each([
    [{}, undefined],
    [{ type: 'cash' }, 'cash'],
  ])('reports a missing or unknown discriminator on the discriminator alone: %j', (value, input) => {
    expect(safeParse(Method, value)).toEqual({
      success: false,
      issues: [{ code: 'invalid_value', values: ['card', 'bank_account'], input, path: ['type'] }],
    });
  });
});
