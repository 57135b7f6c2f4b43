import { z } from 'zod';
import { InvoiceStatus, PaymentMethodType } from '../../domain/invoice';
import { Currency } from '../../domain/money';
import { PaymentStatus } from '../../domain/payment';
import { PaymentAmount, PaymentId, PaymentMethodDetails } from '../payment-schemas';
import { Money, Timestamp } from '../shared-schemas';

/**
 * The pay-link slug travels only in JSON bodies (DESIGN §4). Any string up to this length is looked
 * up; one that names nothing is a neutral 404, never a hint about its form.
 */
const Slug = z.string().min(1).max(256).meta({ description: 'The invoiceUrlSlug from the pay link.' });

export const PayInvoiceBody = z.strictObject({ slug: Slug });

export const PayInvoiceRequest = z.strictObject({
  slug: Slug,
  /** The amount the payer was shown; it must still be the amount remaining. */
  amount: PaymentAmount,
  paymentMethod: PaymentMethodDetails,
});

/** What a payer sees of an invoice: no ids, no slug, no customer or merchant internals. */
export const PayInvoiceView = z
  .strictObject({
    merchantName: z.string(),
    invoiceNumber: z.string(),
    status: z.enum([
      InvoiceStatus.issued,
      InvoiceStatus.partially_paid,
      InvoiceStatus.paid,
      InvoiceStatus.void,
    ]),
    currency: z.enum(Currency),
    lineItems: z.array(
      z.strictObject({
        description: z.string(),
        quantity: z.number().int(),
        unitAmount: z.number().int(),
        lineTotal: z.number().int(),
      }),
    ),
    productTotal: Money,
    total: Money,
    amountPaid: Money,
    amountRemaining: Money,
    dueDate: Timestamp.nullable(),
    paidAt: Timestamp.nullable(),
    acceptedPaymentMethods: z.array(z.enum(PaymentMethodType)),
  })
  .meta({ id: 'PayInvoiceView' });

export const PayPaymentView = z
  .strictObject({
    paymentId: PaymentId,
    status: z.enum([PaymentStatus.completed, PaymentStatus.declined]),
    amount: PaymentAmount,
    currency: z.enum(Currency),
    paymentMethodType: z.enum(PaymentMethodType),
    declineCode: z.string().nullable(),
    declineMessage: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'PayPaymentView' });

export const PayInvoiceResult = z
  .strictObject({ payment: PayPaymentView, invoice: PayInvoiceView })
  .meta({ id: 'PayInvoiceResult' });

/** The hosted pay page is HTML. */
export const PayPage = z.string().meta({ description: 'The hosted pay page (HTML).' });
