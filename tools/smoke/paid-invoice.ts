import type { StageUnderTest } from './access-checks';
import { CheckFailure } from './check-failure';
import { expectStatus } from './smoke-client';

export interface PaidInvoice {
  readonly invoiceId: string;
  readonly paymentId: string;
  /** `performance.now()` when the payment was answered. */
  readonly paidAt: number;
}

/** What the smoke sells: 5.00 USD, paid with the sandbox's always-succeeding Visa (docs/sandbox-testing.md). */
const UnitAmount = 500;
const TestCard = '4242424242424242';

/**
 * A draft invoice of one item, issued, then paid in full by card through its pay link, as a payer
 * on the pay page would. The product, price and customer are created under fixed Idempotency-Keys,
 * so runs within a day replay them instead of filling the catalog; the invoice, its issue and its
 * payment under keys of this run, so each run has a payment of its own to announce and a retried
 * request never acts twice. The pay-link slug is used, never shown.
 */
export async function payInvoiceByLink(stage: StageUnderTest, runId: string): Promise<PaidInvoice> {
  const post = async (path: string, idempotencyKey: string, body: object, status: number) =>
    expectStatus(
      await stage.request('POST', path, { key: stage.key.apiKey, idempotencyKey, body }),
      status,
      `POST /${path}`,
    );
  const merchantId = stage.merchantId;
  const product = await post(
    'catalog/products',
    'smoke-product',
    { merchantId, name: 'Smoke test item' },
    201,
  );
  const price = await post(
    `catalog/products/${String(product.productId)}/prices`,
    'smoke-price',
    { merchantId, unitAmount: UnitAmount, currency: 'USD' },
    201,
  );
  const customer = await post(
    'customers',
    'smoke-customer',
    { merchantId, name: 'Smoke test', email: 'smoke@example.com' },
    201,
  );
  const lineItem = {
    kind: 'product_charge',
    productId: product.productId,
    priceId: price.priceId,
    quantity: 1,
  };
  const draft = await post(
    'invoices',
    `smoke-${runId}-invoice`,
    { merchantId, customerId: customer.customerId, currency: 'USD', lineItems: [lineItem] },
    201,
  );
  const invoiceId = String(draft.invoiceId);
  const issued = await post(`invoices/${invoiceId}/issue`, `smoke-${runId}-issue`, { merchantId }, 200);
  const paid = await payThroughLink(stage, runId, issued);
  return { invoiceId, paymentId: paid, paidAt: performance.now() };
}

/** POST /pay/payments, the public route of the pay page: no API key, the slug names the invoice. */
async function payThroughLink(
  stage: StageUnderTest,
  runId: string,
  issued: Record<string, unknown>,
): Promise<string> {
  const amountRemaining = issued.amountRemaining as { amount?: unknown } | undefined;
  const answer = expectStatus(
    await stage.request('POST', 'pay/payments', {
      key: null,
      idempotencyKey: `smoke-${runId}-pay`,
      body: {
        slug: issued.invoiceUrlSlug,
        amount: amountRemaining?.amount,
        paymentMethod: {
          type: 'card',
          number: TestCard,
          expMonth: 12,
          expYear: new Date().getUTCFullYear() + 2,
          cvc: '123',
        },
      },
    }),
    201,
    'POST /pay/payments',
  );
  const payment = answer.payment as { paymentId?: unknown; status?: unknown } | undefined;
  const invoice = answer.invoice as { status?: unknown } | undefined;
  if (payment?.status !== 'completed' || invoice?.status !== 'paid') {
    throw new CheckFailure(
      `POST /pay/payments answered 201 with the payment ${String(payment?.status)} and the invoice ${String(invoice?.status)}, expected completed and paid`,
    );
  }
  return String(payment.paymentId);
}
