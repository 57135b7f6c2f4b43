import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryMessage } from '../../../functions/delivery/delivery-message';
import { createDispatcher } from '../../../functions/delivery/dispatcher';
import { pipelineMetrics } from '../../../functions/delivery/pipeline-metrics';
import { createReconciler } from '../../../functions/delivery/reconciler';
import { deliveryShardOf } from '../../../functions/domain/delivery-shards';
import { typeIdBound } from '../../../functions/domain/id-time-bounds';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import {
  type AttemptOutcome,
  newDelivery,
  type WebhookDelivery,
} from '../../../functions/domain/webhook-delivery';
import { updateWebhookEndpoint, type WebhookEndpoint } from '../../../functions/domain/webhook-endpoint';
import { secretSealer } from '../../../functions/secrets/secret-sealer-from-env';
import { documentClient, tableName } from '../../../functions/store/client';
import { keys } from '../../../functions/store/keys';
import { sendTransaction } from '../../../functions/store/transaction';
import { buildPutNewDelivery, getDelivery } from '../../../functions/store/webhook-deliveries';
import { buildReplaceEndpoint, getEndpoint } from '../../../functions/store/webhook-endpoints';
import { overdueWork } from '../../../functions/store/webhook-recoveries';
import { withDocumentClientMiddleware } from '../../support/dynamodb-commands';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';
import { storeSiblingDelivery } from '../../support/stored-deliveries';
import { storedEndpointWithDelivery } from '../../support/stored-endpoint';
import { useFreshTable } from '../../support/table-environment';

const merchantId = newId('mer');
const now = new Date('2026-11-22T12:00:00.000Z');
const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

let sends: { url: string; headers: Record<string, string>; body: string }[];
let outcome: AttemptOutcome;

beforeEach(async () => {
  await useFreshTable();
  sends = [];
  outcome = { statusCode: 500, durationMs: 12, errorMessage: 'HTTP 500', succeeded: false };
});

/** A dispatcher whose POSTs are recorded in `sends` and answered with `outcome`, on the clock given. */
function dispatcherAt(clock: () => Date) {
  return createDispatcher({
    send: async (request) => {
      sends.push(request);
      return outcome;
    },
    sealer: secretSealer,
    timeoutMs: 10_000,
    retryDelaySeconds: 60,
    allowLoopback: true,
    now: clock,
  });
}

const dispatch = dispatcherAt(() => now);

function setUp(status: WebhookEndpoint['status'] = 'active') {
  return storedEndpointWithDelivery({ merchantId, url: 'https://hooks.example.com/x', secret, now, status });
}

function messages(
  delivery: { webhookEndpointId: string; webhookDeliveryId: string },
  ...attemptCounts: number[]
) {
  return {
    Records: attemptCounts.map((attemptCount, index) => ({
      messageId: `m-${index}`,
      body: JSON.stringify({ ...delivery, attemptCount }),
    })),
  } as unknown as SQSEvent;
}

/** What a message names of a delivery: its shard is 0 unless given (no test endpoint is raised). */
const ids = (delivery: { webhookEndpointId: string; webhookDeliveryId: string }, shard = 0) => ({
  merchantId,
  shard,
  webhookEndpointId: delivery.webhookEndpointId,
  webhookDeliveryId: delivery.webhookDeliveryId,
});

