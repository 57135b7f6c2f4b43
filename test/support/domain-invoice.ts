import type { Invoice } from '../../functions/domain/invoice';

/**
 * An invoice as the domain functions take it: `status`, a USD `total` with `paid` of it paid, no
 * lines; `overrides` set anything else the test is about.
 */
export function invoiceIn(
  status: Invoice['status'],
  total = 1000,
  paid = 0,
  overrides: Partial<Invoice> = {},
): Invoice {
  return {
    invoiceId: 'inv_1',
    invoiceNumber: 'INV-000001',
    invoiceUrlSlug: 'slug',
    idempotencyKey: 'k',
    merchantId: 'mer_1',
    customerId: 'cust_1',
    currentRevisionNumber: 3,
    status,
    currency: 'USD',
    lineItems: [],
    productTotal: { amount: total, currency: 'USD' },
    total: { amount: total, currency: 'USD' },
    amountPaid: { amount: paid, currency: 'USD' },
    amountRemaining: { amount: total - paid, currency: 'USD' },
    acceptedPaymentMethods: ['card', 'bank_account'],
    additionalNotificationEmails: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}
