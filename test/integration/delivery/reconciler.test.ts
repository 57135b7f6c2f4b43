import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import { pipelineMetrics } from '../../../functions/delivery/pipeline-metrics';
import { createReconciler } from '../../../functions/delivery/reconciler';
import { runRecoveryBatch } from '../../../functions/delivery/recovery-batch';
import type { WebhookDelivery } from '../../../functions/domain/webhook-delivery';
import { afterBatch, recoveryStallSeconds } from '../../../functions/domain/webhook-recovery';
import { documentClient, tableName } from '../../../functions/store/client';
import { dueDeliveryShardCount, keys } from '../../../functions/store/keys';
import { toDelivery } from '../../../functions/store/webhook-deliveries';
import { commitRecoveryBatch, toStoredRecovery } from '../../../functions/store/webhook-recoveries';
import { emfLine, lambdaEnvironment } from '../../support/emf';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';
import {
  deliveryIdPerShard,
  dueDeliveryPartitionsInTable,
  storeDelivery,
} from '../../support/stored-deliveries';
import {
  recoveryItemOf,
  storeEndpointWithExhaustedDelivery,
  storeRunningRecovery,
} from '../../support/stored-recoveries';
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
});

describe('reconciler: logs and metrics', () => {
  const inLambda = () =>
    createReconciler({
      queue: { send: async () => undefined },
      now: () => now,
      metrics: pipelineMetrics(lambdaEnvironment('merchant-payments-sandbox-reconciler', 'sandbox')),
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

    const overdue = (count: number) =>
      emfLine('sandbox', [{ Name: 'OverdueDeliveries', Unit: 'Count' }], { OverdueDeliveries: count });
    expect(idle).toEqual([overdue(0)]);
    expect(busy).toEqual([overdue(2)]);
  });
});

