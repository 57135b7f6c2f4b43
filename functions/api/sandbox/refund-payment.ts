import { httpHandler } from '../../http/http-handler';
import { sandboxProcessor } from '../../payments/processor-for-stage';
import { refundAtOnce } from '../payments/refund-at-once';
import { sandboxRoutes } from './routes';

/**
 * The sandbox's own refund route, kept beside `POST /payments/{paymentId}/refunds` (which does the
 * same in the sandbox) for the merchants' tests written against it.
 */
export const handler = httpHandler(
  sandboxRoutes.refundSandboxPayment,
  async ({ body, params, idempotency, now }) =>
    refundAtOnce(sandboxProcessor(), {
      merchantId: body.merchantId,
      paymentId: params.paymentId,
      amount: body.amount,
      idempotency,
      now,
    }),
);