describe('dispatcher', () => {
  it('records a duplicate message once and sends it once: the same attempt never happens twice', async () => {
    const { delivery } = await setUp();
    expect(await dispatch(messages(ids(delivery), 0, 0))).toEqual({ batchItemFailures: [] });
    expect(await dispatch(messages(ids(delivery), 0))).toEqual({ batchItemFailures: [] });
    expect(sends).toHaveLength(1);
    const stored = await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, []);
    expect(stored?.attemptCount).toBe(1);
    expect(stored?.attempts).toEqual([
      {
        attemptNumber: 1,
        attemptedAt: now.toISOString(),
        responseStatusCode: 500,
        durationMs: 12,
        errorMessage: 'HTTP 500',
      },
    ]);
    expect(stored?.status).toBe('pending');
  });

  it('reads an endpoint once for a batch of its deliveries, and attempts each of them', async () => {
    const { endpoint, delivery } = await setUp();
    const others = [];
    for (let index = 0; index < 4; index += 1) {
      others.push(await storeSiblingDelivery(delivery, now.toISOString()));
    }
    const batch = {
      Records: [delivery, ...others].map((each, index) => ({
        messageId: `m-${index}`,
        body: JSON.stringify({ ...ids(each), attemptCount: 0 }),
      })),
    } as unknown as SQSEvent;
    const commands: string[] = [];
    await withDocumentClientMiddleware(
      (next, context) => async (args) => {
        commands.push(String(context.commandName));
        return next(args);
      },
      async () => expect(await dispatch(batch)).toEqual({ batchItemFailures: [] }),
    );
    expect(commands.filter((name) => name === 'GetItemCommand')).toHaveLength(1);
    // Five leases, and one write of the endpoint for the batch: its first failure
    // (docs/decisions/endpoint-health.md).
    expect(commands.filter((name) => name === 'UpdateItemCommand')).toHaveLength(6);
    expect(sends.map((request) => request.url)).toEqual(Array.from({ length: 5 }, () => endpoint.url));
    // The next batch reads the endpoint again: nothing is kept past a batch.
    await documentClient().send(
      new PutCommand(
        buildPutNewDelivery({ ...delivery, webhookDeliveryId: newId('whkdel') }, now.toISOString(), []),
      ),
    );
    commands.length = 0;
    await withDocumentClientMiddleware(
      (next, context) => async (args) => {
        commands.push(String(context.commandName));
        return next(args);
      },
      async () => void (await dispatch(messages(ids(delivery), 1))),
    );
    expect(commands.filter((name) => name === 'GetItemCommand')).toHaveLength(1);
  });

  it('signs the body {id, type, createdAt, data} with the endpoint secret', async () => {
    const { delivery, endpoint } = await setUp();
    outcome = { statusCode: 204, durationMs: 3, errorMessage: null, succeeded: true };
    await dispatch(messages(ids(delivery), 0));
    const [request] = sends;
    expect(request?.url).toBe(endpoint.url);
    expect(JSON.parse(request?.body ?? '')).toEqual({
      id: delivery.webhookDeliveryId,
      type: EventType.invoicePaid,
      createdAt: delivery.createdAt,
      data: { invoiceId: 'inv_1' },
    });
    expect(request?.headers['Merchant-Webhook-Id']).toBe(delivery.webhookDeliveryId);
    expect(request?.headers['Merchant-Webhook-Signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    const stored = await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, []);
    expect(stored).toMatchObject({ status: 'succeeded', attemptCount: 1, lastAttemptAt: now.toISOString() });
    expect(stored?.attempts[0]?.errorMessage).toBeNull();
  });

  it('ends as exhausted after the fifth failed attempt', async () => {
    const { delivery } = await setUp();
    for (let attemptCount = 0; attemptCount < 5; attemptCount += 1) {
      await dispatch(messages(ids(delivery), attemptCount));
    }
    await dispatch(messages(ids(delivery), 5));
    const stored = await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, []);
    expect(stored?.status).toBe('exhausted');
    expect(stored?.attempts.map((attempt) => attempt.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(sends).toHaveLength(5);
  });

  it('pauses instead of attempting when the endpoint is disabled, and does nothing when it is deleted', async () => {
    const disabled = await setUp('disabled');
    await dispatch(messages(ids(disabled.delivery), 0));
    expect(
      (await getDelivery(disabled.endpoint.webhookEndpointId, disabled.delivery.webhookDeliveryId, []))
        ?.paused,
    ).toBe(true);
    const deleted = await setUp('deleted');
    await dispatch(messages(ids(deleted.delivery), 0));
    expect(
      await getDelivery(deleted.endpoint.webhookEndpointId, deleted.delivery.webhookDeliveryId, []),
    ).toMatchObject({
      attemptCount: 0,
      status: 'pending',
    });
    expect(sends).toEqual([]);
  });

  it("takes a deleted endpoint's delivery out of the due index, so the reconciler never sends it back", async () => {
    const { endpoint, delivery } = await setUp('deleted');
    const key = keys.webhookDelivery(endpoint.webhookEndpointId, delivery.webhookDeliveryId, 0);
    const before = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }));
    expect(before.Item?.GSI1PK).toMatch(/^DUE_DELIVERIES#\d{2}$/);

    await dispatch(messages(ids(delivery), 0));

    const after = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }));
    expect(after.Item).toMatchObject({ attemptCount: 0, status: 'pending' });
    expect(after.Item?.GSI1PK).toBeUndefined();
    const inTwoHours = new Date(now.getTime() + 2 * 3_600_000).toISOString();
    expect((await overdueWork(inTwoHours, 100)).deliveries).toEqual([]);
    expect(sends).toEqual([]);
  });

  it('reports a message it cannot read as a batch item failure, and handles the rest', async () => {
    const { delivery } = await setUp();
    const event = messages(ids(delivery), 0);
    event.Records.push({ messageId: 'broken', body: '{"not":"a message"}' } as never);
    expect(await dispatch(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'broken' }] });
    expect(sends).toHaveLength(1);
  });
});

