import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../../functions/domain/ids';
import { EventType } from '../../functions/domain/invoice';
import {
  DeliveryStatus,
  deliveryIdFor,
  newDelivery,
  type WebhookDelivery,
} from '../../functions/domain/webhook-delivery';
import { newWebhookEndpoint } from '../../functions/domain/webhook-endpoint';
import { newRecovery, type StoredRecovery } from '../../functions/domain/webhook-recovery';
import { documentClient, tableName } from '../../functions/store/client';
import { keys } from '../../functions/store/keys';
import { sendTransaction } from '../../functions/store/transaction';
import { buildPutNewDelivery } from '../../functions/store/webhook-deliveries';
import { buildPutNewEndpoint } from '../../functions/store/webhook-endpoints';
import { buildStartRecovery } from '../../functions/store/webhook-recoveries';

/**
 * An active endpoint of a fresh merchant, and one exhausted delivery to it of a new event: what a
 * recovery of the last two hours redelivers.
 */
export async function storeEndpointWithExhaustedDelivery(): Promise<{
  merchantId: string;
  endpointId: string;
  exhausted: WebhookDelivery;
}> {
  const merchantId = newId('mer');
  const endpointId = newId('whk');
  const endpoint = newWebhookEndpoint({
    webhookEndpointId: endpointId,
    merchantId,
    url: 'https://hooks.example.com/orders',
    eventTypes: [EventType.invoicePaid],
    now: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
  });
  await sendTransaction([...buildPutNewEndpoint(endpoint, 'sealed')]);
  const eventId = newId('evt');
  const exhausted: WebhookDelivery = {
    ...newDelivery({
      webhookDeliveryId: deliveryIdFor(eventId, endpointId),
      webhookEndpointId: endpointId,
      merchantId,
      eventId,
      eventType: EventType.invoicePaid,
      data: { invoiceId: 'inv_1' },
      paused: false,
      objectVersion: 1,
      now: new Date().toISOString(),
    }),
    status: DeliveryStatus.exhausted,
    attemptCount: 5,
  };
  await documentClient().send(new PutCommand(buildPutNewDelivery(exhausted, exhausted.createdAt, [])));
  return { merchantId, endpointId, exhausted };
}

/**
 * A recovery of the endpoint's deliveries from `since` to now, started (its record and the
 * endpoint's lock written, as the route writes them) at `startedAt` and never advanced since.
 */
export async function storeRunningRecovery(input: {
  merchantId: string;
  endpointId: string;
  since: Date;
  startedAt: Date;
}): Promise<StoredRecovery> {
  const stored = newRecovery({
    recoveryId: newId('whkrec'),
    webhookEndpointId: input.endpointId,
    merchantId: input.merchantId,
    url: 'https://hooks.example.com/orders',
    since: input.since.toISOString(),
    until: new Date().toISOString(),
    now: input.startedAt.toISOString(),
  });
  await sendTransaction([...buildStartRecovery(stored)]);
  return stored;
}

/** The recovery's record as stored, index keys included (what a stream record's new image holds). */
export async function recoveryItemOf(
  merchantId: string,
  recoveryId: string,
): Promise<Record<string, unknown>> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.webhookRecovery(merchantId, recoveryId),
      ConsistentRead: true,
    }),
  );
  if (Item === undefined) throw new Error(`no recovery ${recoveryId}`);
  return Item;
}
