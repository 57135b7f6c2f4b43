import { describe, expect, it } from 'vitest';
import { responseBodyOf, storedResponseBody } from '../../../functions/store/idempotency';

describe('storedResponseBody', () => {
  it('keeps a short answer as its JSON text', () => {
    const body = { productId: 'prod_1', name: 'Green tea' };
    expect(storedResponseBody(body)).toEqual({ responseBody: JSON.stringify(body) });
    expect(responseBodyOf(storedResponseBody(body))).toEqual(body);
  });

  it('deflates a long answer under the 1 KB a record may take, and reads back the very same body', () => {
    const lines = Array.from({ length: 8 }, (_, index) => ({
      kind: 'product_charge',
      productId: `prod_01m8sv54xxeg0tm66wqx5hsym${index}`,
      priceId: `price_01m8sv54xxeg0tm66wqx5hsym${index}`,
      description: 'Loose leaf green tea, 100 g',
      quantity: index + 1,
      unitAmount: { amount: 1250, currency: 'USD' },
      lineTotal: { amount: 1250 * (index + 1), currency: 'USD' },
    }));
    const body = { invoiceId: 'inv_01m8sv54xxeg0tm66wqx5hsymr', status: 'issued', lineItems: lines };
    expect(JSON.stringify(body).length).toBeGreaterThan(1400);
    const stored = storedResponseBody(body);
    expect('responseBodyDeflated' in stored).toBe(true);
    if (!('responseBodyDeflated' in stored)) return;
    expect(stored.responseBodyDeflated.byteLength).toBeLessThan(700);
    expect(responseBodyOf(stored)).toEqual(body);
  });
});
