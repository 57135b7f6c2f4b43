import { describe, expect, it } from 'vitest';
import { newProduct, withStatus } from '../../../functions/domain/product';

describe('newProduct', () => {
  it('is active, with active true, and omits an absent description', () => {
    const product = newProduct({
      productId: 'prod_1',
      merchantId: 'mer_1',
      name: 'Tea',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(product).toEqual({
      productId: 'prod_1',
      merchantId: 'mer_1',
      name: 'Tea',
      status: 'active',
      active: true,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  });
});

describe('withStatus', () => {
  it('keeps active in step with status', () => {
    const product = newProduct({ productId: 'prod_1', merchantId: 'mer_1', name: 'Tea', createdAt: 'x' });
    expect(withStatus(product, 'inactive')).toMatchObject({ status: 'inactive', active: false });
    expect(withStatus(withStatus(product, 'inactive'), 'active')).toEqual(product);
  });
});
