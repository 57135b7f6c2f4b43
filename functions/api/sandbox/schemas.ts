import { z } from 'zod';
import { Currency, maxAmount } from '../../domain/money';
import { ValidationMessage } from '../../http/validation-messages';
import { PaymentAmount, PaymentMethodDetails } from '../payment-schemas';
import { CustomerId, MerchantId, PriceId, ProductId, Timestamp, typeIdSchema } from '../shared-schemas';

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
  .superRefine((body, context) => {
    // Named on the one that is missing, as any other required field would be.
    if (body.productId !== undefined && body.priceId === undefined) {
      context.addIssue({
        code: 'custom',
        message: ValidationMessage.requiredWith('priceId', 'productId'),
        path: ['priceId'],
      });
    }
    if (body.priceId !== undefined && body.productId === undefined) {
      context.addIssue({
        code: 'custom',
        message: ValidationMessage.requiredWith('productId', 'priceId'),
        path: ['productId'],
      });
    }
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
