import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../../functions/domain/ids';
import { EventType } from '../../functions/domain/invoice';
import { newDelivery, type WebhookDelivery } from '../../functions/domain/webhook-delivery';
import { documentClient } from '../../functions/store/client';
import { buildPutNewDelivery } from '../../functions/store/webhook-deliveries';

/**
 * Puts a delivery of a fresh event and endpoint into the current table, as the router would, due
 * at `dueAt`; `overrides` set the state under test (attempts, status, paused). It is created at
 * `createdAt`, or at `dueAt` when not given.
 */
export async function storeDelivery(
  overrides: Partial<WebhookDelivery>,
  dueAt: string,
  createdAt: string = dueAt,
): Promise<WebhookDelivery> {
  const delivery = {
    ...newDelivery({
      webhookDeliveryId: newId('whkdel'),
      webhookEndpointId: newId('whk'),
      merchantId: newId('mer'),
      eventId: newId('evt'),
      eventType: EventType.invoicePaid,
      data: {},
      paused: false,
      now: createdAt,
    }),
    ...overrides,
  };
  await documentClient().send(new PutCommand(buildPutNewDelivery(delivery, dueAt)));
  return delivery;
}
