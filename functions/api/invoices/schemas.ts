import { AdjustmentType, InvoiceStatus, PaymentMethodType } from '../../domain/invoice';
import { Currency, maxAmount } from '../../domain/money';
import { ValidationMessage } from '../../http/validation-messages';
import {
  annotate,
  array,
  discriminatedUnion,
  enumOf,
  type Infer,
  integer,
  literal,
  optional,
  record,
  refine,
  strictObject,
  string,
  withDefault,
} from '../../schema';
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
} from '../shared-schemas';

const Amount = integer({ min: 0, max: maxAmount });

const ProductChargeLine = strictObject({
  kind: literal('product_charge'),
  productId: ProductId,
  priceId: PriceId,
  description: string(),
  quantity: integer(),
  unitAmount: Amount,
  lineTotal: Amount,
});

const ManualAdjustmentLine = strictObject({
  kind: literal('manual_adjustment'),
  adjustmentType: enumOf(AdjustmentType),
  description: string(),
  quantity: literal(1),
  unitAmount: Amount,
  lineTotal: Amount,
});

export const LineItem = annotate(discriminatedUnion('kind', [ProductChargeLine, ManualAdjustmentLine]), {
  id: 'LineItem',
});

export const Invoice = annotate(
  strictObject({
    invoiceId: InvoiceId,
    invoiceNumber: annotate(string(), { example: 'INV-000001' }),
    invoiceUrlSlug: annotate(string(), {
      description: 'Secret pay-link token; never log or expose it publicly.',
    }),
    idempotencyKey: string(),
    merchantId: MerchantId,
    customerId: CustomerId,
    currentRevisionNumber: integer({ min: 1, max: maxAmount }),
    status: enumOf(InvoiceStatus),
    currency: enumOf(Currency),
    lineItems: array(LineItem),
    productTotal: Money,
    total: Money,
    amountPaid: Money,
    amountRemaining: Money,
    acceptedPaymentMethods: array(enumOf(PaymentMethodType)),
    additionalNotificationEmails: array(string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    dueDate: optional(Timestamp),
    paidAt: optional(Timestamp),
    notes: optional(string()),
    metadata: optional(record(string(), string())),
  }),
  { id: 'Invoice' },
);

/** DESIGN §4: product_charge takes its amount from the price; quantity 1–1,000,000. */
const ProductChargeInput = strictObject({
  kind: literal('product_charge'),
  productId: ProductId,
  priceId: PriceId,
  description: optional(string({ trim: true, min: 1, max: 500 })),
  quantity: integer({ min: 1, max: 1_000_000 }),
});

/** DESIGN §4: a merchant-calculated amount (tax, shipping, fee, other), ≥ 0. */
const ManualAdjustmentInput = strictObject({
  kind: literal('manual_adjustment'),
  adjustmentType: enumOf(AdjustmentType),
  description: string({ trim: true, min: 1, max: 500 }),
  amount: Amount,
});

/** DESIGN §4: ≤ 50 keys of ≤ 40 characters, string values of ≤ 500 characters. */
const maxMetadataKeys = 50;
/**
 * Keys are plain names: letters, digits and `_ . : -`. The three names JavaScript objects reserve
 * are refused, since one would be dropped (`__proto__`) or break storing (`constructor`).
 */
const MetadataKey = string({
  min: 1,
  max: 40,
  pattern: /^[A-Za-z0-9_.:-]+$/,
  notPattern: /^(?:__proto__|constructor|prototype)$/,
  patternMessage: ValidationMessage.metadataKey,
});
const Metadata = refine(
  record(MetadataKey, string({ max: 500 })),
  (metadata) =>
    Object.keys(metadata).length <= maxMetadataKeys
      ? undefined
      : ValidationMessage.atMostKeys(maxMetadataKeys),
  { keywords: { maxProperties: maxMetadataKeys } },
);

const allPaymentMethods = Object.values(PaymentMethodType);

export const CreateInvoiceBody = strictObject({
  merchantId: MerchantId,
  customerId: CustomerId,
  currency: enumOf(Currency),
  lineItems: array(discriminatedUnion('kind', [ProductChargeInput, ManualAdjustmentInput]), {
    min: 1,
    max: 100,
  }),
  dueDate: optional(Timestamp),
  notes: optional(string({ max: 2000 })),
  metadata: optional(Metadata),
  acceptedPaymentMethods: withDefault(
    refine(
      array(enumOf(PaymentMethodType), { min: 1 }),
      (methods) => (new Set(methods).size === methods.length ? undefined : ValidationMessage.noRepeats),
      { keywords: { uniqueItems: true } },
    ),
    allPaymentMethods,
  ),
  additionalNotificationEmails: withDefault(array(EmailAddress, { max: 10 }), []),
});

export type CreateInvoiceBody = Infer<typeof CreateInvoiceBody>;

export const InvoicePathParams = strictObject({ id: InvoiceId });

export const InvoiceQuery = strictObject({ merchantId: MerchantId });

export const ListInvoicesQuery = strictObject({
  ...ListQuery,
  status: optional(enumOf(InvoiceStatus)),
  customerId: optional(CustomerId),
});

/** DESIGN §4 "Bodies of the lifecycle routes". */
export const RecordPaymentBody = strictObject({
  merchantId: MerchantId,
  amount: integer({ min: 1, max: maxAmount }),
  reference: optional(string({ trim: true, min: 1, max: 200 })),
});
