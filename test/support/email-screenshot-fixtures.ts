import type { Invoice } from '../../functions/domain/invoice';
import type { EmailKind } from '../../functions/domain/invoice-email';
import type { InvoiceEmailInput } from '../../functions/email/invoice-email';

/**
 * The invoice docs/emails.md shows its three emails of: a merchant's coffee order, in USD, of one
 * product line and a shipping line, with notes. Fixed, so the screenshots change only when the
 * templates or the view do (`test/browser/email-screenshots.test.ts`).
 */
const invoice: Invoice = {
  invoiceId: 'inv_01kb2m4x7sf3q9v8e6t5r2y1wz',
  invoiceNumber: 'INV-000042',
  invoiceUrlSlug: 'Zm9yLXRoZS1kb2NzLW9ubHk',
  idempotencyKey: 'docs-fixture',
  merchantId: 'mer_01kb2m1c9hd4p6n8q2r5s7t3vw',
  customerId: 'cust_01kb2m2e5jg7k3m9p4q6r8s2tx',
  currentRevisionNumber: 2,
  status: 'issued',
  currency: 'USD',
  lineItems: [
    {
      kind: 'product_charge',
      productId: 'prod_01kb2m3f8kh2n5p7r9s3t6v4wy',
      priceId: 'price_01kb2m3g2mj6q8s4t7v9w3x5yz',
      description: 'Ethiopia Yirgacheffe, whole bean, 1 kg',
      quantity: 3,
      unitAmount: 3200,
      lineTotal: 9600,
    },
    {
      kind: 'manual_adjustment',
      adjustmentType: 'shipping',
      description: 'Shipping, ground',
      quantity: 1,
      unitAmount: 1250,
      lineTotal: 1250,
    },
  ],
  productTotal: { amount: 9600, currency: 'USD' },
  total: { amount: 10850, currency: 'USD' },
  amountPaid: { amount: 0, currency: 'USD' },
  amountRemaining: { amount: 10850, currency: 'USD' },
  acceptedPaymentMethods: ['card', 'bank_account'],
  additionalNotificationEmails: ['accounts@northside-cafe.example.com'],
  createdAt: '2026-11-16T15:04:11.000Z',
  updatedAt: '2026-11-17T09:30:00.000Z',
  dueDate: '2026-12-15',
  notes: 'Thank you for your order!\nRoasted on November 16; best within six weeks of roasting.',
};

const paidAt = '2026-11-24T18:12:45.000Z';

const paidInvoice: Invoice = {
  ...invoice,
  status: 'paid',
  currentRevisionNumber: 3,
  amountPaid: invoice.total,
  amountRemaining: { amount: 0, currency: 'USD' },
  updatedAt: paidAt,
  paidAt,
};

const common = {
  merchantName: 'Bean & Leaf Roasters',
  payUrl: `https://api.payments.example.com/pay#${invoice.invoiceUrlSlug}`,
} as const;

/** What each of the three emails is rendered from, in the order the doc shows them. */
export const screenshotEmails: Readonly<Record<EmailKind, InvoiceEmailInput>> = {
  issued: { ...common, kind: 'issued', invoice },
  resent: { ...common, kind: 'resent', invoice },
  paid: {
    ...common,
    kind: 'paid',
    invoice: paidInvoice,
    payment: { paidAt, methodKind: 'card', reference: 'pmt_01kbb7q3zc5e8g2j4m6p9r3t5v' },
  },
};
