import { isLive } from '../../domain/webhook-endpoint';
import { NotFoundError } from '../../http/errors';
import { getEndpoint, type StoredWebhookEndpoint } from '../../store/webhook-endpoints';

/** The live endpoint a path names; a deleted or another merchant's endpoint is 404 (DESIGN §4). */
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
