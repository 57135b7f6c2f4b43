import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../functions/delivery/dispatcher';
import { newId } from '../../../functions/domain/ids';
import { simulatedFailureMessage } from '../../../functions/domain/simulated-failures';
import type { WebhookDelivery } from '../../../functions/domain/webhook-delivery';
import { updateWebhookEndpoint, type WebhookEndpoint } from '../../../functions/domain/webhook-endpoint';
import { secretSealer } from '../../../functions/secrets/secret-sealer-from-env';
import { documentClient } from '../../../functions/store/client';
import { keys } from '../../../functions/store/keys';
import { sendTransaction, TransactionConditionFailed } from '../../../functions/store/transaction';
import { getDelivery } from '../../../functions/store/webhook-deliveries';
import {
  buildReplaceEndpoint,
  getEndpoint,
  takeSimulatedFailure,
} from '../../../functions/store/webhook-endpoints';
import { withDocumentClientMiddleware } from '../../support/dynamodb-commands';
import { storeDelivery } from '../../support/stored-deliveries';
import { storedEndpointWithDelivery } from '../../support/stored-endpoint';
import { useFreshTable } from '../../support/table-environment';

const merchantId = newId('mer');
const now = new Date('2026-11-22T12:00:00.000Z');
const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

let sends: string[];

beforeEach(async () => {
  await useFreshTable();
  sends = [];
});

/** Two dispatchers, as two Lambda containers: each answers every request with 500. */
const [dispatchA, dispatchB] = [0, 1].map(() =>
  createDispatcher({
    send: async (request) => {
      sends.push(request.url);
      return { statusCode: 500, durationMs: 12, errorMessage: 'HTTP 500', succeeded: false };
    },
    sealer: secretSealer,
    timeoutMs: 10_000,
    retryDelaySeconds: 60,
    allowLoopback: true,
    now: () => now,
  }),
) as [ReturnType<typeof createDispatcher>, ReturnType<typeof createDispatcher>];

/** An endpoint with `count` pending deliveries, each due for its first attempt, and simulateFailures set. */
async function endpointWithDeliveries(count: number, simulateFailures?: number) {
  const { endpoint, delivery } = await storedEndpointWithDelivery({
    merchantId,
    url: 'https://hooks.example.com/x',
    secret,
    now,
  });
  const deliveries: WebhookDelivery[] = [delivery];
  for (let index = 1; index < count; index += 1) {
    // Another event's delivery to the same endpoint, due now as the first one is.
    const other = { ...delivery, webhookDeliveryId: newId('whkdel'), eventId: newId('evt') };
    deliveries.push(await storeDelivery(other, now.toISOString()));
  }
  if (simulateFailures !== undefined) await setSimulateFailures(endpoint, simulateFailures);
  return { endpoint, deliveries };
}

async function setSimulateFailures(endpoint: WebhookEndpoint, simulateFailures: number) {
  await documentClient().send(
    new UpdateCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.webhookEndpoint(merchantId, endpoint.webhookEndpointId),
      UpdateExpression: 'SET simulateFailures = :count',
      ExpressionAttributeValues: { ':count': simulateFailures },
    }),
  );
}

function batch(deliveries: readonly WebhookDelivery[]): SQSEvent {
  return {
    Records: deliveries.map((delivery, index) => ({
      messageId: `m-${index}`,
      body: JSON.stringify({
        merchantId,
        shard: 0,
        webhookEndpointId: delivery.webhookEndpointId,
        webhookDeliveryId: delivery.webhookDeliveryId,
        attemptCount: 0,
      }),
    })),
  } as unknown as SQSEvent;
}

const attemptsOf = async (deliveries: readonly WebhookDelivery[]) =>
  Promise.all(
    deliveries.map(async (delivery) => {
      const stored = await getDelivery(delivery.webhookEndpointId, delivery.webhookDeliveryId, []);
      return stored?.attempts ?? [];
    }),
  );

