import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import { createReconciler } from '../../../functions/delivery/reconciler';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { newDelivery, type WebhookDelivery } from '../../../functions/domain/webhook-delivery';
import { documentClient } from '../../../functions/store/client';
import { buildPutNewDelivery } from '../../../functions/store/webhook-deliveries';
import { useFreshTable } from '../../support/table-environment';

const now = new Date('2026-11-22T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

beforeEach(async () => {
  await useFreshTable();
});

async function stored(overrides: Partial<WebhookDelivery>, dueAt: string) {
  const delivery = {
    ...newDelivery({
      webhookDeliveryId: newId('whkdel'),
      webhookEndpointId: newId('whk'),
      merchantId: newId('mer'),
      eventId: newId('evt'),
      eventType: EventType.invoicePaid,
      data: {},
      paused: false,
      now: dueAt,
    }),
    ...overrides,
  };
  await documentClient().send(new PutCommand(buildPutNewDelivery(delivery, dueAt)));
  return delivery;
}

describe('reconciler', () => {
  it('re-enqueues pending deliveries whose attempt is overdue, and nothing else', async () => {
    const lost = await stored({ attemptCount: 2 }, minutesAgo(10));
    await stored({}, minutesAgo(1));
    await stored({ paused: true }, minutesAgo(10));
    await stored({ status: 'succeeded', attemptCount: 1 }, minutesAgo(10));
    await stored({ status: 'exhausted', attemptCount: 5 }, minutesAgo(10));
    const sent: { message: DeliveryMessage; delaySeconds: 0 | undefined }[] = [];
    const reconcile = createReconciler({
      queue: { send: async (message, delaySeconds) => void sent.push({ message, delaySeconds }) },
      now: () => now,
    });
    expect(await reconcile()).toEqual({ requeued: 1 });
    expect(sent).toEqual([
      {
        message: {
          webhookEndpointId: lost.webhookEndpointId,
          webhookDeliveryId: lost.webhookDeliveryId,
          attemptCount: 2,
        },
        delaySeconds: 0,
      },
    ]);
  });
});
