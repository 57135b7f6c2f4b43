import * as z from 'zod/mini';
import { InvoiceStatus, PaymentMethodType } from '../../domain/invoice';
import { Currency } from '../../domain/money';
import { PayerDecline } from '../../domain/pay-link-declines';
import { PaymentStatus } from '../../domain/payment';
import { integer } from '../../validation/integer';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import { PaymentAmount, PaymentId, PaymentMethodDetails } from '../payment-schemas';
import { Money, Timestamp } from '../shared-schemas';

/**
 * The pay-link slug travels only in JSON bodies (docs/decisions/hosted-pay-page.md). Any string up to this
 * length is looked up; one that names nothing is a neutral 404, never a hint about its form.
 */
const Slug = documented(text({ min: 1, max: 256 }), { description: 'The invoiceUrlSlug from the pay link.' });

export const PayInvoiceBody = z.strictObject({ slug: Slug });

export const PayInvoiceRequest = z.strictObject({
  slug: Slug,
  /** The amount the payer was shown; it must still be the amount remaining. */
  amount: PaymentAmount,
  paymentMethod: PaymentMethodDetails,
});

/** Where a stage's payer gives payment details. */
export const PayOn = { payPage: 'pay_page', processorCheckout: 'processor_checkout' } as const;

/** What a payer sees of an invoice: no ids, no slug, no customer or merchant internals. */
export const PayInvoiceView = documented(
  z.strictObject({
    merchantName: text(),
    invoiceNumber: text(),
    status: z.enum([
      InvoiceStatus.issued,
      InvoiceStatus.partially_paid,
      InvoiceStatus.paid,
      InvoiceStatus.void,
    ]),
    currency: z.enum(Currency),
    lineItems: z.array(
      z.strictObject({
        description: text(),
        quantity: integer(),
        unitAmount: integer(),
        lineTotal: integer(),
      }),
    ),
    productTotal: Money,
    total: Money,
    amountPaid: Money,
    amountRemaining: Money,
    dueDate: z.nullable(Timestamp),
    paidAt: z.nullable(Timestamp),
    acceptedPaymentMethods: z.array(z.enum(PaymentMethodType)),
    payOn: documented(z.enum(PayOn), {
      description:
        'Where the payer gives payment details: `pay_page` on this page (the sandbox, with its test cards and ' +
        "accounts, `POST /pay/payments`), `processor_checkout` on Stripe's hosted Checkout (production, " +
        '`POST /pay/checkout-sessions`).',
    }),
  }),
  { id: 'PayInvoiceView' },
);

export const PayPaymentView = documented(
  z.strictObject({
    paymentId: PaymentId,
    status: z.enum([PaymentStatus.completed, PaymentStatus.declined]),
    amount: PaymentAmount,
    currency: z.enum(Currency),
    paymentMethodType: z.enum(PaymentMethodType),
    declineCode: documented(z.nullable(z.literal(PayerDecline.code)), {
      description:
        "The same for every decline: the processor's reason is shown to the merchant only (GET /payments/{paymentId}, payments.PaymentDeclined).",
    }),
    declineMessage: documented(z.nullable(z.literal(PayerDecline.message)), {
      description: 'The same for every decline, whatever the reason.',
    }),
    createdAt: Timestamp,
  }),
  { id: 'PayPaymentView' },
);

export const PayInvoiceResult = documented(
  z.strictObject({ payment: PayPaymentView, invoice: PayInvoiceView }),
  {
    id: 'PayInvoiceResult',
  },
);

/**
 * Production pays on Stripe's hosted Checkout (docs/processor.md#paying): the payer picks one of the
 * invoice's methods here and is sent there with no card or account number passing this service.
 */
export const CheckoutSessionRequest = z.strictObject({
  slug: Slug,
  /** The amount the payer was shown; it must still be the amount remaining. */
  amount: PaymentAmount,
  paymentMethodType: z.enum(PaymentMethodType),
});

export const CheckoutSessionView = documented(
  z.strictObject({
    checkoutUrl: documented(text({ max: 4096 }), {
      description: "Stripe's hosted Checkout page for the amount remaining: send the payer there.",
    }),
    expiresAt: documented(Timestamp, {
      description: 'After this the page takes no payment; ask for a new one.',
    }),
  }),
  { id: 'CheckoutSessionView' },
);

/** The hosted pay page is HTML. */
export const PayPage = documented(text(), { description: 'The hosted pay page (HTML).' });
