import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IdempotencyContext } from '../../../functions/store/idempotency';
import { openStoredBody, sealStoredBody } from '../../../functions/store/replay-sealing';
import { assertProperty } from '../../support/property';

const context = (key: string, scopeHash = 'a'.repeat(64)): IdempotencyContext => ({
  key,
  requestId: 'request-1',
  scopeHash,
  fingerprint: 'f',
  now: new Date('2026-11-23T00:00:00.000Z'),
});

const idempotencyKey = fc.stringMatching(/^[\x21-\x7e]{1,255}$/);

describe('sealing a stored response', () => {
  it('keeps no slug in the clear, at any depth, and opens to the same body with the same key', () => {
    assertProperty(
      fc.property(idempotencyKey, fc.string({ minLength: 1 }), fc.jsonValue(), (key, slug, other) => {
        const body = { invoiceUrlSlug: slug, other, nested: [{ invoice: { invoiceUrlSlug: slug } }] };
        const stored = JSON.stringify(sealStoredBody(body, context(key)));
        expect(JSON.parse(stored).invoiceUrlSlug).toEqual({ $sealed: expect.stringMatching(/^v1\./) });
        expect(JSON.parse(stored).nested[0].invoice.invoiceUrlSlug).toHaveProperty('$sealed');
        expect(openStoredBody(JSON.parse(stored), context(key))).toEqual(JSON.parse(JSON.stringify(body)));
      }),
    );
  });

  it('does not open with another Idempotency-Key or another scope', () => {
    const body = { invoiceUrlSlug: 'Zm9vYmFyYmF6cXV4cXV1eA' };
    const sealed = sealStoredBody(body, context('key-1'));
    expect(() => openStoredBody(sealed, context('key-2'))).toThrow();
    expect(() => openStoredBody(sealed, context('key-1', 'b'.repeat(64)))).toThrow();
    expect(openStoredBody(sealed, context('key-1'))).toEqual(body);
  });

  it('leaves bodies without a slug as they are', () => {
    const body = { status: 'issued', lineItems: [{ amount: 1 }], invoiceUrlSlug: null };
    expect(sealStoredBody(body, context('k'))).toEqual(body);
    expect(openStoredBody(body, context('k'))).toEqual(body);
  });
});
