import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../functions/delivery/router';
import { newEndpointNotice } from '../../functions/domain/endpoint-notice';
import { newId } from '../../functions/domain/ids';
import type { MailMessage } from '../../functions/email/mail-message';
import { documentClient, tableName } from '../../functions/store/client';
import { putNewNotice } from '../../functions/store/invoice-emails';
import { keys } from '../../functions/store/keys';
import { updateMerchantContacts } from '../../functions/store/merchants';
import { getEndpoint } from '../../functions/store/webhook-endpoints';
import { sesLocalClient } from '../../tools/local/ses-local';
import { e2eFile, merchantId, t, webhookSettings } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import { expectOk } from '../support/invoice-requests';
import { newKey } from '../support/local-runtime';
import { inboxFor, reconcilerThrough, testMailer, untilInboxHolds } from '../support/mail-inbox';
import { mailSettled } from '../support/mail-settled';
import { streamEvent, streamRecord } from '../support/stream-records';

/*
 * A failing endpoint is reported, never disabled (docs/emails.md#failing-endpoints): the merchant's
 * notification address gets one email a day into a run of failed attempts and one more at five
 * days, through the local runtime's dispatcher, router and mailer into its inbox. The run's age is
 * set by moving its start back in the table; every attempt is a real one to a receiver that fails.
 */

const test = e2eFile(webhookSettings);
let receiver: HttpsReceiver;

test.beforeAll(({ receiver: started }) => {
  receiver = started;
  // Every path under /down/ answers 503; the rest 200.
  receiver.respondWith((request) =>
    request.path.startsWith('/down/') ? { status: 503, body: 'down' } : { status: 200, body: 'ok' },
  );
}, 180_000);

const hour = 60 * 60 * 1000;
const day = 24 * hour;
const endpoints = () => `/merchants/${merchantId}/webhook-endpoints`;

/** A new notification address of the runtime's merchant, this test's own. */
async function notifiedAt(): Promise<string> {
  const address = `ops.${newId('cust').slice(-8)}@example.com`;
  await updateMerchantContacts(merchantId, { notificationEmail: address });
  return address;
}

async function failingEndpoint(): Promise<string> {
  const created = expectOk(
    await t.api('POST', endpoints(), {
      body: { url: receiver.url(`/down/${newId('cust').slice(-8)}`), eventTypes: ['invoices.InvoiceSent'] },
      idempotencyKey: newKey(),
    }),
  );
  return created.webhookEndpointId as string;
}

/** One test delivery: a real attempt to the endpoint's url. */
async function attempt(endpointId: string): Promise<string> {
  const sent = expectOk(
    await t.api('POST', `${endpoints()}/${endpointId}/test`, {
      body: { eventType: 'invoices.InvoiceSent' },
      idempotencyKey: newKey(),
    }),
  );
  return sent.webhookDeliveryId as string;
}

/** Waits until the delivery has had `count` attempts, all failed. */
async function untilAttempted(endpointId: string, deliveryId: string, count = 1): Promise<void> {
  await expect
    .poll(
      async () => {
        const page = expectOk(await t.api('GET', `${endpoints()}/${endpointId}/deliveries`));
        const delivery = page.items.find((item: any) => item.webhookDeliveryId === deliveryId);
        return delivery?.attemptCount ?? 0;
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBeGreaterThanOrEqual(count);
}

/** Moves the start of the endpoint's failing run `ago` back, as if it had failed that long. */
async function failingFor(endpointId: string, ago: number): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookEndpoint(merchantId, endpointId),
      UpdateExpression: 'SET failingSince = :since',
      ConditionExpression: 'attribute_exists(failingSince)',
      ExpressionAttributeValues: { ':since': new Date(Date.now() - ago).toISOString() },
    }),
  );
}

/**
 * A first real failure starts the endpoint's run, which is then made `ago` old; `attempts` of the
 * first delivery are waited for first (all 5 leave no retry of it to come later).
 */
async function runOfAge(endpointId: string, ago: number, attempts = 1): Promise<void> {
  const first = await attempt(endpointId);
  await untilAttempted(endpointId, first, attempts);
  await expect
    .poll(async () => (await getEndpoint(merchantId, endpointId))?.endpoint.failingSince, { timeout: 20_000 })
    .toBeDefined();
  await failingFor(endpointId, ago);
}

