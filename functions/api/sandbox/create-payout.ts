import { newId } from '../../domain/ids';
import { inShard, shardForNewItem } from '../../domain/merchant-shards';
import { newPayout, payoutCreatedEvent } from '../../domain/payment';
import { isoTimestamp } from '../../domain/time';
import { httpHandler } from '../../http/http-handler';
import { sandboxProcessor } from '../../payments/processor-for-stage';
import { buildPutEvent } from '../../store/events';
import { commitWithIdempotency } from '../../store/idempotency';
import { buildPutPayout } from '../../store/payments';
import { sandboxRoutes } from './routes';

/** A simulated payout to the merchant's sandbox payout account, less the sandbox fee; one transaction. */
export const handler = httpHandler(
  sandboxRoutes.createSandboxPayout,
  async ({ body, idempotency, now, merchantShards }) => {
    const processor = sandboxProcessor();
    const payout = newPayout({
      payoutId: inShard(newId('po'), shardForNewItem(merchantShards, now)),
      merchantId: body.merchantId,
      payoutAccountId: processor.payoutAccountId(body.merchantId),
      processor: processor.name,
      grossAmount: body.amount,
      currency: body.currency,
      now: isoTimestamp(now),
    });
    return commitWithIdempotency(idempotency, { status: 201, body: payout }, [
      buildPutPayout(payout),
      buildPutEvent(payoutCreatedEvent(payout, newId('evt')), idempotency.requestId),
    ]);
  },
);
