import { type ApiClient, newKey } from './local-runtime';

/** A customer, an active product and a USD price of it, made through the API, for invoice tests. */
export async function invoiceFixtures(api: ApiClient, merchantId: string) {
  const customer = await api('POST', '/customers', {
    body: { merchantId, name: 'Ana Buyer', email: 'ana@example.com' },
    idempotencyKey: newKey(),
  });
  const product = await api('POST', '/catalog/products', {
    body: { merchantId, name: 'Green tea' },
    idempotencyKey: newKey(),
  });
  const price = await api('POST', `/catalog/products/${product.body.productId}/prices`, {
    body: { merchantId, unitAmount: 1250, currency: 'USD' },
    idempotencyKey: newKey(),
  });
  if (customer.status !== 201 || product.status !== 201 || price.status !== 201) {
    throw new Error(`fixtures failed: ${customer.status} ${product.status} ${price.status}`);
  }
  return {
    customerId: customer.body.customerId as string,
    productId: product.body.productId as string,
    priceId: price.body.priceId as string,
  };
}
