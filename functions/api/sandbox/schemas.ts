import { z } from 'zod';
import { Currency, maxAmount } from '../../domain/money';
import { PriceId, ProductId } from '../catalog/schemas';
import { CustomerId } from '../customers/schemas';
import { PaymentAmount, PaymentMethodDetails } from '../payments/schemas';
import { MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

export const CreateSandboxPaymentBody = z
  .strictObject({
    merchantId: MerchantId,
    customerId: CustomerId,
    amount: PaymentAmount,
    currency: z.enum(Currency),
    paymentMethod: PaymentMethodDetails,
    /** The price paid for (payments.PaymentCreated `priceId`): productId and priceId together, or neither. */
    productId: ProductId.optional(),
    priceId: PriceId.optional(),
  })
  .refine((body) => (body.productId === undefined) === (body.priceId === undefined), {
    message: 'Give productId and priceId together, or neither.',
    path: ['priceId'],
  });

export const RefundSandboxPaymentBody = z.strictObject({
  merchantId: MerchantId,
  /** Default: everything not refunded yet. */
  amount: PaymentAmount.optional(),
});

export const CreateSandboxPayoutBody = z.strictObject({
  merchantId: MerchantId,
  amount: PaymentAmount.meta({ description: 'The gross amount, in minor units.' }),
  currency: z.enum(Currency),
});

const Amount = z.number().int().min(0).max(maxAmount);

export const Payout = z
  .strictObject({
    payoutId: typeIdSchema('po'),
    merchantId: MerchantId,
    payoutAccountId: typeIdSchema('pacct'),
    processor: z.string(),
    grossAmount: Amount,
    feeAmount: Amount,
    netAmount: Amount,
    currency: z.enum(Currency),
    createdAt: Timestamp,
  })
  .meta({ id: 'Payout' });
