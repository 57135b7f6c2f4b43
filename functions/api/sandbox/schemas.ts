import { Currency, maxAmount } from '../../domain/money';
import { ValidationMessage } from '../../http/validation-messages';
import { annotate, enumOf, integer, optional, refine, strictObject, string } from '../../schema';
import { PaymentAmount, PaymentMethodDetails } from '../payment-schemas';
import { CustomerId, MerchantId, PriceId, ProductId, Timestamp, typeIdSchema } from '../shared-schemas';

// Named on the one that is missing, as any other required field would be. The outer rule carries
// the pair's keywords for both directions, since one schema holds one `dependentRequired`.
export const CreateSandboxPaymentBody = refine(
  refine(
    strictObject({
      merchantId: MerchantId,
      customerId: CustomerId,
      amount: PaymentAmount,
      currency: enumOf(Currency),
      paymentMethod: PaymentMethodDetails,
      /** The price paid for (payments.PaymentCreated `priceId`): productId and priceId together, or neither. */
      productId: optional(ProductId),
      priceId: optional(PriceId),
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

export const RefundSandboxPaymentBody = strictObject({
  merchantId: MerchantId,
  /** Default: everything not refunded yet. */
  amount: optional(PaymentAmount),
});

export const CreateSandboxPayoutBody = strictObject({
  merchantId: MerchantId,
  amount: annotate(PaymentAmount, { description: 'The gross amount, in minor units.' }),
  currency: enumOf(Currency),
});

const Amount = integer({ min: 0, max: maxAmount });

export const Payout = annotate(
  strictObject({
    payoutId: typeIdSchema('po'),
    merchantId: MerchantId,
    payoutAccountId: typeIdSchema('pacct'),
    processor: string(),
    grossAmount: Amount,
    feeAmount: Amount,
    netAmount: Amount,
    currency: enumOf(Currency),
    createdAt: Timestamp,
  }),
  { id: 'Payout' },
);
