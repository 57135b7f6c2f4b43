import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../../functions/domain/ids';
import { EventType } from '../../functions/domain/invoice';
import { newDelivery, type WebhookDelivery } from '../../functions/domain/webhook-delivery';
import { newWebhookEndpoint, type WebhookEndpoint } from '../../functions/domain/webhook-endpoint';
import { secretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { documentClient } from '../../functions/store/client';
import { buildPutNewDelivery } from '../../functions/store/webhook-deliveries';
import { buildPutNewEndpoint } from '../../functions/store/webhook-endpoints';

/** A new active endpoint of `merchantId` at `url`, subscribed to invoices.InvoicePaid, made at `now`. */
export function invoicePaidEndpoint(merchantId: string, now: string, url = 'https://hooks.example.com/x') {
  return newWebhookEndpoint({
    webhookEndpointId: newId('whk'),
    merchantId,
    url,
    eventTypes: [EventType.invoicePaid],
    now,
  });
}

/**
 * An endpoint subscribed to invoices.InvoicePaid, stored as the create route stores it (secret
 * sealed), and one pending delivery of it due at `now`: what a dispatcher test attempts.
 */
export async function storedEndpointWithDelivery(input: {
  merchantId: string;
  url: string;
  secret: string;
  now: Date;
  status?: WebhookEndpoint['status'];
}): Promise<{ endpoint: WebhookEndpoint; delivery: WebhookDelivery }> {
  const endpoint = {
    ...invoicePaidEndpoint(input.merchantId, input.now.toISOString(), input.url),
    status: input.status ?? 'active',
  };
  const sealed = await secretSealer().seal(input.secret, {
    merchantId: input.merchantId,
    webhookEndpointId: endpoint.webhookEndpointId,
  });
  for (const { Put } of buildPutNewEndpoint(endpoint, sealed))
    await documentClient().send(new PutCommand(Put));
  const delivery = newDelivery({
    webhookDeliveryId: newId('whkdel'),
    webhookEndpointId: endpoint.webhookEndpointId,
    merchantId: input.merchantId,
    eventId: newId('evt'),
    eventType: EventType.invoicePaid,
    data: { invoiceId: 'inv_1' },
    paused: false,
    now: input.now.toISOString(),
  });
  await documentClient().send(new PutCommand(buildPutNewDelivery(delivery, input.now.toISOString(), [])));
  return { endpoint, delivery };
}
