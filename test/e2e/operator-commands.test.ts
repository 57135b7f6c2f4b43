import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSigningSecret } from '../../functions/domain/webhook-secret';
import { callLocalOperator } from '../../tools/admin/local-operator';
import { OperatorRoutes } from '../../tools/local/operator-channel';
import { localAdmin } from '../support/admin-process';
import { e2eTest, webhookSettings } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { newKey, type TestRuntime } from '../support/local-runtime';
import { storedEndpointWithDelivery } from '../support/stored-endpoint';
import { expectVerifiedDelivery } from '../support/webhook-checks';

// Two receives 0.2 s apart fill the dead-letter list in well under a second instead of minutes.
const test = e2eTest(webhookSettings, {
  onDispatcherBatch: () => {
    if (dispatcherDown) throw new Error('the dispatcher is down (test)');
  },
  deliveryQueue: { maxReceiveCount: 2, visibilityTimeoutSeconds: 0.2 },
});
let t: TestRuntime;
/** While set, every batch the queue hands the dispatcher fails, as a dispatcher outage would. */
let dispatcherDown = false;

test.beforeAll(({ t: runtime }) => {
  t = runtime;
});

// In this process: the commands' work against the runtime is the subject here, and cli.test.ts and
// key-revocation.test.ts run the CLI as a process of its own.
const admin = localAdmin(() => t.stateDir, { inProcess: true });

async function deadLetters(): Promise<number> {
  return ((await callLocalOperator(t.stateDir, OperatorRoutes.deadLetters)) as { count: number }).count;
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('operator commands against the running local runtime', () => {
  test('redrives dead-lettered deliveries, which are then delivered, and shows their attempts and failures', async ({
    receivers,
  }) => {
    const merchantId = t.runtime.merchantId;
    // The first request fails with a 500, so the delivery records a failed attempt before it succeeds.
    const receiver: HttpsReceiver = await receivers.start({
      respondWith: () => (receiver.requests.length === 1 ? { status: 500 } : { status: 200 }),
    });
    const overdueReceiver = await receivers.start();
    const endpoint = expectOk(
      await t.api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
        body: { url: receiver.url(), eventTypes: ['invoices.InvoiceSent'] },
        idempotencyKey: newKey(),
      }),
    );
    const refs = await invoiceFixtures(t.api, merchantId);

    dispatcherDown = true;
    const draft = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    expectOk(await invoiceAction(t.api, merchantId, draft.invoiceId, 'issue'));
    // A delivery due ten minutes ago: overdue for the reconciler, whose copy is dead-lettered too.
    const overdue = await storedEndpointWithDelivery({
      merchantId,
      url: overdueReceiver.url(),
      secret: newSigningSecret(randomBytes),
      now: new Date(Date.now() - 10 * 60_000),
    });
    await until(async () => (await deadLetters()) === 2, 'two dead letters');

    const reconciled = await admin('reconciler', 'run');
    expect(reconciled).toMatchObject({ code: 0, stderr: '', output: { requeued: 1 } });
    await until(async () => (await deadLetters()) === 3, 'the reconciled copy dead-lettered');
    expect(receiver.requests).toHaveLength(0);

    dispatcherDown = false;
    const redriven = await admin('queues', 'redrive');
    expect(redriven).toMatchObject({ code: 0, stderr: '', output: { moved: 3 } });
    expect(redriven.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(await deadLetters()).toBe(0);

    const [failed, delivered] = await receiver.waitFor(2, 20_000);
    const body = expectVerifiedDelivery(delivered as never, endpoint.signingSecret);
    expect(body.type).toBe('invoices.InvoiceSent');
    expect(failed?.headers['webhook-id']).toBe(delivered?.headers['webhook-id']);
    await overdueReceiver.waitFor(1, 20_000);
    const deliveriesPath = `/merchants/${merchantId}/webhook-endpoints/${endpoint.webhookEndpointId}/deliveries`;
    let listed: any;
    await until(async () => {
      listed = (await t.api('GET', deliveriesPath)).body.items[0];
      return listed?.status === 'succeeded';
    }, 'the delivery to succeed');

    const shown = await admin(
      'deliveries',
      'show',
      '--delivery',
      listed.webhookDeliveryId,
      '--endpoint',
      endpoint.webhookEndpointId,
      '--merchant',
      merchantId,
    );
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(shown.output).toMatchObject({
      webhookDeliveryId: listed.webhookDeliveryId,
      webhookEndpointId: endpoint.webhookEndpointId,
      merchantId,
      eventType: 'invoices.InvoiceSent',
      status: 'succeeded',
      attemptCount: 2,
      attempts: [
        { attemptNumber: 1, responseStatusCode: 500, errorMessage: expect.any(String) },
        { attemptNumber: 2, responseStatusCode: 200, errorMessage: null },
      ],
    });
    expect(shown.stdout).not.toContain(endpoint.signingSecret);
    expect(shown.output).not.toHaveProperty('data');

    const failures = await admin(
      'endpoints',
      'failures',
      '--endpoint',
      endpoint.webhookEndpointId,
      '--merchant',
      merchantId,
    );
    expect(failures).toMatchObject({ code: 0, stderr: '' });
    expect(failures.output.items).toEqual([
      expect.objectContaining({
        webhookDeliveryId: listed.webhookDeliveryId,
        attemptNumber: 1,
        responseStatusCode: 500,
        attemptedAt: shown.output.attempts[0].attemptedAt,
      }),
    ]);

    // The overdue delivery went out once, though three of its messages were redriven.
    const overdueShown = await admin(
      'deliveries',
      'show',
      '--delivery',
      overdue.delivery.webhookDeliveryId,
      '--endpoint',
      overdue.endpoint.webhookEndpointId,
      '--merchant',
      merchantId,
    );
    expect(overdueShown.output).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect(overdueReceiver.requests).toHaveLength(1);
  }, 90_000);

  it('deliveries show of a delivery the endpoint does not have exits 1 with one line', async () => {
    const result = await admin(
      'deliveries',
      'show',
      '--delivery',
      'whkdel_01h455vb4pex5vsknk084sn02q',
      '--endpoint',
      'whk_01h455vb4pex5vsknk084sn02q',
      '--merchant',
      t.runtime.merchantId,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: endpoint whk_01h455vb4pex5vsknk084sn02q of merchant ${t.runtime.merchantId} does not exist\n`,
    );
  }, 30_000);
});
