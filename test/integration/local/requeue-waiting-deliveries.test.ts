import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import type { WebhookDelivery } from '../../../functions/domain/webhook-delivery';
import { requeueWaitingDeliveries } from '../../../tools/local/requeue-waiting-deliveries';
import { deliveryIdPerShard, storeDelivery } from '../../support/stored-deliveries';
import { recoveryItemOf, storeRunningRecovery } from '../../support/stored-recoveries';
import { useFreshTable } from '../../support/table-environment';

const now = new Date('2026-11-22T12:00:00.000Z');
const at = (secondsFromNow: number) => new Date(now.getTime() + secondsFromNow * 1000).toISOString();

beforeEach(async () => {
  await useFreshTable();
});

function stored(overrides: Partial<WebhookDelivery>, dueAt: string) {
  return storeDelivery(overrides, dueAt, at(-600));
}

/** What one failed attempt, started at `secondsFromNow`, leaves on a delivery. */
function failedAttemptAt(secondsFromNow: number): Partial<WebhookDelivery> {
  return {
    attemptCount: 1,
    attempts: [
      {
        attemptNumber: 1,
        attemptedAt: at(secondsFromNow),
        responseStatusCode: 503,
        durationMs: 0,
        errorMessage: 'HTTP 503',
      },
    ],
    lastAttemptAt: at(secondsFromNow),
  };
}

/** The message of a delivery stored here: in its endpoint's first delivery shard, as none is raised. */
const messageOf = (delivery: WebhookDelivery): DeliveryMessage => ({
  merchantId: delivery.merchantId,
  shard: 0,
  webhookEndpointId: delivery.webhookEndpointId,
  webhookDeliveryId: delivery.webhookDeliveryId,
  attemptCount: delivery.attemptCount,
});

describe('requeueWaitingDeliveries', () => {
  it('queues every waiting delivery once, overdue ones at once and the others for when they are due', async () => {
    const neverSent = await stored({}, at(-600));
    const retryOverdue = await stored(failedAttemptAt(-90), at(-30));
    const retryLater = await stored(failedAttemptAt(-20), at(40));
    await stored({ paused: true }, at(-600));
    await stored({ status: 'succeeded', attemptCount: 1 }, at(-600));
    await stored({ status: 'exhausted', attemptCount: 5 }, at(-600));
    const sent: { message: DeliveryMessage; delaySeconds: number }[] = [];

    const counts = await requeueWaitingDeliveries({
      send: (message, delaySeconds) => void sent.push({ message, delaySeconds }),
      retryDelaySeconds: 60,
      now: () => now,
    });

    expect(counts).toEqual({ due: 2, later: 1 });
    expect(sent).toEqual([
      { message: messageOf(neverSent), delaySeconds: 0 },
      { message: messageOf(retryOverdue), delaySeconds: 0 },
      { message: messageOf(retryLater), delaySeconds: 40 },
    ]);
  });

  it('queues the waiting deliveries of every shard, soonest due first', async () => {
    const waiting: WebhookDelivery[] = [];
    for (const [index, webhookDeliveryId] of deliveryIdPerShard().entries()) {
      waiting.push(await stored({ webhookDeliveryId }, at(-500 + index * 50)));
    }
    const sent: { message: DeliveryMessage; delaySeconds: number }[] = [];

    const counts = await requeueWaitingDeliveries({
      send: (message, delaySeconds) => void sent.push({ message, delaySeconds }),
      retryDelaySeconds: 60,
      now: () => now,
    });

    expect(counts).toEqual({ due: 11, later: 5 });
    expect(sent.map(({ message }) => message)).toEqual(waiting.map(messageOf));
  });

  it("queues no message for a running recovery, whose record's entry shares the due index", async () => {
    const waiting = await stored({}, at(-600));
    const recovery = await storeRunningRecovery({
      merchantId: waiting.merchantId,
      endpointId: waiting.webhookEndpointId,
      since: new Date(at(-3600)),
      startedAt: new Date(at(-1200)),
    });
    const { GSI1PK } = await recoveryItemOf(waiting.merchantId, recovery.recovery.recoveryId);
    expect(GSI1PK).toMatch(/^DUE_DELIVERIES#/);
    const sent: DeliveryMessage[] = [];

    const counts = await requeueWaitingDeliveries({
      send: (message) => void sent.push(message),
      retryDelaySeconds: 60,
      now: () => now,
    });

    expect(counts).toEqual({ due: 1, later: 0 });
    expect(sent).toEqual([messageOf(waiting)]);
  });

  it('sends nothing when no delivery waits', async () => {
    await stored({ status: 'succeeded', attemptCount: 1 }, at(-600));
    const sent: unknown[] = [];

    const counts = await requeueWaitingDeliveries({
      send: (message) => void sent.push(message),
      retryDelaySeconds: 60,
      now: () => now,
    });

    expect(counts).toEqual({ due: 0, later: 0 });
    expect(sent).toEqual([]);
  });
});
