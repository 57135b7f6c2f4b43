import * as z from 'zod/mini';
import { AdjustmentType, InvoiceStatus, PaymentMethodType } from '../../domain/invoice';
import { EmailKind, EmailStatus } from '../../domain/invoice-email';
import { Currency, maxAmount } from '../../domain/money';
import { ValidationMessage } from '../../http/validation-messages';
import { integer } from '../../validation/integer';
import { keyRecord } from '../../validation/key-record';
import { list } from '../../validation/list';
import { rule } from '../../validation/rule';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import {
  CustomerId,
  EmailAddress,
  InvoiceId,
  ListQuery,
  MerchantId,
  Money,
  PriceId,
  ProductId,
  Timestamp,
  typeIdSchema,
} from '../shared-schemas';

const Amount = integer({ min: 0, max: maxAmount });

const ProductChargeLine = z.strictObject({
  kind: z.literal('product_charge'),
  productId: ProductId,
  priceId: PriceId,
  description: text(),
  quantity: integer(),
  unitAmount: Amount,
  lineTotal: Amount,
});

const ManualAdjustmentLine = z.strictObject({
  kind: z.literal('manual_adjustment'),
  adjustmentType: z.enum(AdjustmentType),
  description: text(),
  quantity: z.literal(1),
  unitAmount: Amount,
  lineTotal: Amount,
});

export const LineItem = documented(z.discriminatedUnion('kind', [ProductChargeLine, ManualAdjustmentLine]), {
  id: 'LineItem',
});

export const Invoice = documented(
  z.strictObject({
    invoiceId: InvoiceId,
    invoiceNumber: documented(text(), { example: 'INV-000001' }),
    invoiceUrlSlug: documented(text(), {
      description: 'Secret pay-link token; never log or expose it publicly.',
    }),
    idempotencyKey: text(),
    merchantId: MerchantId,
    customerId: CustomerId,
    currentRevisionNumber: integer({ min: 1, max: maxAmount }),
    status: z.enum(InvoiceStatus),
    currency: z.enum(Currency),
    lineItems: z.array(LineItem),
    productTotal: Money,
    total: Money,
    amountPaid: Money,
    amountRemaining: Money,
    acceptedPaymentMethods: z.array(z.enum(PaymentMethodType)),
    additionalNotificationEmails: z.array(text()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    dueDate: z.optional(Timestamp),
    paidAt: z.optional(Timestamp),
    notes: z.optional(text()),
    metadata: z.optional(keyRecord(text(), text())),
  }),
  { id: 'Invoice' },
);

/**
 * A product_charge takes its amount from the price; quantity 1–1,000,000 (docs/decisions/invoice-create.md).
 */
const ProductChargeInput = z.strictObject({
  kind: z.literal('product_charge'),
  productId: ProductId,
  priceId: PriceId,
  description: z.optional(text({ trim: true, min: 1, max: 500 })),
  quantity: integer({ min: 1, max: 1_000_000 }),
});

/** A merchant-calculated amount (tax, shipping, fee, other), ≥ 0 (docs/decisions/invoice-create.md). */
const ManualAdjustmentInput = z.strictObject({
  kind: z.literal('manual_adjustment'),
  adjustmentType: z.enum(AdjustmentType),
  description: text({ trim: true, min: 1, max: 500 }),
  amount: Amount,
});

/** ≤ 50 keys of ≤ 40 characters, string values of ≤ 500 characters (docs/decisions/metadata-keys.md). */
const maxMetadataKeys = 50;
/**
 * Keys are plain names: letters, digits and `_ . : -`. The three names JavaScript objects reserve
 * are refused, since one would be dropped (`__proto__`) or break storing (`constructor`).
 */
const MetadataKey = text({
  min: 1,
  max: 40,
  pattern: /^[A-Za-z0-9_.:-]+$/,
  notPattern: /^(?:__proto__|constructor|prototype)$/,
  patternMessage: ValidationMessage.metadataKey,
});
const Metadata = rule(
  keyRecord(MetadataKey, text({ max: 500 })),
  (metadata) =>
    Object.keys(metadata).length <= maxMetadataKeys
      ? undefined
      : ValidationMessage.atMostKeys(maxMetadataKeys),
  { keywords: { maxProperties: maxMetadataKeys } },
);

const allPaymentMethods = Object.values(PaymentMethodType);

export const CreateInvoiceBody = z.strictObject({
  merchantId: MerchantId,
  customerId: CustomerId,
  currency: z.enum(Currency),
  lineItems: list(z.discriminatedUnion('kind', [ProductChargeInput, ManualAdjustmentInput]), {
    min: 1,
    max: 100,
  }),
  dueDate: z.optional(Timestamp),
  notes: z.optional(text({ max: 2000 })),
  metadata: z.optional(Metadata),
  acceptedPaymentMethods: z._default(
    rule(
      // No more methods than there are: an array's maximum is checked before its items.
      list(z.enum(PaymentMethodType), { min: 1, max: Object.keys(PaymentMethodType).length }),
      (methods) => (new Set(methods).size === methods.length ? undefined : ValidationMessage.noRepeats),
      { keywords: { uniqueItems: true } },
    ),
    allPaymentMethods,
  ),
  additionalNotificationEmails: z._default(list(EmailAddress, { max: 10 }), []),
});

export type CreateInvoiceBody = z.output<typeof CreateInvoiceBody>;

export const InvoicePathParams = z.strictObject({ id: InvoiceId });

export const InvoiceQuery = z.strictObject({ merchantId: MerchantId });

export const ListInvoicesQuery = z.strictObject({
  ...ListQuery,
  status: z.optional(z.enum(InvoiceStatus)),
  customerId: z.optional(CustomerId),
});

/** `{merchantId, amount ≥ 1, reference?}` (docs/decisions/invoice-lifecycle.md). */
export const RecordPaymentBody = z.strictObject({
  merchantId: MerchantId,
  amount: integer({ min: 1, max: maxAmount }),
  reference: z.optional(text({ trim: true, min: 1, max: 200 })),
});

const EmailId = typeIdSchema('eml');

export const InvoiceEmailPathParams = z.strictObject({ id: InvoiceId, emailId: EmailId });

export const ListInvoiceEmailsQuery = z.strictObject(ListQuery);

/** An email an invoice's event sent, or would have (docs/emails.md): never its body or the pay link. */
export const InvoiceEmail = documented(
  z.strictObject({
    emailId: EmailId,
    invoiceId: InvoiceId,
    kind: z.enum(EmailKind),
    recipient: EmailAddress,
    recipientRole: z.enum({ customer: 'customer', additional: 'additional' }),
    status: z.enum(EmailStatus),
    statusReason: z.nullable(text()),
    attemptCount: integer({ min: 0 }),
    providerMessageId: z.nullable(text()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    sentAt: z.nullable(Timestamp),
  }),
  { description: 'An email to a customer or an additional address of the invoice' },
);

/**
 * One email, and what a stage that captures instead of sending (the deployed sandbox) rendered of
 * it: the subject, text and HTML production would send. Null where the email was sent or not made.
 */
export const InvoiceEmailDetail = z.strictObject({
  ...InvoiceEmail.shape,
  rendered: z.nullable(z.strictObject({ subject: text(), text: text(), html: text() })),
});
