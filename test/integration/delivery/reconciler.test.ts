import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import { pipelineMetrics } from '../../../functions/delivery/pipeline-metrics';
import { createReconciler } from '../../../functions/delivery/reconciler';
import type { WebhookDelivery } from '../../../functions/domain/webhook-delivery';
import { dueDeliveryShardCount, keys } from '../../../functions/store/keys';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';
import {
  deliveryIdPerShard,
  dueDeliveryPartitionsInTable,
  storeDelivery,
  storeLegacyDelivery,
} from '../../support/stored-deliveries';
import { useFreshTable } from '../../support/table-environment';

const now = new Date('2026-11-22T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

beforeEach(async () => {
  await useFreshTable();
});

function stored(overrides: Partial<WebhookDelivery>, dueAt: string) {
  return storeDelivery(overrides, dueAt);
}

/** A reconciler at `now` and the messages it sends. */
function reconcilerWithQueue() {
  const sent: { message: DeliveryMessage; delaySeconds: 0 | undefined }[] = [];
  const reconcile = createReconciler({
    queue: { send: async (message, delaySeconds) => void sent.push({ message, delaySeconds }) },
    now: () => now,
  });
  return { reconcile, sent };
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
          merchantId: lost.merchantId,
          shard: 0,
          webhookEndpointId: lost.webhookEndpointId,
          webhookDeliveryId: lost.webhookDeliveryId,
          attemptCount: 2,
        },
        delaySeconds: 0,
      },
    ]);
  });

  it('finds an overdue delivery in every shard, and none that is not overdue', async () => {
    const overdue: WebhookDelivery[] = [];
    for (const webhookDeliveryId of deliveryIdPerShard()) {
      overdue.push(await stored({ webhookDeliveryId }, minutesAgo(10)));
    }
    for (const webhookDeliveryId of deliveryIdPerShard()) await stored({ webhookDeliveryId }, minutesAgo(1));
    const { reconcile, sent } = reconcilerWithQueue();

    expect(await reconcile()).toEqual({ requeued: dueDeliveryShardCount });
    expect(sent.map(({ message }) => message.webhookDeliveryId).sort()).toEqual(
      overdue.map((delivery) => delivery.webhookDeliveryId).sort(),
    );
    const partitions = await dueDeliveryPartitionsInTable();
    expect(partitions).toHaveLength(2 * dueDeliveryShardCount);
    expect(new Set(partitions)).toEqual(
      new Set(keys.dueDeliveriesPartitions().slice(0, dueDeliveryShardCount)),
    );
  });

  it('re-enqueues at most 100 a run, the longest overdue first, whichever shards they are in', async () => {
    const overdue: WebhookDelivery[] = [];
    for (let index = 0; index < 105; index += 1) {
      overdue.push(await stored({}, new Date(now.getTime() - (600 + index) * 1000).toISOString()));
    }
    const { reconcile, sent } = reconcilerWithQueue();

    expect(await reconcile()).toEqual({ requeued: 100 });
    expect(sent.map(({ message }) => message.webhookDeliveryId)).toEqual(
      overdue
        .slice(5)
        .reverse()
        .map((delivery) => delivery.webhookDeliveryId),
    );
  });

  it('finds an overdue delivery written to the partition used before the index was sharded', async () => {
    const legacy = await storeLegacyDelivery({ attemptCount: 1 }, minutesAgo(10));
    await storeLegacyDelivery({}, minutesAgo(1));
    const { reconcile, sent } = reconcilerWithQueue();

    expect(await reconcile()).toEqual({ requeued: 1 });
    expect(sent.map(({ message }) => message)).toEqual([
      {
        merchantId: legacy.merchantId,
        shard: 0,
        webhookEndpointId: legacy.webhookEndpointId,
        webhookDeliveryId: legacy.webhookDeliveryId,
        attemptCount: 1,
      },
    ]);
  });
});

describe('reconciler: logs and metrics', () => {
  const inLambda = () =>
    createReconciler({
      queue: { send: async () => undefined },
      now: () => now,
      metrics: pipelineMetrics({
        AWS_LAMBDA_FUNCTION_NAME: 'merchant-payments-sandbox-reconciler',
        POWERTOOLS_SERVICE_NAME: 'merchant-payments',
        STAGE: 'sandbox',
      }),
    });

  it('logs each re-enqueued delivery with its ids and the attempt it asks for, then one summary line', async () => {
    const lost = await stored({ attemptCount: 2 }, minutesAgo(10));
    await stored({}, minutesAgo(1));

    const lines = await printedJsonLinesDuring(() => inLambda()());

    const logged = lines.filter((line) => line.message !== undefined);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 'INFO',
        message: 'overdue delivery re-enqueued',
        deliveryId: lost.webhookDeliveryId,
        eventId: lost.eventId,
        endpointId: lost.webhookEndpointId,
        merchantId: lost.merchantId,
        attempt: 3,
      }),
      expect.objectContaining({ level: 'INFO', message: 'reconciler run', requeued: 1 }),
    ]);
  });

  it('writes OverdueDeliveries on every run in Lambda, 0 included, so the alarm always has data', async () => {
    const reconcile = inLambda();
    const emfOf = (lines: Record<string, unknown>[]) => lines.filter((line) => '_aws' in line);

    const idle = emfOf(await printedJsonLinesDuring(() => reconcile()));
    await stored({}, minutesAgo(10));
    await stored({}, minutesAgo(10));
    const busy = emfOf(await printedJsonLinesDuring(() => reconcile()));

    const overdue = (count: number) => ({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: 'MerchantPayments',
            Dimensions: [['service', 'stage']],
            Metrics: [{ Name: 'OverdueDeliveries', Unit: 'Count' }],
          },
        ],
      },
      service: 'merchant-payments',
      stage: 'sandbox',
      OverdueDeliveries: count,
    });
    expect(idle).toEqual([overdue(0)]);
    expect(busy).toEqual([overdue(2)]);
  });
});
