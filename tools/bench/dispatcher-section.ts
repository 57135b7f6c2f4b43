import type { SQSEvent } from 'aws-lambda';
import { typeid } from 'typeid-js';
import { deliveryMessageOf } from '../../functions/delivery/delivery-message';
import { createDispatcher } from '../../functions/delivery/dispatcher';
import { sendWebhook } from '../../functions/delivery/send-webhook';
import { isoTimestamp } from '../../functions/domain/time';
import { deliveryIdFor, newDelivery, type WebhookDelivery } from '../../functions/domain/webhook-delivery';
import { signedDelivery } from '../../functions/domain/webhook-signature';
import { secretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { putNewDeliveries } from '../../functions/store/webhook-deliveries';
import { startHttpsReceiver } from '../../test/support/https-receiver';
import { startTestRuntime } from '../../test/support/local-runtime';
import { readLocalSettings } from '../local/settings';
import type { BenchContext } from './bench-context';
import { type BenchRow, NoBudget, rowOf, Unit } from './bench-row';
import { benchEventType, subscribe } from './payout-events';
import { rawDeliveryCommands } from './raw-delivery-commands';
import { runningUntilStopped } from './running-until-stopped';

const section = 'dispatcher';
const deliveriesPerLoad = 400;
const rounds = 4;
/** The queue's batch size: the dispatcher attempts a batch's messages at once. */
const batchSize = 10;

/**
 * Section 6: deliveries per second of the dispatcher, fed batches of 10 queue messages for pending
 * deliveries, against a loop that signs and POSTs the same bodies with the same client and agent,
 * 10 at a time, to one local HTTPS receiver, and against the commands of the same attempts sent raw:
 * the three in rotating rounds.
 */
export async function dispatcherSection(context: BenchContext): Promise<BenchRow[]> {
  const settings = readLocalSettings({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const receiver = await runningUntilStopped(context, startHttpsReceiver({ caDir: context.caDir }));
  const t = await runningUntilStopped(
    context,
    startTestRuntime({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true }, { dynamodb: await context.dynamodb() }),
  );
  try {
    const { api, runtime } = t.value;
    const url = receiver.value.url();
    const endpoint = await subscribe(api, runtime.merchantId, url);
    // The runtime's own pipeline stops here: the deliveries below are for this section's dispatcher
    // alone. Its table and the functions' settings stay.
    await t.stop();

    const pending = (count: number) =>
      pendingDeliveries(runtime.merchantId, endpoint.webhookEndpointId, count);
    const dispatcher = createDispatcher({
      send: sendWebhook,
      sealer: secretSealer,
      timeoutMs: settings.WEBHOOK_TIMEOUT_MS,
      retryDelaySeconds: settings.WEBHOOK_RETRY_DELAY_SECONDS,
      allowLoopback: true,
    });
    const sends: Record<'dispatcher' | 'bare', Send> = {
      dispatcher: async (batch) => {
        const result = await dispatcher(sqsEventOf(batch));
        if (result.batchItemFailures.length > 0) throw new Error('the dispatcher failed a bench message');
      },
      bare: bareSend(url, endpoint.signingSecret, settings.WEBHOOK_TIMEOUT_MS),
    };

    // One warm batch each, so neither side pays the first TLS handshake or the first secret opening.
    await sends.dispatcher(await pending(batchSize));
    await sends.bare(await pending(batchSize));
    const wallMs = await timedRounds(context, sends, pending);
    const expected = batchSize * 2 + deliveriesPerLoad * 2;
    if (receiver.value.requests.length !== expected) {
      throw new Error(
        `dispatcher: the receiver got ${receiver.value.requests.length} of ${expected} deliveries`,
      );
    }
    return dispatcherRows(wallMs);
  } finally {
    await t.stop();
    await receiver.stop();
  }
}

/** Sends one batch of deliveries' first attempts, throwing if any is not delivered. */
type Send = (batch: readonly WebhookDelivery[]) => Promise<void>;

/** `count` new pending deliveries of bench events to the endpoint, written to the table. */
async function pendingDeliveries(
  merchantId: string,
  webhookEndpointId: string,
  count: number,
): Promise<WebhookDelivery[]> {
  const deliveries: WebhookDelivery[] = [];
  const now = isoTimestamp(new Date());
  for (let index = 0; index < count; index += 1) {
    const eventId = typeid('evt').toString();
    const delivery = newDelivery({
      webhookDeliveryId: deliveryIdFor(eventId, webhookEndpointId),
      webhookEndpointId,
      merchantId,
      eventId,
      eventType: benchEventType,
      data: { payoutId: typeid('po').toString(), grossAmount: 10_000, currency: 'USD', occurredAt: now },
      paused: false,
      now,
    });
    deliveries.push(delivery);
  }
  // The bench's endpoint keeps the default single delivery shard.
  await putNewDeliveries(deliveries.map((delivery) => ({ delivery, shards: [] })));
  return deliveries;
}

/** The baseline: sign and POST each delivery with the dispatcher's client, a batch at a time. */
function bareSend(url: string, signingSecret: string, timeoutMs: number): Send {
  return async (batch) => {
    await Promise.all(
      batch.map(async (delivery) => {
        const { body, headers } = signedDelivery(delivery, signingSecret, Math.floor(Date.now() / 1000));
        const outcome = await sendWebhook({
          url,
          headers: { ...headers },
          body,
          timeoutMs,
          allowLoopback: true,
        });
        if (!outcome.succeeded) throw new Error(`a bare POST failed: ${outcome.errorMessage}`);
      }),
    );
  };
}

/** The wall time of each side over all rounds; each round starts at another side. */
async function timedRounds(
  context: BenchContext,
  sends: Record<'dispatcher' | 'bare', Send>,
  pending: (count: number) => Promise<WebhookDelivery[]>,
): Promise<Record<'dispatcher' | 'bare' | 'writes', number>> {
  const perRound = deliveriesPerLoad / rounds;
  const wallMs = { dispatcher: 0, bare: 0, writes: 0 };
  const sides = ['dispatcher', 'bare', 'writes'] as const;
  for (let round = 0; round < rounds; round += 1) {
    context.progress(`dispatcher: round ${round + 1} of ${rounds}`);
    const forDispatcher = await pending(perRound);
    const forBare = await pending(perRound);
    // Each round starts at another side, so the machine's load falls on all three alike.
    const order = sides.map((_, index) => sides[(index + round) % sides.length] as (typeof sides)[number]);
    for (const side of order) {
      if (side === 'writes') {
        wallMs.writes += await rawDeliveryCommands({
          events: perRound,
          endpointsPerEvent: 1,
          routed: false,
        });
        continue;
      }
      const deliveries = side === 'dispatcher' ? forDispatcher : forBare;
      const started = performance.now();
      for (let offset = 0; offset < deliveries.length; offset += batchSize) {
        await sends[side](deliveries.slice(offset, offset + batchSize));
      }
      wallMs[side] += performance.now() - started;
    }
  }
  return wallMs;
}

function dispatcherRows(wallMs: Record<'dispatcher' | 'bare' | 'writes', number>): BenchRow[] {
  return [
    rowOf({
      section,
      figure: 'deliveries/s',
      value: (deliveriesPerLoad / wallMs.dispatcher) * 1000,
      baseline: (deliveriesPerLoad / wallMs.bare) * 1000,
      unit: Unit.perSecond,
      // For scale only: every attempt's lease and record are DynamoDB writes of milliseconds each,
      // a POST to a receiver on this machine well under one, so no budget against it can hold
      // here; the budget is on the row against the commands (docs/performance.md#the-other-budgets).
      budget: NoBudget,
      note: 'for scale; baseline: sign + POST, same agent, 10 at a time',
    }),
    rowOf({
      section,
      figure: 'deliveries/s against the commands they need',
      value: (deliveriesPerLoad / wallMs.dispatcher) * 1000,
      baseline: (deliveriesPerLoad / wallMs.writes) * 1000,
      unit: Unit.perSecond,
      budget: { ratio: 'least', limit: 0.8 },
      note: 'baseline: the endpoint read, the lease and the record per delivery sent raw, no POST, 10 at a time, in the same rounds',
    }),
  ];
}

/** The queue event the dispatcher gets for these deliveries' first attempts. */
function sqsEventOf(deliveries: readonly WebhookDelivery[]): SQSEvent {
  return {
    Records: deliveries.map((delivery, index) => ({
      messageId: `bench-${index}`,
      receiptHandle: `bench-${index}`,
      body: JSON.stringify(deliveryMessageOf(delivery, 0)),
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'bench',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:bench',
      awsRegion: 'us-east-1',
    })),
  };
}