describe('dispatcher: delivery shards', () => {
  /** An endpoint whose deliveries spread over 4 shards since before `now`, and one delivery in shard ≥ 1. */
  async function setUpSharded() {
    const { endpoint } = await setUp();
    const shards = [{ since: '2026-11-22T11:00:00.000Z', count: 4 }];
    const stored = await getEndpoint(merchantId, endpoint.webhookEndpointId);
    if (stored === undefined) throw new Error('the endpoint was not stored');
    await sendTransaction(buildReplaceEndpoint(stored, { ...stored, deliveryShards: shards }));
    let delivery: WebhookDelivery | undefined;
    while (delivery === undefined || deliveryShardOf(delivery.webhookDeliveryId, shards) === 0) {
      delivery = newDelivery({
        webhookDeliveryId: newId('whkdel'),
        webhookEndpointId: endpoint.webhookEndpointId,
        merchantId,
        eventId: newId('evt'),
        eventType: EventType.invoicePaid,
        data: {},
        paused: false,
        now: now.toISOString(),
      });
    }
    await documentClient().send(new PutCommand(buildPutNewDelivery(delivery, now.toISOString(), shards)));
    return { delivery, shards };
  }

  it('leases the delivery in the shard its message names while reading the endpoint, and reads no delivery', async () => {
    const { delivery, shards } = await setUpSharded();
    const shard = deliveryShardOf(delivery.webhookDeliveryId, shards);
    const commands: string[] = [];
    await withDocumentClientMiddleware(
      (next, context) => async (args) => {
        commands.push(`${context.commandName} ${args.input.Key?.PK ?? args.input.Item?.PK}`);
        return next(args);
      },
      async () =>
        expect(await dispatch(messages(ids(delivery, shard), 0))).toEqual({ batchItemFailures: [] }),
    );
    const deliveries = keys.deliveriesPartition(delivery.webhookEndpointId, shard);
    // The lease and the endpoint's read go out together, so either may be first.
    expect(commands.slice(0, 2).sort()).toEqual(
      [`GetItemCommand ${keys.merchantPartition(merchantId)}`, `UpdateItemCommand ${deliveries}`].sort(),
    );
    // The attempt's record, then the endpoint's first failure (docs/decisions/endpoint-health.md).
    expect(commands.slice(2)).toEqual([
      `PutItemCommand ${deliveries}`,
      `UpdateItemCommand ${keys.merchantPartition(merchantId)}`,
    ]);
    expect(sends).toHaveLength(1);
    const stored = await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, shards);
    expect(stored).toMatchObject({ attemptCount: 1, status: 'pending' });
    expect(await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, [])).toBeUndefined();
  });

  it('leases the delivery for the timeout plus 20 s, or plus the margin it is given', async () => {
    const leasesUntil = async (leaseMarginMs: number | undefined) => {
      const { delivery, shards } = await setUpSharded();
      const shard = deliveryShardOf(delivery.webhookDeliveryId, shards);
      const leases: unknown[] = [];
      const dispatcher = createDispatcher({
        send: async () => outcome,
        sealer: secretSealer,
        timeoutMs: 10_000,
        retryDelaySeconds: 60,
        allowLoopback: true,
        now: () => now,
        ...(leaseMarginMs === undefined ? {} : { leaseMarginMs }),
      });
      await withDocumentClientMiddleware(
        (next, context) => async (args) => {
          if (
            context.commandName === 'UpdateItemCommand' &&
            args.input.UpdateExpression === 'SET leaseUntil = :until'
          ) {
            leases.push(args.input.ExpressionAttributeValues?.[':until']);
          }
          return next(args);
        },
        async () =>
          expect(await dispatcher(messages(ids(delivery, shard), 0))).toEqual({ batchItemFailures: [] }),
      );
      return leases;
    };
    expect(await leasesUntil(undefined)).toEqual([new Date(now.getTime() + 30_000).toISOString()]);
    expect(await leasesUntil(1000)).toEqual([new Date(now.getTime() + 11_000).toISOString()]);
  });

  it('sends nothing for a message naming another shard than the delivery’s, and leaves it for the reconciler', async () => {
    const { delivery, shards } = await setUpSharded();
    expect(await dispatch(messages(ids(delivery, 0), 0))).toEqual({ batchItemFailures: [] });
    expect(sends).toEqual([]);
    const stored = await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, shards);
    expect(stored).toMatchObject({ attemptCount: 0, status: 'pending' });
    expect(await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, [])).toBeUndefined();
  });

  it('reports a message without its merchant or shard as failed and sends nothing', async () => {
    const { delivery } = await setUp();
    const { shard: _shard, ...unplaced } = ids(delivery);
    const { merchantId: _merchant, ...anonymous } = ids(delivery);
    for (const message of [unplaced, anonymous]) {
      expect(await dispatch(messages(message, 0))).toEqual({
        batchItemFailures: [{ itemIdentifier: 'm-0' }],
      });
    }
    expect(sends).toEqual([]);
    expect(
      (await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, []))?.attemptCount,
    ).toBe(0);
  });

  it('re-enqueues an overdue sharded delivery from the reconciler with a message that finds it', async () => {
    const { delivery, shards } = await setUpSharded();
    const sent: DeliveryMessage[] = [];
    const reconcile = createReconciler({
      queue: { send: async (message) => void sent.push(message) },
      now: () => new Date(now.getTime() + 10 * 60_000),
    });
    // The set-up's own delivery in shard 0 is overdue too.
    expect(await reconcile()).toEqual({ requeued: 2 });
    const message = sent.find((each) => each.webhookDeliveryId === delivery.webhookDeliveryId);
    expect(message).toEqual({
      ...ids(delivery, deliveryShardOf(delivery.webhookDeliveryId, shards)),
      attemptCount: 0,
    });
    await dispatch({ Records: [{ messageId: 'm', body: JSON.stringify(message) }] } as unknown as SQSEvent);
    const stored = await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, shards);
    expect(stored?.attemptCount).toBe(1);
  });
});

