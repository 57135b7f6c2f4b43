import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newId } from '../../functions/domain/ids';
import { documentClient } from '../../functions/store/client';
import { EntityType, keys } from '../../functions/store/keys';
import { e2eFile, merchantId, t, webhookSettings } from '../support/e2e-test';
import { endpointDeliveries, waitForEndpointDeliveries } from '../support/endpoint-deliveries';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { newKey } from '../support/local-runtime';
import { cards, sandboxPayment, testCard } from '../support/payment-requests';
import { expectVerifiedDelivery } from '../support/webhook-checks';

const test = e2eFile(webhookSettings);
let receiver: HttpsReceiver;

test.beforeAll(({ receiver: started }) => {
  receiver = started;
}, 180_000);

const endpoints = () => `/merchants/${merchantId}/webhook-endpoints`;

async function subscribe(path: string) {
  const created = expectOk(
    await t.api('POST', endpoints(), {
      body: { url: receiver.url(path), eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    }),
  );
  return { id: created.webhookEndpointId as string, secret: created.signingSecret as string };
}

const deliveriesOf = (endpointId: string) => endpointDeliveries(t.api, merchantId, endpointId);
const waitForDeliveries = (endpointId: string, done: (items: any[]) => boolean) =>
  waitForEndpointDeliveries(t.api, merchantId, endpointId, done);

/** Issues an invoice: one invoices.InvoiceSent event. */
async function sendInvoice(): Promise<void> {
  const refs = await invoiceFixtures(t.api, merchantId);
  const draft = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
  expectOk(await invoiceAction(t.api, merchantId, draft.invoiceId, 'issue'));
}

function recover(endpointId: string, body: Record<string, unknown>, idempotencyKey = newKey()) {
  return t.api('POST', `${endpoints()}/${endpointId}/recover`, { body, idempotencyKey });
}

/** The endpoint as the list shows it (there is no GET of one endpoint). */
async function endpointView(endpointId: string): Promise<any> {
  const page = expectOk(await t.api('GET', endpoints(), { query: { limit: 100 } }));
  return page.items.find((item: any) => item.webhookEndpointId === endpointId);
}

/**
 * Sends a test delivery and waits for it to succeed: the endpoint has then shown that it answers,
 * which a recovery requires (docs/decisions/recovery-needs-an-endpoint-that-answers.md).
 */
async function answered(endpointId: string): Promise<void> {
  const test = expectOk(
    await t.api('POST', `${endpoints()}/${endpointId}/test`, {
      body: { eventType: 'invoices.InvoiceSent' },
      idempotencyKey: newKey(),
    }),
  );
  await waitForDeliveries(endpointId, (items) =>
    items.some((item) => item.webhookDeliveryId === test.webhookDeliveryId && item.status === 'succeeded'),
  );
  await untilAnswering(endpointId);
}

/**
 * Waits until the endpoint shows a success and no failure since: the dispatcher records that after
 * the receiver answered, in a write of its own, so a receiver's request alone does not show it yet.
 */
async function untilAnswering(endpointId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const view = await endpointView(endpointId);
        return { answered: view.lastSucceededAt !== undefined, failingSince: view.failingSince };
      },
      { timeout: 20_000, interval: 100 },
    )
    .toEqual({ answered: true, failingSince: undefined });
}

/** Polls the recovery until it is no longer running (30 s at most). */
async function finished(endpointId: string, recoveryId: string): Promise<any> {
  let recovery: any;
  await expect
    .poll(
      async () => {
        recovery = expectOk(await t.api('GET', `${endpoints()}/${endpointId}/recoveries/${recoveryId}`));
        return recovery.status;
      },
      { timeout: 30_000, interval: 200 },
    )
    .not.toBe('running');
  return recovery;
}

