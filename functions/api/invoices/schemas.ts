import { z } from 'zod';
import { AdjustmentType, InvoiceStatus, PaymentMethodType } from '../../domain/invoice';
import { Currency, maxAmount } from '../../domain/money';
import { ValidationMessage } from '../../http/validation-messages';
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

const Amount = z.number().int().min(0).max(maxAmount);

const ProductChargeLine = z.strictObject({
  kind: z.literal('product_charge'),
  productId: ProductId,
  priceId: PriceId,
  description: z.string(),
  quantity: z.number().int(),
  unitAmount: Amount,
  lineTotal: Amount,
});

const ManualAdjustmentLine = z.strictObject({
  kind: z.literal('manual_adjustment'),
  adjustmentType: z.enum(AdjustmentType),
  description: z.string(),
  quantity: z.literal(1),
  unitAmount: Amount,
  lineTotal: Amount,
});

export const LineItem = z
  .discriminatedUnion('kind', [ProductChargeLine, ManualAdjustmentLine])
  .meta({ id: 'LineItem' });

export const Invoice = z
  .strictObject({
    invoiceId: InvoiceId,
    invoiceNumber: z.string().meta({ example: 'INV-000001' }),
    invoiceUrlSlug: z
      .string()
      .meta({ description: 'Secret pay-link token; never log or expose it publicly.' }),
    idempotencyKey: z.string(),
    merchantId: MerchantId,
    customerId: CustomerId,
    currentRevisionNumber: z.number().int().min(1).max(maxAmount),
    status: z.enum(InvoiceStatus),
    currency: z.enum(Currency),
    lineItems: z.array(LineItem),
    productTotal: Money,
    total: Money,
    amountPaid: Money,
    amountRemaining: Money,
    acceptedPaymentMethods: z.array(z.enum(PaymentMethodType)),
    additionalNotificationEmails: z.array(z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    dueDate: Timestamp.optional(),
    paidAt: Timestamp.optional(),
    notes: z.string().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'Invoice' });

/** DESIGN §4: product_charge takes its amount from the price; quantity 1–1,000,000. */
const ProductChargeInput = z.strictObject({
  kind: z.literal('product_charge'),
  productId: ProductId,
  priceId: PriceId,
  description: z.string().trim().min(1).max(500).optional(),
  quantity: z.number().int().min(1).max(1_000_000),
});

/** DESIGN §4: a merchant-calculated amount (tax, shipping, fee, other), ≥ 0. */
const ManualAdjustmentInput = z.strictObject({
  kind: z.literal('manual_adjustment'),
  adjustmentType: z.enum(AdjustmentType),
  description: z.string().trim().min(1).max(500),
  amount: Amount,
});

/** DESIGN §4: ≤ 50 keys of ≤ 40 characters, string values of ≤ 500 characters. */
const maxMetadataKeys = 50;
const Metadata = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((metadata) => Object.keys(metadata).length <= maxMetadataKeys, {
    message: ValidationMessage.atMostKeys(maxMetadataKeys),
  });

const allPaymentMethods = Object.values(PaymentMethodType);

export const CreateInvoiceBody = z.strictObject({
  merchantId: MerchantId,
  customerId: CustomerId,
  currency: z.enum(Currency),
  lineItems: z
    .array(z.discriminatedUnion('kind', [ProductChargeInput, ManualAdjustmentInput]))
    .min(1)
    .max(100),
  dueDate: Timestamp.optional(),
  notes: z.string().max(2000).optional(),
  metadata: Metadata.optional(),
  acceptedPaymentMethods: z
    .array(z.enum(PaymentMethodType))
    .min(1)
    .refine((methods) => new Set(methods).size === methods.length, { message: ValidationMessage.noRepeats })
    .default(allPaymentMethods),
  additionalNotificationEmails: z.array(EmailAddress).max(10).default([]),
});

export type CreateInvoiceBody = z.infer<typeof CreateInvoiceBody>;

export const InvoicePathParams = z.strictObject({ id: InvoiceId });

export const InvoiceQuery = z.strictObject({ merchantId: MerchantId });

export const ListInvoicesQuery = z.strictObject({
  ...ListQuery,
  status: z.enum(InvoiceStatus).optional(),
  customerId: CustomerId.optional(),
});

/** DESIGN §4 "Bodies of the lifecycle routes". */
export const RecordPaymentBody = z.strictObject({
  merchantId: MerchantId,
  amount: z.number().int().min(1).max(maxAmount),
  reference: z.string().trim().min(1).max(200).optional(),
});