describe('reconciler: stalled recoveries', () => {
  const minute = 60_000;
  const ago = (milliseconds: number) => new Date(Date.now() - milliseconds);
  const lambdaMetrics = () =>
    pipelineMetrics(lambdaEnvironment('merchant-payments-sandbox-reconciler', 'sandbox'));

  /** A running recovery of an endpoint with one exhausted delivery, started and last written `minutes` ago. */
  async function recoveryWrittenAgo(minutes: number) {
    const { merchantId, endpointId, exhausted } = await storeEndpointWithExhaustedDelivery();
    const stored = await storeRunningRecovery({
      merchantId,
      endpointId,
      since: ago(2 * 60 * minute),
      startedAt: ago(minutes * minute),
    });
    return { stored, exhausted, item: () => recoveryItemOf(merchantId, stored.recovery.recoveryId) };
  }

  /** A reconciler at the time the recoveries were written in, and the messages it sends. */
  function reconcilerAt(runAt: Date, onSend: () => Promise<void> = async () => undefined) {
    const sent: DeliveryMessage[] = [];
    const reconcile = createReconciler({
      queue: {
        send: async (message) => {
          sent.push(message);
          await onSend();
        },
      },
      now: () => runAt,
      metrics: lambdaMetrics(),
    });
    return { reconcile, sent };
  }

  async function deliveriesOfEndpoint(endpointId: string): Promise<WebhookDelivery[]> {
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :partition AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: {
          ':partition': keys.deliveriesPartition(endpointId, 0),
          ':prefix': 'DELIVERY#',
        },
        ConsistentRead: true,
      }),
    );
    return Items.map(toDelivery);
  }

  it('nudges a running recovery no batch wrote since its nudge time, and the batch that runs again completes it', async () => {
    const { stored, exhausted, item } = await recoveryWrittenAgo(10);
    const { recoveryId, merchantId, webhookEndpointId } = stored.recovery;
    const before = await item();
    const runAt = new Date();
    const { reconcile, sent } = reconcilerAt(runAt);

    const lines = await printedJsonLinesDuring(async () =>
      expect(await reconcile()).toEqual({ requeued: 0 }),
    );

    const nudgeAt = new Date(runAt.getTime() + recoveryStallSeconds * 1000).toISOString();
    const nudged = await item();
    expect(nudged).toEqual({
      ...before,
      nudgedAt: runAt.toISOString(),
      nudgeAt,
      GSI1SK: `${nudgeAt}#${recoveryId}`,
    });
    expect(sent).toEqual([]);
    expect(lines.filter((line) => line.message === 'recovery nudged')).toEqual([
      {
        level: 'INFO',
        message: 'recovery nudged',
        timestamp: expect.any(String),
        service: 'merchant-payments',
        sampling_rate: 0,
        recoveryId,
        endpointId: webhookEndpointId,
        merchantId,
        step: 0,
      },
    ]);

    // The router's run of the batch for the nudge's stream record (its new image).
    await runRecoveryBatch(toStoredRecovery(nudged), new Date());

    expect(toStoredRecovery(await item()).recovery).toMatchObject({
      status: 'completed',
      exhaustedFound: 1,
      redelivered: 1,
      skipped: 0,
    });
    const redelivered = (await deliveriesOfEndpoint(webhookEndpointId)).filter(
      (delivery) => delivery.redeliveredFromId !== null,
    );
    expect(redelivered).toEqual([
      expect.objectContaining({ redeliveredFromId: exhausted.webhookDeliveryId, status: 'pending' }),
    ]);
  });

  it('leaves a running recovery alone while it is within its stall time', async () => {
    const { item } = await recoveryWrittenAgo(4);
    const before = await item();
    const { reconcile } = reconcilerAt(new Date());

    const lines = await printedJsonLinesDuring(() => reconcile());

    expect(await item()).toEqual(before);
    expect(lines.filter((line) => line.message === 'recovery nudged')).toEqual([]);
  });

  it('re-enqueues the overdue deliveries that share the due partitions with a stalled recovery, and counts only them', async () => {
    const { item } = await recoveryWrittenAgo(10);
    const overdue: WebhookDelivery[] = [];
    for (const webhookDeliveryId of deliveryIdPerShard()) {
      overdue.push(await storeDelivery({ webhookDeliveryId }, ago(10 * minute).toISOString()));
    }
    expect(keys.dueDeliveriesPartitions()).toContain((await item()).GSI1PK);
    const runAt = new Date();
    const { reconcile, sent } = reconcilerAt(runAt);

    const lines = await printedJsonLinesDuring(async () =>
      expect(await reconcile()).toEqual({ requeued: dueDeliveryShardCount }),
    );

    expect(sent.map((message) => message.webhookDeliveryId).sort()).toEqual(
      overdue.map((delivery) => delivery.webhookDeliveryId).sort(),
    );
    expect(lines.filter((line) => '_aws' in line).map((line) => line.OverdueDeliveries)).toEqual([
      dueDeliveryShardCount,
    ]);
    expect(lines).toContainEqual(
      expect.objectContaining({ message: 'reconciler run', requeued: dueDeliveryShardCount, nudged: 1 }),
    );
    expect(await item()).toMatchObject({ nudgedAt: runAt.toISOString() });
  });

  it('leaves a recovery alone, and the run succeeds, when a batch moved it on after the run read it', async () => {
    const { stored, item } = await recoveryWrittenAgo(10);
    await storeDelivery({}, ago(10 * minute).toISOString());
    let moved: Record<string, unknown> | undefined;
    // The queue's send stands for the time between the run's read and its nudge: the router's batch
    // commits then, and the recovery goes on running from its next step.
    const { reconcile } = reconcilerAt(new Date(), async () => {
      const next = afterBatch(
        stored,
        { exhaustedFound: 0, redelivered: 0, next: { shard: 0, after: 'DELIVERY#whkdel_0' } },
        new Date().toISOString(),
      );
      await commitRecoveryBatch(stored, next, [], [], 0);
      moved = await item();
    });

    const lines = await printedJsonLinesDuring(async () =>
      expect(await reconcile()).toEqual({ requeued: 1 }),
    );

    expect(moved).toMatchObject({ step: 1, status: 'running' });
    expect(await item()).toEqual(moved);
    expect(lines.filter((line) => line.message === 'recovery nudged')).toEqual([]);
  });
});
