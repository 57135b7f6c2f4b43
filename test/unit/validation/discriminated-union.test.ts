import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { integer } from '../../../functions/validation/integer';
import { text } from '../../../functions/validation/text';
import { messagesOf, problemsOf } from './parse';

const Method = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('card'), cvc: text() }),
  z.strictObject({ type: z.literal('bank_account'), routing: integer() }),
]);

describe('discriminatedUnion', () => {
  it('checks the form its discriminator names', () => {
    expect(z.safeParse(Method, { type: 'bank_account', routing: 1 })).toMatchObject({
      success: true,
      data: { type: 'bank_account', routing: 1 },
    });
    expect(problemsOf(Method, { type: 'card', routing: 1 })).toEqual([
      { code: 'invalid_type', path: ['cvc'] },
      { code: 'unrecognized_keys', path: [] },
    ]);
  });

  it.each([
    [{}, 'type: type is required.'],
    [{ type: 'cash' }, 'type: must be one of: card, bank_account.'],
  ])('reports a missing or unknown discriminator on the discriminator alone: %j', (value, message) => {
    expect(messagesOf(Method, value)).toEqual([message]);
  });
});
