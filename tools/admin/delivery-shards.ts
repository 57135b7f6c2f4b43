import { type DeliveryShardHistory, raiseDeliveryShards } from '../../functions/domain/delivery-shards';
import { isLive } from '../../functions/domain/webhook-endpoint';
import { sendTransaction, TransactionConditionFailed } from '../../functions/store/transaction';
import {
  buildReplaceEndpoint,
  getDeliveriesMarker,
  getEndpoint,
} from '../../functions/store/webhook-endpoints';
import { AdminError, refusedAsAdminError } from './operations';

export interface RaisedDeliveryShards {
  readonly webhookEndpointId: string;
  readonly merchantId: string;
  readonly deliveryShards: DeliveryShardHistory;
}

/**
 * Raises how many partitions an endpoint's deliveries spread over, from ten minutes after now (see
 * `raiseDeliveryShards`). The endpoint is found through its deliveries marker, or through the
 * merchant when given (an endpoint written before markers existed has none; this write adds it).
 * The same count again writes nothing and prints the history as it is.
 */
export async function raiseDeliveryShardCount(
  webhookEndpointId: string,
  count: number,
  options: { merchantId?: string | undefined; now?: Date } = {},
): Promise<RaisedDeliveryShards> {
  const merchantId = options.merchantId ?? (await getDeliveriesMarker(webhookEndpointId))?.merchantId;
  const stored = merchantId === undefined ? undefined : await getEndpoint(merchantId, webhookEndpointId);
  if (merchantId === undefined || stored === undefined) {
    const hint =
      options.merchantId === undefined ? ' (an endpoint older than its marker needs --merchant)' : '';
    throw new AdminError(`endpoint ${webhookEndpointId} does not exist${hint}`);
  }
  if (!isLive(stored.endpoint)) throw new AdminError(`endpoint ${webhookEndpointId} is deleted`);
  const deliveryShards = refusedAsAdminError(() =>
    raiseDeliveryShards(stored.deliveryShards, count, options.now ?? new Date()),
  );
  if (deliveryShards !== stored.deliveryShards) {
    try {
      await sendTransaction(
        buildReplaceEndpoint(stored, {
          endpoint: stored.endpoint,
          sealedSigningSecret: stored.sealedSigningSecret,
          deliveryShards,
        }),
      );
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      throw new AdminError(`endpoint ${webhookEndpointId} changed while it was read: run the command again`, {
        cause: error,
      });
    }
  }
  return { webhookEndpointId, merchantId, deliveryShards };
}