describe('a failing endpoint is reported to the merchant', () => {
  it('emails the notification address once a day into a failing run and once more at five days', async () => {
    const address = await notifiedAt();
    const endpointId = await failingEndpoint();
    await runOfAge(endpointId, 25 * hour);
    expect(await inboxFor(t, [address])).toHaveLength(0);

    await untilAttempted(endpointId, await attempt(endpointId));
    const [first] = await untilInboxHolds(t, [address], 1);
    expect(first?.subject).toBe(`Webhook endpoint ${endpointId} has failed every attempt for 24 hours`);
    const text = first?.body.text ?? '';
    expect(text).toContain(`Endpoint: ${endpointId}`);
    expect(text).toContain('Last error: HTTP 503');
    expect(text).toContain(`POST /merchants/${merchantId}/webhook-endpoints/${endpointId}/recover`);
    expect(first?.body.html).toContain('How to recover');
    const stored = await getEndpoint(merchantId, endpointId);
    expect(stored?.endpoint.status).toBe('active');
    expect(stored?.failingNotice).toMatchObject({ after: '24h', lastError: 'HTTP 503 Service Unavailable' });

    // More failures in the same run, each delivery with its retries: no second day notice.
    await untilAttempted(endpointId, await attempt(endpointId), 2);
    await untilInboxHolds(t, [address], 1);

    // The stream hands the marking write over again: the same notice, queued again, made once.
    const item = (await t.scanTable()).find(
      (each) => each.entityType === 'WebhookEndpoint' && each.webhookEndpointId === endpointId,
    ) as Record<string, unknown>;
    const { failingNotice: _marked, ...before } = item;
    const handed: MailMessage[] = [];
    const router = createRouter({
      queue: { send: async () => undefined },
      mailQueue: { send: async (message) => void handed.push(message) },
    });
    const replay = streamRecord('MODIFY', { newImage: item, oldImage: before });
    expect(await router(streamEvent(replay, replay))).toEqual({ batchItemFailures: [] });
    expect(handed).toHaveLength(2);
    expect(new Set(handed.map((message) => message.emailId)).size).toBe(1);
    const notices = (await t.scanTable()).filter(
      (each) => each.entityType === 'EndpointNotice' && each.webhookEndpointId === endpointId,
    );
    expect(notices).toMatchObject([{ emailId: handed[0]?.emailId, status: 'sent', attemptCount: 1 }]);

    await failingFor(endpointId, 5 * day + hour);
    await untilAttempted(endpointId, await attempt(endpointId));
    const held = await untilInboxHolds(t, [address], 2);
    expect(held.map((email) => email.subject)).toContain(
      `Webhook endpoint ${endpointId} has failed every attempt for 5 days`,
    );
    await untilAttempted(endpointId, await attempt(endpointId), 2);
    await untilInboxHolds(t, [address], 2);
    expect((await getEndpoint(merchantId, endpointId))?.endpoint.status).toBe('active');
  });

  it('sends no notice for a simulated sandbox failure, however old the run', async () => {
    const address = await notifiedAt();
    const endpointId = await failingEndpoint();
    await runOfAge(endpointId, 2 * day, 5);
    // Every attempt of the next delivery is simulated: none sends a request.
    expectOk(
      await t.api('PATCH', `${endpoints()}/${endpointId}`, {
        body: { simulateFailures: 5 },
        idempotencyKey: newKey(),
      }),
    );
    const requests = receiver.requests.length;
    const simulated = await attempt(endpointId);
    await untilAttempted(endpointId, simulated, 5);
    expect(receiver.requests.length).toBe(requests);
    await mailSettled(t);
    expect(await inboxFor(t, [address])).toHaveLength(0);
    expect((await getEndpoint(merchantId, endpointId))?.failingNotice).toBeUndefined();
  });

  it('makes no notice for a merchant without a notification address', async () => {
    await updateMerchantContacts(merchantId, { notificationEmail: null });
    const endpointId = await failingEndpoint();
    await runOfAge(endpointId, 25 * hour);
    await untilAttempted(endpointId, await attempt(endpointId));
    await expect
      .poll(async () => (await getEndpoint(merchantId, endpointId))?.failingNotice?.after, {
        timeout: 20_000,
      })
      .toBe('24h');
    await mailSettled(t);
    const notices = (await t.scanTable()).filter(
      (item) => item.entityType === 'EndpointNotice' && item.webhookEndpointId === endpointId,
    );
    expect(notices).toEqual([]);
  });

  it('queues again a notice whose message was lost, from the reconciler, and sends it once', async () => {
    const address = await notifiedAt();
    const endpointId = await failingEndpoint();
    const madeAt = new Date(Date.now() - 10 * 60_000).toISOString();
    const lost = newEndpointNotice({
      merchantId,
      webhookEndpointId: endpointId,
      url: receiver.url('/down/lost'),
      failingSince: new Date(Date.now() - 2 * day).toISOString(),
      after: '24h',
      lastError: 'HTTP 503 Service Unavailable',
      lastAttemptAt: madeAt,
      recipient: address,
      now: madeAt,
    });
    await putNewNotice(lost);
    const ses = sesLocalClient(new URL(t.runtime.mailInboxUrl).origin);
    const mailer = testMailer(t, 'ses', (input) => ses.send(new SendEmailCommand(input)));
    const { reconcile, requeued } = reconcilerThrough(mailer);
    // Nothing but a reconciler queues it (this one, or the runtime's own, which runs every minute).
    await reconcile();
    const [sent] = await untilInboxHolds(t, [address], 1);
    expect(sent?.subject).toContain(endpointId);
    const stored = (await t.scanTable()).find((item) => item.emailId === lost.emailId);
    expect(stored).toMatchObject({ entityType: 'EndpointNotice', status: 'sent', attemptCount: 1 });
    // Sent, it left the due index: a later run queues it no more.
    requeued.length = 0;
    await reconcile();
    ses.destroy();
    expect(requeued.map((message) => message.emailId)).not.toContain(lost.emailId);
    expect(stored).not.toHaveProperty('GSI1PK');
  });
});
