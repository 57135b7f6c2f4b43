import { isLive } from '../../domain/webhook-endpoint';
import { NotFoundError } from '../../http/errors';
import { TransactionConditionFailed } from '../../store/transaction';
import { getEndpoint, type StoredWebhookEndpoint } from '../../store/webhook-endpoints';

/**
 * The live endpoint a path names; a deleted or another merchant's endpoint is 404
 * (docs/decisions/endpoint-management.md).
 */
export async function liveEndpoint(
  merchantId: string,
  webhookEndpointId: string,
): Promise<StoredWebhookEndpoint> {
  return liveOrNotFound(await getEndpoint(merchantId, webhookEndpointId));
}

/** The endpoint as read, when it exists and is not deleted; otherwise the same 404 as `liveEndpoint`. */
export function liveOrNotFound(stored: StoredWebhookEndpoint | undefined): StoredWebhookEndpoint {
  if (stored === undefined || !isLive(stored.endpoint))
    throw new NotFoundError('The webhook endpoint does not exist.');
  return stored;
}

/** Reads of the endpoint a change may take when it keeps finding the endpoint changed under it. */
const maxEndpointReads = 3;

/**
 * Runs `change` on the live endpoint, whose first transaction item is the endpoint's own write. When
 * the endpoint changed between read and write (another update, a sandbox simulation counting down,
 * or the dispatcher recording the endpoint's health), the change runs again on a fresh read rather
 * than failing the request.
 */
export async function changeLiveEndpoint<T>(
  merchantId: string,
  webhookEndpointId: string,
  change: (stored: StoredWebhookEndpoint) => Promise<T>,
): Promise<T> {
  for (let read = 1; ; read += 1) {
    const stored = await liveEndpoint(merchantId, webhookEndpointId);
    try {
      return await change(stored);
    } catch (error) {
      const raced = error instanceof TransactionConditionFailed && error.failureAt(0) !== undefined;
      if (!raced || read >= maxEndpointReads) throw error;
    }
  }
}
