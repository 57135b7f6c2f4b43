import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { deliveryIdFor, newDelivery } from '../../../functions/domain/webhook-delivery';
import { documentClient } from '../../../functions/store/client';
import { buildPutNewDelivery, claimDelivery } from '../../../functions/store/webhook-deliveries';
import { useFreshTable } from '../../support/table-environment';

beforeAll(async () => {
  await useFreshTable();
});

/** A pending delivery written as the router writes it, and the key it was written under. */
async function pendingDelivery() {
  const eventId = newId('evt');
  const webhookEndpointId = newId('whk');
  const delivery = newDelivery({
    webhookDeliveryId: deliveryIdFor(eventId, webhookEndpointId),
    webhookEndpointId,
    merchantId: newId('mer'),
    eventId,
    eventType: EventType.payoutCreated,
    data: { payoutId: newId('po') },
    paused: false,
    now: new Date().toISOString(),
  });
  const put = buildPutNewDelivery(delivery, new Date().toISOString(), []);
  await documentClient().send(new PutCommand(put));
  return { delivery, key: { PK: put.Item.PK, SK: put.Item.SK } };
}

// Here, and not through a runtime: a runtime's own dispatcher would race the test for the lease.
describe('claimDelivery and retention', () => {
  it('never leases a delivery whose ttl has passed for an attempt, and leases it while kept', async () => {
    const { delivery, key } = await pendingDelivery();
    const setTtl = (ttl: number) =>
      documentClient().send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: key,
          UpdateExpression: 'SET #ttl = :ttl',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':ttl': ttl },
        }),
      );
    const lease = () =>
      claimDelivery(
        {
          webhookEndpointId: delivery.webhookEndpointId,
          webhookDeliveryId: delivery.webhookDeliveryId,
          attemptCount: 0,
        },
        0,
        new Date(),
        new Date(Date.now() + 60_000),
      );
    const nowSeconds = Math.floor(Date.now() / 1000);
    await setTtl(nowSeconds - 1);
    expect(await lease()).toBeUndefined();
    await setTtl(nowSeconds + 3600);
    expect((await lease())?.webhookDeliveryId).toBe(delivery.webhookDeliveryId);
  });
});