describe('sandbox failure simulation in the dispatcher', () => {
  it('fails exactly N of 10 concurrent attempts from two dispatchers without a request; the rest are sent', async () => {
    const { endpoint, deliveries } = await endpointWithDeliveries(10, 3);
    const results = await Promise.all([
      dispatchA(batch(deliveries.slice(0, 5))),
      dispatchB(batch(deliveries.slice(5))),
    ]);
    expect(results).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(sends).toHaveLength(7);
    const attempts = (await attemptsOf(deliveries)).flat();
    expect(attempts).toHaveLength(10);
    const simulated = attempts.filter((attempt) => attempt.responseStatusCode === null);
    expect(simulated.map((attempt) => attempt.errorMessage).sort()).toEqual(
      [2, 1, 0].map(simulatedFailureMessage).sort(),
    );
    for (const attempt of simulated) {
      expect(attempt).toMatchObject({ attemptNumber: 1, attemptedAt: now.toISOString(), durationMs: 0 });
    }
    expect(attempts.filter((attempt) => attempt.errorMessage === 'HTTP 500')).toHaveLength(7);
    const stored = await getEndpoint(merchantId, endpoint.webhookEndpointId);
    expect(stored?.endpoint.simulateFailures).toBeUndefined();
  });

  it('sends no extra command for an endpoint without a simulation, and one conditional update with one', async () => {
    const plain = await endpointWithDeliveries(2);
    const commandsOf = async (deliveries: readonly WebhookDelivery[]) => {
      const commands: string[] = [];
      await withDocumentClientMiddleware(
        (next, context) => async (args) => {
          const update = String(args.input.UpdateExpression ?? '');
          const tag = update.includes('simulateFailures')
            ? ' simulateFailures'
            : update.includes('failingSince')
              ? ' health'
              : '';
          commands.push(`${context.commandName}${tag}`);
          return next(args);
        },
        () => dispatchA(batch(deliveries)),
      );
      return commands.sort();
    };
    const withoutSimulation = await commandsOf(plain.deliveries);
    // One endpoint read for the batch, then per delivery its lease and its recorded attempt, and the
    // endpoint's one health write for the batch: its first failure (docs/decisions/endpoint-health.md).
    expect(withoutSimulation.filter((name) => name === 'GetItemCommand')).toHaveLength(1);
    expect(withoutSimulation.filter((name) => name === 'UpdateItemCommand health')).toHaveLength(1);
    expect(withoutSimulation).toHaveLength(1 + 2 * plain.deliveries.length + 1);
    expect(withoutSimulation.filter((name) => name.includes('simulateFailures'))).toEqual([]);
    expect(sends).toHaveLength(2);

    const simulating = await endpointWithDeliveries(2, 1);
    const withSimulation = await commandsOf(simulating.deliveries);
    // Both attempts read a count of 1; the one that takes it sends nothing, the other sends.
    expect(withSimulation).toEqual(
      [
        ...withoutSimulation,
        'UpdateItemCommand simulateFailures',
        'UpdateItemCommand simulateFailures',
      ].sort(),
    );
    expect(sends).toHaveLength(3);
  });

  it('takes nothing from an endpoint whose count is spent, and says so', async () => {
    const { endpoint } = await endpointWithDeliveries(1, 1);
    expect(await takeSimulatedFailure(merchantId, endpoint.webhookEndpointId)).toBe(0);
    expect(await takeSimulatedFailure(merchantId, endpoint.webhookEndpointId)).toBeUndefined();
    expect(await takeSimulatedFailure(merchantId, newId('whk'))).toBeUndefined();
  });

  it('refuses an endpoint write that would give back a count taken since it was read', async () => {
    const { endpoint } = await endpointWithDeliveries(1, 3);
    const read = await getEndpoint(merchantId, endpoint.webhookEndpointId);
    if (read === undefined) throw new Error('endpoint not stored');
    await takeSimulatedFailure(merchantId, endpoint.webhookEndpointId);
    const renamed = updateWebhookEndpoint(read.endpoint, { name: 'Renamed' }, now.toISOString());
    const write = buildReplaceEndpoint(read, {
      endpoint: renamed,
      sealedSigningSecret: read.sealedSigningSecret,
    });
    await expect(sendTransaction(write)).rejects.toBeInstanceOf(TransactionConditionFailed);
    // A write that sets a new count replaces whatever is left.
    const reset = updateWebhookEndpoint(read.endpoint, { simulateFailures: 5 }, now.toISOString());
    await sendTransaction(
      buildReplaceEndpoint(read, { endpoint: reset, sealedSigningSecret: read.sealedSigningSecret }),
    );
    expect((await getEndpoint(merchantId, endpoint.webhookEndpointId))?.endpoint.simulateFailures).toBe(5);
  });
});