describe('dispatcher: logs and metrics', () => {
  it('logs one line per attempt: the delivery’s ids, the attempt, its outcome, status, duration and whether it exhausted', async () => {
    const { delivery } = await setUp();
    const ofDelivery = {
      deliveryId: delivery.webhookDeliveryId,
      eventId: delivery.eventId,
      endpointId: delivery.webhookEndpointId,
      merchantId,
    };

    const lines = await printedJsonLinesDuring(async () => {
      await dispatch(messages(ids(delivery), 0));
      outcome = { statusCode: 204, durationMs: 7.4, errorMessage: null, succeeded: true };
      await dispatch(messages(ids(delivery), 1));
    });

    expect(lines.filter((line) => line.message === 'delivery attempted')).toEqual([
      expect.objectContaining({
        level: 'INFO',
        ...ofDelivery,
        attempt: 1,
        outcome: 'failed',
        statusCode: 500,
        durationMs: 12,
        exhausted: false,
      }),
      expect.objectContaining({
        level: 'INFO',
        ...ofDelivery,
        attempt: 2,
        outcome: 'succeeded',
        statusCode: 204,
        durationMs: 7,
        exhausted: false,
      }),
    ]);
  });

  it('writes one EMF line per batch in Lambda: attempts, successes, failures, exhaustions, first-attempt lag', async () => {
    const { delivery } = await setUp();
    const exhausting = { ...delivery, webhookDeliveryId: newId('whkdel'), attemptCount: 4 };
    await documentClient().send(new PutCommand(buildPutNewDelivery(exhausting, now.toISOString(), [])));
    // An event 1.5 s before the attempt starts: its id's time is when it was created.
    const eventId = typeIdBound('evt', new Date(now.getTime() - 1500), 'lowest');
    const succeeding = newDelivery({
      ...delivery,
      webhookDeliveryId: newId('whkdel'),
      eventId,
      now: now.toISOString(),
    });
    await documentClient().send(new PutCommand(buildPutNewDelivery(succeeding, now.toISOString(), [])));
    const measured = createDispatcher({
      send: async ({ body }) =>
        JSON.parse(body).id === succeeding.webhookDeliveryId
          ? { statusCode: 200, durationMs: 5, errorMessage: null, succeeded: true }
          : { statusCode: 503, durationMs: 5, errorMessage: 'HTTP 503', succeeded: false },
      sealer: secretSealer,
      timeoutMs: 10_000,
      retryDelaySeconds: 60,
      allowLoopback: true,
      now: () => now,
      metrics: pipelineMetrics({
        AWS_LAMBDA_FUNCTION_NAME: 'merchant-payments-sandbox-dispatcher',
        POWERTOOLS_SERVICE_NAME: 'merchant-payments',
        STAGE: 'sandbox',
      }),
    });
    const batch = {
      Records: [
        { messageId: 'a', body: JSON.stringify({ ...ids(exhausting), attemptCount: 4 }) },
        { messageId: 'b', body: JSON.stringify({ ...ids(succeeding), attemptCount: 0 }) },
      ],
    } as unknown as SQSEvent;

    const lines = await printedJsonLinesDuring(() => measured(batch));

    const emf = lines.filter((line) => '_aws' in line);
    expect(emf).toEqual([
      expect.objectContaining({
        service: 'merchant-payments',
        stage: 'sandbox',
        DeliveryAttempts: 2,
        DeliveriesSucceeded: 1,
        DeliveryAttemptsFailed: 1,
        DeliveriesExhausted: 1,
        FirstAttemptLag: 1500,
      }),
    ]);
    expect(emf[0]?._aws).toEqual({
      Timestamp: expect.any(Number),
      CloudWatchMetrics: [
        {
          Namespace: 'MerchantPayments',
          Dimensions: [['service', 'stage']],
          Metrics: expect.arrayContaining([{ Name: 'FirstAttemptLag', Unit: 'Milliseconds' }]),
        },
      ],
    });
    // The batch's messages are attempted concurrently, so their lines come in either order.
    const attempted = lines.filter((line) => line.message === 'delivery attempted');
    expect(attempted).toHaveLength(2);
    expect(attempted).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ deliveryId: exhausting.webhookDeliveryId, attempt: 5, exhausted: true }),
        expect.objectContaining({ deliveryId: succeeding.webhookDeliveryId, attempt: 1, exhausted: false }),
      ]),
    );
  });
});