describe('POST …/webhook-endpoints/{id}/recover', () => {
  it('redelivers each event of an exhausted window exactly once, after a simulated-failure endpoint exhausted it', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const endpoint = await subscribe('/recovered');
    // Three events' deliveries and one manual redelivery: 4 × 5 attempts fail without a request.
    expectOk(
      await t.api('PATCH', `${endpoints()}/${endpoint.id}`, {
        body: { simulateFailures: 20 },
        idempotencyKey: newKey(),
      }),
    );
    for (let invoice = 0; invoice < 3; invoice += 1) await sendInvoice();
    const originals = await waitForDeliveries(
      endpoint.id,
      (items) => items.length === 3 && items.every((item) => item.status === 'exhausted'),
    );
    const [first] = originals;
    const manual = expectOk(
      await t.api('POST', `${endpoints()}/${endpoint.id}/deliveries/${first.webhookDeliveryId}/redeliver`, {
        idempotencyKey: newKey(),
      }),
    );
    await waitForDeliveries(endpoint.id, (items) =>
      items.some(
        (item) => item.webhookDeliveryId === manual.webhookDeliveryId && item.status === 'exhausted',
      ),
    );
    // The simulation is spent: the next event reaches the receiver, and is not recovered.
    await sendInvoice();
    await receiver.waitFor(1, 20_000);
    expect(receiver.requests).toHaveLength(1);
    await untilAnswering(endpoint.id);

    const key = newKey();
    const started = await recover(endpoint.id, { since }, key);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({
      recoveryId: expect.stringMatching(/^whkrec_/),
      webhookEndpointId: endpoint.id,
      merchantId,
      since,
      status: 'running',
      exhaustedFound: 0,
      redelivered: 0,
      skipped: 0,
      completedAt: null,
    });
    expect(Date.parse(started.body.until)).toBeGreaterThan(Date.parse(since));
    const replayed = await recover(endpoint.id, { since }, key);
    expect(replayed.status).toBe(201);
    expect(replayed.body).toEqual(started.body);

    const done = await finished(endpoint.id, started.body.recoveryId);
    expect(done).toMatchObject({ status: 'completed', exhaustedFound: 4, redelivered: 3, skipped: 1 });
    const requests = await receiver.waitFor(4, 30_000);
    const recovered = requests.slice(1);
    const eventIds = recovered.map((request) => request.headers['merchant-webhook-event-id']);
    expect([...eventIds].sort()).toEqual(originals.map((item) => item.eventId).sort());
    expect(recovered.map((request) => Number(request.headers['merchant-webhook-sequence'])).sort()).toEqual([
      6, 7, 8,
    ]);
    for (const request of recovered) expectVerifiedDelivery(request, endpoint.secret);

    // Each event's newest exhausted delivery is the one recovered: the manual redelivery for the first.
    const items = await waitForDeliveries(
      endpoint.id,
      (all) => all.filter((item) => item.status === 'succeeded').length === 4,
    );
    const recoveredFrom = items
      .filter((item) => item.status === 'succeeded' && item.redeliveredFromId !== null)
      .map((item) => item.redeliveredFromId)
      .sort();
    expect(recoveredFrom).toEqual(
      [manual.webhookDeliveryId, originals[1].webhookDeliveryId, originals[2].webhookDeliveryId].sort(),
    );
    const ofFirstEvent = expectOk(
      await t.api('GET', `/events/${first.eventId}/deliveries`, { query: { merchantId } }),
    );
    expect(ofFirstEvent.items).toHaveLength(3);

    // The same window again: every event's newest delivery has succeeded, so nothing is sent twice.
    const again = expectOk(await recover(endpoint.id, { since }));
    expect(await finished(endpoint.id, again.recoveryId)).toMatchObject({
      status: 'completed',
      exhaustedFound: 4,
      redelivered: 0,
      skipped: 4,
    });
    expect(await deliveriesOf(endpoint.id)).toHaveLength(items.length);
    expect(receiver.requests).toHaveLength(4);
  }, 120_000);

  it('answers 409 naming the running recovery while one runs, and 409 on a disabled endpoint', async () => {
    const endpoint = await subscribe('/locked');
    const running = newId('whkrec');
    await documentClient().send(
      new PutCommand({
        TableName: t.runtime.tableName,
        Item: {
          ...keys.webhookRecoveryLock(merchantId, endpoint.id),
          entityType: EntityType.webhookRecoveryLock,
          recoveryId: running,
        },
      }),
    );
    const refused = await recover(endpoint.id, { since: new Date(Date.now() - 60_000).toISOString() });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'invalid_state' });
    expect(refused.body.error.message).toContain(running);

    const other = await subscribe('/disabled');
    expectOk(
      await t.api('PATCH', `${endpoints()}/${other.id}`, {
        body: { status: 'disabled' },
        idempotencyKey: newKey(),
      }),
    );
    const disabled = await recover(other.id, { since: new Date(Date.now() - 60_000).toISOString() });
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.message).toContain('disabled');
  });

  it('refuses a window reaching past 90 days, or ending before it starts, with 400 naming since', async () => {
    const endpoint = await subscribe('/window');
    await answered(endpoint.id);
    const day = 24 * 60 * 60 * 1000;
    const old = await recover(endpoint.id, { since: new Date(Date.now() - 91 * day).toISOString() });
    expect(old.status).toBe(400);
    expect(old.body.error).toMatchObject({
      code: 'validation_error',
      details: [
        { path: 'since', message: 'must be within the last 90 days: deliveries are kept that long.' },
      ],
    });
    const reversed = await recover(endpoint.id, {
      since: new Date(Date.now() - day).toISOString(),
      until: new Date(Date.now() - 2 * day).toISOString(),
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.details).toEqual([
      { path: 'since', message: 'must not be after until (or now, when until is left out or later).' },
    ]);
    const future = expectOk(
      await recover(endpoint.id, {
        since: new Date(Date.now() - day).toISOString(),
        until: new Date(Date.now() + day).toISOString(),
      }),
    );
    expect(Date.parse(future.until)).toBeLessThanOrEqual(Date.now());
  });

  it("answers 404 for another endpoint's recovery and for an unknown one", async () => {
    const endpoint = await subscribe('/own');
    const other = await subscribe('/other');
    await answered(endpoint.id);
    const recovery = expectOk(
      await recover(endpoint.id, { since: new Date(Date.now() - 60_000).toISOString() }),
    );
    const elsewhere = await t.api('GET', `${endpoints()}/${other.id}/recoveries/${recovery.recoveryId}`);
    expect(elsewhere.status).toBe(404);
    const unknown = await t.api('GET', `${endpoints()}/${endpoint.id}/recoveries/${newId('whkrec')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('The recovery does not exist.');
  });
});

describe('the recovery quota of an endpoint', () => {
  it('starts at most 5 recoveries an hour, then answers 429 with Retry-After and starts nothing', async () => {
    const endpoint = await subscribe('/quota');
    await answered(endpoint.id);
    const since = new Date(Date.now() - 60_000).toISOString();
    const firstKey = newKey();
    let first: any;
    for (let start = 0; start < 5; start += 1) {
      const started = expectOk(await recover(endpoint.id, { since }, start === 0 ? firstKey : newKey()));
      first ??= started;
      await finished(endpoint.id, started.recoveryId);
    }
    const recoveries = async () =>
      (await t.scanTable()).filter(
        (item) => item.entityType === 'WebhookRecovery' && item.webhookEndpointId === endpoint.id,
      );
    expect(await recoveries()).toHaveLength(5);

    const refused = await recover(endpoint.id, { since });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      message:
        "This webhook endpoint's url has had 5 recoveries started within the last hour, its most; try again later.",
      requestId: expect.any(String),
    });
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await recoveries()).toHaveLength(5);
    // An earlier start retried with its key is replayed, not refused.
    const replayed = await recover(endpoint.id, { since }, firstKey);
    expect(replayed.status).toBe(201);
    expect(replayed.body).toEqual(first);
  }, 120_000);
});

/** An endpoint at `url` subscribed to PaymentCreated, and 20 sandbox payments: 20 events for it. */
async function paymentsEndpointWithTwentyEvents(url: string): Promise<string> {
  const created = expectOk(
    await t.api('POST', endpoints(), {
      body: { url, eventTypes: ['payments.PaymentCreated'] },
      idempotencyKey: newKey(),
    }),
  );
  const { customerId } = await invoiceFixtures(t.api, merchantId);
  for (let payment = 0; payment < 20; payment += 1) {
    expectOk(
      await sandboxPayment(t.api, {
        merchantId,
        customerId,
        amount: 1000 + payment,
        currency: 'USD',
        paymentMethod: testCard(cards.succeeds),
      }),
    );
  }
  return created.webhookEndpointId as string;
}

describe('recovery against an endpoint that does not answer', () => {
  it('sends nothing to a receiver answering 404, and each missed event once after a test delivery succeeds', async () => {
    const refusing = await startHttpsReceiver({ respondWith: () => ({ status: 404, body: 'no such page' }) });
    try {
      const since = new Date(Date.now() - 60 * 60 * 1000).toISOString();
      const endpointId = await paymentsEndpointWithTwentyEvents(refusing.url('/gone'));
      // 20 events × 5 attempts, 1 s apart, every one a 404.
      const exhausted = await waitForEndpointDeliveries(
        t.api,
        merchantId,
        endpointId,
        (items) => items.length === 20 && items.every((item) => item.status === 'exhausted'),
        60_000,
      );
      expect(refusing.requests).toHaveLength(100);
      const failing = await endpointView(endpointId);
      expect(failing.failingSince).toEqual(expect.any(String));
      expect(failing.lastSucceededAt).toBeUndefined();

      const refusedKey = newKey();
      for (let call = 0; call < 3; call += 1) {
        const refused = await recover(endpointId, { since }, refusedKey);
        expect(refused.status).toBe(409);
        expect(refused.body.error).toMatchObject({
          code: 'endpoint_unhealthy',
          requestId: expect.any(String),
        });
        expect(refused.body.error.message).toContain(`every attempt since ${failing.failingSince} failed`);
        expect(refused.body.error.message).toContain('Send a test delivery');
      }
      // Nothing was started: no recovery runs, no delivery was made, the receiver got nothing more.
      const items = await t.scanTable();
      expect(
        items.filter(
          (item) => item.entityType === 'WebhookRecovery' && item.webhookEndpointId === endpointId,
        ),
      ).toEqual([]);
      expect(await deliveriesOf(endpointId)).toHaveLength(20);
      expect(refusing.requests).toHaveLength(100);

      // Fixed: a test delivery succeeds, and one recovery sends each missed event exactly once.
      refusing.respondWith(() => ({ status: 200, body: 'ok' }));
      refusing.clear();
      await answered(endpointId);
      expect(refusing.requests).toHaveLength(1);
      const healthy = await endpointView(endpointId);
      expect(healthy.failingSince).toBeUndefined();
      expect(healthy.lastSucceededAt).toEqual(expect.any(String));
      // The refusal was not kept for its key: the same call, retried once the endpoint answers, starts.
      const started = expectOk(await recover(endpointId, { since }, refusedKey));
      expect(await finished(endpointId, started.recoveryId)).toMatchObject({
        status: 'completed',
        exhaustedFound: 20,
        redelivered: 20,
        skipped: 0,
      });
      const received = await refusing.waitFor(21, 30_000);
      const recovered = received.filter((request) => request.headers['merchant-webhook-test'] !== 'true');
      const perEvent = new Map<string, number>();
      for (const request of recovered) {
        const eventId = request.headers['merchant-webhook-event-id'] ?? '';
        perEvent.set(eventId, (perEvent.get(eventId) ?? 0) + 1);
      }
      expect([...perEvent.keys()].sort()).toEqual(exhausted.map((item) => item.eventId).sort());
      expect([...perEvent.values()]).toEqual(Array.from({ length: 20 }, () => 1));
      // Settled: nothing more arrives.
      await waitForDeliveries(
        endpointId,
        (all) => all.filter((item) => item.status === 'succeeded').length === 21,
      );
      expect(refusing.requests).toHaveLength(21);
    } finally {
      await refusing.close();
    }
  }, 180_000);
});

describe('a recovery and a change of url', () => {
  it('sends nothing to a url set while its deliveries are retried: only the url whose health was checked gets them', async () => {
    const flaky = await startHttpsReceiver({ respondWith: () => ({ status: 500, body: 'down' }) });
    const thirdParty = await startHttpsReceiver({ respondWith: () => ({ status: 404, body: 'not ours' }) });
    try {
      const since = new Date(Date.now() - 60 * 60 * 1000).toISOString();
      const endpointId = await paymentsEndpointWithTwentyEvents(flaky.url('/hooks'));
      await waitForDeliveries(
        endpointId,
        (items) => items.length === 20 && items.every((item) => item.status === 'exhausted'),
      );
      // The url answers a test, so a recovery starts; its redeliveries still fail, and wait to be retried.
      flaky.respondWith((request) =>
        request.headers['merchant-webhook-test'] === 'true' ? { status: 200 } : { status: 500, body: 'down' },
      );
      await answered(endpointId);
      const started = expectOk(await recover(endpointId, { since }));
      expect(await finished(endpointId, started.recoveryId)).toMatchObject({
        status: 'completed',
        redelivered: 20,
      });
      const isRecovered = (item: any) =>
        item.redeliveredFromId !== null && item.createdAt >= started.createdAt;
      await waitForDeliveries(endpointId, (items) => {
        const recovered = items.filter(isRecovered);
        return recovered.length === 20 && recovered.every((item) => item.attemptCount >= 1);
      });

      // The merchant points the endpoint at a third party at once.
      const moved = await t.api('PATCH', `${endpoints()}/${endpointId}`, {
        body: { url: thirdParty.url('/elsewhere') },
        idempotencyKey: newKey(),
      });
      expect(moved.status).toBe(200);

      const settled = await waitForDeliveries(endpointId, (items) =>
        items.every((item) => item.status !== 'pending'),
      );
      const recovered = settled.filter(isRecovered);
      expect(recovered).toHaveLength(20);
      // Each ended unsent once the url changed: exhausted, with only the attempts made to the old url.
      for (const item of recovered) {
        expect(item.status).toBe('exhausted');
        expect(item.attemptCount).toBeLessThan(5);
      }
      expect(thirdParty.requests).toHaveLength(0);
    } finally {
      await flaky.close();
      await thirdParty.close();
    }
  }, 180_000);
});

describe('recovering the moment a test delivery is answered', () => {
  it('starts the recovery each time, though the dispatcher has not yet recorded the success', async () => {
    const starts: Promise<{ status: number; body: any }>[] = [];
    let endpointId = '';
    const since = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const eager = await startHttpsReceiver({ respondWith: () => ({ status: 500, body: 'down' }) });
    try {
      for (let round = 0; round < 20; round += 1) {
        const created = expectOk(
          await t.api('POST', endpoints(), {
            body: { url: eager.url(`/eager/${round}`), eventTypes: ['invoices.InvoiceSent'] },
            idempotencyKey: newKey(),
          }),
        );
        endpointId = created.webhookEndpointId as string;
        const id = endpointId;
        // The merchant's receiver answers the test delivery 2xx and, as that answer leaves, recovers.
        eager.respondWith(() => ({
          status: 200,
          onFinish: () => {
            starts.push(recover(id, { since }).then(({ status, body }) => ({ status, body })));
          },
        }));
        expectOk(
          await t.api('POST', `${endpoints()}/${endpointId}/test`, {
            body: { eventType: 'invoices.InvoiceSent' },
            idempotencyKey: newKey(),
          }),
        );
        await expect.poll(() => starts.length, { timeout: 20_000, interval: 20 }).toBe(round + 1);
        await starts[round];
        // Each round on an endpoint of its own, never yet answered; the merchant's 20 endpoints stay free.
        expectOk(await t.api('DELETE', `${endpoints()}/${endpointId}`, { idempotencyKey: newKey() }));
      }
      const results = await Promise.all(starts);
      expect(
        results.map(({ status, body }) => (status === 201 ? 201 : `${status} ${JSON.stringify(body)}`)),
      ).toEqual(Array.from({ length: 20 }, () => 201));
    } finally {
      await eager.close();
    }
  }, 180_000);
});
