import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import { createReconciler } from '../../../functions/delivery/reconciler';
import type { WebhookDelivery } from '../../../functions/domain/webhook-delivery';
import { storeDelivery } from '../../support/stored-deliveries';
import { useFreshTable } from '../../support/table-environment';

const now = new Date('2026-11-22T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

beforeEach(async () => {
  await useFreshTable();
});

function stored(overrides: Partial<WebhookDelivery>, dueAt: string) {
  return storeDelivery(overrides, dueAt);
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
