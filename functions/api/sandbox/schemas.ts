import * as z from 'zod/mini';
import { Currency, maxAmount } from '../../domain/money';
import { ValidationMessage } from '../../http/validation-messages';
import { integer } from '../../validation/integer';
import { rule } from '../../validation/rule';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import { PaymentAmount, PaymentMethodDetails } from '../payment-schemas';
import { CustomerId, MerchantId, PriceId, ProductId, Timestamp, typeIdSchema } from '../shared-schemas';

// Named on the one that is missing, as any other required field would be. The outer rule carries
// the pair's keywords for both directions, since one schema holds one `dependentRequired`.
export const CreateSandboxPaymentBody = rule(
  rule(
    z.strictObject({
      merchantId: MerchantId,
      customerId: CustomerId,
      amount: PaymentAmount,
      currency: z.enum(Currency),
      paymentMethod: PaymentMethodDetails,
      /** The price paid for (payments.PaymentCreated `priceId`): productId and priceId together, or neither. */
      productId: z.optional(ProductId),
      priceId: z.optional(PriceId),
    }),
    (body) =>
      body.productId !== undefined && body.priceId === undefined
        ? ValidationMessage.requiredWith('priceId', 'productId')
        : undefined,
    { at: 'priceId' },
  ),
  (body) =>
    body.priceId !== undefined && body.productId === undefined
      ? ValidationMessage.requiredWith('productId', 'priceId')
      : undefined,
  { at: 'productId', keywords: { dependentRequired: { productId: ['priceId'], priceId: ['productId'] } } },
);

export const RefundSandboxPaymentBody = z.strictObject({
  merchantId: MerchantId,
  /** Default: everything not refunded yet. */
  amount: z.optional(PaymentAmount),
});

export const CreateSandboxPayoutBody = z.strictObject({
  merchantId: MerchantId,
  amount: documented(PaymentAmount, { description: 'The gross amount, in minor units.' }),
  currency: z.enum(Currency),
});

const Amount = integer({ min: 0, max: maxAmount });

export const Payout = documented(
  z.strictObject({
    payoutId: typeIdSchema('po'),
    merchantId: MerchantId,
    payoutAccountId: typeIdSchema('pacct'),
    processor: text(),
    grossAmount: Amount,
    feeAmount: Amount,
    netAmount: Amount,
    currency: z.enum(Currency),
    createdAt: Timestamp,
  }),
  { id: 'Payout' },
);
