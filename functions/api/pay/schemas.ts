import { InvoiceStatus, PaymentMethodType } from '../../domain/invoice';
import { Currency } from '../../domain/money';
import { PayerDecline } from '../../domain/pay-link-declines';
import { PaymentStatus } from '../../domain/payment';
import { annotate, array, enumOf, integer, literal, nullable, strictObject, string } from '../../schema';
import { PaymentAmount, PaymentId, PaymentMethodDetails } from '../payment-schemas';
import { Money, Timestamp } from '../shared-schemas';

/**
 * The pay-link slug travels only in JSON bodies (DESIGN §4). Any string up to this length is looked
 * up; one that names nothing is a neutral 404, never a hint about its form.
 */
const Slug = annotate(string({ min: 1, max: 256 }), { description: 'The invoiceUrlSlug from the pay link.' });

export const PayInvoiceBody = strictObject({ slug: Slug });

export const PayInvoiceRequest = strictObject({
  slug: Slug,
  /** The amount the payer was shown; it must still be the amount remaining. */
  amount: PaymentAmount,
  paymentMethod: PaymentMethodDetails,
});

/** What a payer sees of an invoice: no ids, no slug, no customer or merchant internals. */
export const PayInvoiceView = annotate(
  strictObject({
    merchantName: string(),
    invoiceNumber: string(),
    status: enumOf([
      InvoiceStatus.issued,
      InvoiceStatus.partially_paid,
      InvoiceStatus.paid,
      InvoiceStatus.void,
    ]),
    currency: enumOf(Currency),
    lineItems: array(
      strictObject({
        description: string(),
        quantity: integer(),
        unitAmount: integer(),
        lineTotal: integer(),
      }),
    ),
    productTotal: Money,
    total: Money,
    amountPaid: Money,
    amountRemaining: Money,
    dueDate: nullable(Timestamp),
    paidAt: nullable(Timestamp),
    acceptedPaymentMethods: array(enumOf(PaymentMethodType)),
  }),
  { id: 'PayInvoiceView' },
);

export const PayPaymentView = annotate(
  strictObject({
    paymentId: PaymentId,
    status: enumOf([PaymentStatus.completed, PaymentStatus.declined]),
    amount: PaymentAmount,
    currency: enumOf(Currency),
    paymentMethodType: enumOf(PaymentMethodType),
    declineCode: annotate(nullable(literal(PayerDecline.code)), {
      description:
        "The same for every decline: the processor's reason is shown to the merchant only (GET /payments/{paymentId}, payments.PaymentDeclined).",
    }),
    declineMessage: annotate(nullable(literal(PayerDecline.message)), {
      description: 'The same for every decline, whatever the reason.',
    }),
    createdAt: Timestamp,
  }),
  { id: 'PayPaymentView' },
);

export const PayInvoiceResult = annotate(strictObject({ payment: PayPaymentView, invoice: PayInvoiceView }), {
  id: 'PayInvoiceResult',
});

/** The hosted pay page is HTML. */
export const PayPage = annotate(string(), { description: 'The hosted pay page (HTML).' });