describe('dispatcher: endpoint health', () => {
  const minute = 60_000;
  const day = 24 * 60 * minute;
  let clock: Date;
  const clocked = dispatcherAt(() => clock);
  const failed: AttemptOutcome = {
    statusCode: 404,
    durationMs: 4,
    errorMessage: 'HTTP 404',
    succeeded: false,
  };
  const succeeded: AttemptOutcome = { statusCode: 200, durationMs: 4, errorMessage: null, succeeded: true };

  /** Another pending delivery of the endpoint, due now. */
  const anotherDelivery = (of: WebhookDelivery) => storeSiblingDelivery(of, now.toISOString());

  /** One attempt at `offsetMs` past `now` with `result`; the endpoint as stored afterwards. */
  async function attemptAt(
    delivery: WebhookDelivery,
    attemptCount: number,
    offsetMs: number,
    result: AttemptOutcome,
  ) {
    clock = new Date(now.getTime() + offsetMs);
    outcome = result;
    expect(await clocked(messages(ids(delivery), attemptCount))).toEqual({ batchItemFailures: [] });
    const stored = await getEndpoint(merchantId, delivery.webhookEndpointId);
    if (stored === undefined) throw new Error('the endpoint is gone');
    return stored;
  }

  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

  /** The sandbox's failure simulation, set on the delivery's endpoint for its next attempt. */
  async function simulateOneFailure(delivery: WebhookDelivery): Promise<void> {
    const stored = await getEndpoint(merchantId, delivery.webhookEndpointId);
    if (stored === undefined) throw new Error('the endpoint is gone');
    await sendTransaction(
      buildReplaceEndpoint(stored, {
        ...stored,
        endpoint: updateWebhookEndpoint(stored.endpoint, { simulateFailures: 1 }, at(0)),
      }),
    );
  }

  it('writes the endpoint only when its health changes: the first failure, a success after it, a success 5 minutes on', async () => {
    const { endpoint, delivery } = await setUp();
    const created = await getEndpoint(merchantId, endpoint.webhookEndpointId);
    const first = await attemptAt(delivery, 0, 0, failed);
    expect(first.endpoint).toMatchObject({ status: 'active', failingSince: at(0) });
    expect(first.endpoint.lastSucceededAt).toBeUndefined();
    expect(first.version).toBe((created?.version ?? 0) + 1);
    // Another failure of the same run writes nothing.
    expect((await attemptAt(delivery, 1, minute, failed)).version).toBe(first.version);
    const answered = await attemptAt(delivery, 2, 2 * minute, succeeded);
    expect(answered.endpoint).toMatchObject({ status: 'active', lastSucceededAt: at(2 * minute) });
    expect(answered.endpoint.failingSince).toBeUndefined();
    expect(answered.version).toBe(first.version + 1);
    // A success within 5 minutes of the last one kept writes nothing; one past them refreshes it.
    const soon = await attemptAt(await anotherDelivery(delivery), 0, 6 * minute, succeeded);
    expect(soon.version).toBe(answered.version);
    expect(soon.endpoint.lastSucceededAt).toBe(at(2 * minute));
    const later = await attemptAt(await anotherDelivery(delivery), 0, 7 * minute, succeeded);
    expect(later.endpoint.lastSucceededAt).toBe(at(7 * minute));
    expect(later.version).toBe(answered.version + 1);
    // The merchant's view shows it; updatedAt stays the merchant's last change.
    expect(later.endpoint.updatedAt).toBe(endpoint.updatedAt);
  });

  it('writes the endpoint once for a batch of 10 failures of a healthy endpoint', async () => {
    const { delivery } = await setUp();
    const healthy = await attemptAt(delivery, 0, 0, succeeded);
    const batch: WebhookDelivery[] = [];
    for (let index = 0; index < 10; index += 1) batch.push(await anotherDelivery(delivery));
    clock = new Date(now.getTime() + minute);
    outcome = failed;
    const writes: string[] = [];
    await withDocumentClientMiddleware(
      (next, context) => async (args) => {
        if (args.input.Key?.SK === keys.webhookEndpoint(merchantId, delivery.webhookEndpointId).SK)
          writes.push(String(context.commandName));
        return next(args);
      },
      async () => {
        const event = {
          Records: batch.map((each, index) => ({
            messageId: `m-${index}`,
            body: JSON.stringify({ ...ids(each), attemptCount: 0 }),
          })),
        } as unknown as SQSEvent;
        expect(await clocked(event)).toEqual({ batchItemFailures: [] });
      },
    );
    expect(writes).toEqual(['GetItemCommand', 'UpdateItemCommand']);
    const stored = await getEndpoint(merchantId, delivery.webhookEndpointId);
    expect(stored?.endpoint.failingSince).toBe(at(minute));
    expect(stored?.version).toBe(healthy.version + 1);
  });

  it('never disables an endpoint whose every attempt has failed for days: its deliveries keep every attempt', async () => {
    const { delivery } = await setUp();
    const waiting = await anotherDelivery(delivery);
    const first = await attemptAt(delivery, 0, 0, failed);
    // The run's two notices are marked (a day in, five days in), once each; nothing else moves.
    for (const [attemptCount, offsetMs, notices, after] of [
      [1, 5 * day - minute, 1, '24h'],
      [2, 5 * day, 2, '5d'],
      [3, 6 * day, 2, '5d'],
      [4, 30 * day, 2, '5d'],
    ] as const) {
      const stored = await attemptAt(delivery, attemptCount, offsetMs, failed);
      expect(stored.endpoint).toMatchObject({ status: 'active', failingSince: at(0) });
      expect(stored.version).toBe(first.version + notices);
      expect(stored.failingNotice?.after).toBe(after);
    }
    expect(await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, [])).toMatchObject({
      status: 'exhausted',
      attemptCount: 5,
    });
    // The endpoint's next delivery is attempted, not paused.
    sends.length = 0;
    clock = new Date(now.getTime() + 30 * day + minute);
    await clocked(messages(ids(waiting), 0));
    expect(sends).toHaveLength(1);
    expect(await getDelivery(waiting.webhookEndpointId, waiting.webhookDeliveryId, [])).toMatchObject({
      attemptCount: 1,
    });
    expect((await getEndpoint(merchantId, delivery.webhookEndpointId))?.endpoint.status).toBe('active');
  });

  it('leaves the health alone on a simulated failure, which sends no request', async () => {
    const { delivery } = await setUp();
    const healthy = await attemptAt(delivery, 0, 0, succeeded);
    await simulateOneFailure(delivery);
    const simulated = await attemptAt(await anotherDelivery(delivery), 0, minute, failed);
    expect(simulated.endpoint.failingSince).toBeUndefined();
    expect(simulated.endpoint.lastSucceededAt).toBe(healthy.endpoint.lastSucceededAt);
    expect(sends).toHaveLength(1);
  });

  it('marks no failing notice for a simulated failure, however long the run it falls in', async () => {
    const { delivery } = await setUp();
    const failing = await attemptAt(delivery, 0, 0, failed);
    expect(failing.endpoint.failingSince).toBe(at(0));
    await simulateOneFailure(delivery);
    const simulated = await attemptAt(await anotherDelivery(delivery), 0, 2 * day, failed);
    expect(simulated.failingNotice).toBeUndefined();
    // A real failure as late is due its notice.
    const real = await attemptAt(await anotherDelivery(delivery), 0, 2 * day + minute, failed);
    expect(real.failingNotice).toMatchObject({ after: '24h', at: at(2 * day + minute) });
  });
});
