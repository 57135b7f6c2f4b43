import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../functions/delivery/router';
import { newId } from '../../functions/domain/ids';
import { newInvoiceEmail } from '../../functions/domain/invoice-email';
import { emailKeyOf, type MailMessage, mailMessageOf } from '../../functions/email/mail-message';
import type { SendEmail } from '../../functions/email/mailer';
import { createSesEventsHandler } from '../../functions/email/ses-events';
import { documentClient, tableName } from '../../functions/store/client';
import { putNewEmails } from '../../functions/store/invoice-emails';
import { keys } from '../../functions/store/keys';
import { sesLocalClient } from '../../tools/local/ses-local';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { apiClient, newKey } from '../support/local-runtime';
import {
  inboxFor,
  reconcilerThrough,
  testMailer as testMailerOf,
  untilInboxHolds,
} from '../support/mail-inbox';
import { mailSettled } from '../support/mail-settled';
import { cards, testCard } from '../support/payment-requests';
import { streamEvent, streamRecord } from '../support/stream-records';

/*
 * The emails an invoice sends (docs/emails.md), end to end through the local runtime and its inbox
 * (`aws-ses-v2-local`): one per recipient on issue, on send and on payment in full, however often
 * the stream or the queue hands the same work over.
 */

e2eInvoiceFile();

/** Notes a merchant's customer could have typed: they must reach the inbox as text. */
const hostileNotes = '<script>alert("notes")</script>';

/** A customer with an email and an invoice to it with two more addresses, all this test's own. */
async function invoiceWithThreeRecipients() {
  const tag = newId('cust').slice(-8);
  const customerEmail = `ada.${tag}@example.com`;
  const additional = [`books.${tag}@example.com`, `owner.${tag}@example.com`];
  const customer = expectOk(
    await t.api('POST', '/customers', {
      body: { merchantId, name: 'Ada Buyer', email: customerEmail },
      idempotencyKey: newId('cust'),
    }),
  );
  const invoice = expectOk(
    await createInvoice(
      t.api,
      invoiceBody(
        merchantId,
        { ...refs, customerId: customer.customerId },
        { additionalNotificationEmails: additional, notes: hostileNotes },
      ),
    ),
  );
  return { invoice, recipients: [customerEmail, ...additional] };
}

const act = (
  invoiceId: string,
  action: 'issue' | 'send' | 'payments',
  fields: Record<string, unknown> = {},
) => invoiceAction(t.api, merchantId, invoiceId, action, fields);

/** A mailer of the runtime's table, as the runtime's own is made, sending through `sendEmail`. */
const testMailer = (delivery: 'ses' | 'capture', sendEmail: SendEmail) =>
  testMailerOf(t, delivery, sendEmail);

/** One more email of the invoice, queued as the router makes one but handed to no queue. */
async function queuedEmail(invoiceId: string, recipient: string, madeAt = new Date()) {
  const email = newInvoiceEmail({
    merchantId,
    invoiceId,
    eventId: newId('evt'),
    kind: 'resent',
    recipient,
    recipientRole: 'customer',
    now: madeAt.toISOString(),
  });
  await putNewEmails([email]);
  return email;
}

/**
 * An SES endpoint that answers the first `throttled` sends with SES's throttling error and hands
 * the rest on to the runtime's inbox.
 */
async function throttlingSes(throttled: number) {
  let refused = 0;
  const inbox = new URL(t.runtime.mailInboxUrl).origin;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.url?.startsWith('/v2/email/outbound-emails') && refused < throttled) {
      refused += 1;
      response.writeHead(429, {
        'content-type': 'application/json',
        'x-amzn-errortype': 'TooManyRequestsException',
      });
      response.end(JSON.stringify({ message: 'Maximum sending rate exceeded.' }));
      return;
    }
    const forwarded = await fetch(`${inbox}${request.url}`, {
      method: request.method ?? 'POST',
      headers: Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !['host', 'connection'].includes(name)),
      ) as Record<string, string>,
      body: Buffer.concat(chunks),
    });
    response.writeHead(forwarded.status, {
      'content-type': forwarded.headers.get('content-type') ?? 'text/plain',
    });
    response.end(Buffer.from(await forwarded.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the emails of an invoice', () => {
  it('sends one email per recipient on issue, on send and a receipt on payment in full', async () => {
    const { invoice, recipients } = await invoiceWithThreeRecipients();

    expectOk(await act(invoice.invoiceId, 'issue'));
    const issued = await untilInboxHolds(t, recipients, 3);
    expect(issued.flatMap((email) => email.destination.to).sort()).toEqual([...recipients].sort());
    for (const email of issued) {
      expect(email.subject).toContain(invoice.invoiceNumber);
      expect(email.body.html).toContain(`/pay#${invoice.invoiceUrlSlug}`);
      expect(email.body.text).toContain(`/pay#${invoice.invoiceUrlSlug}`);
      expect(email.body.html).not.toContain('<script>');
      expect(email.body.html).toContain('&lt;script&gt;');
      expect(email.body.text).toContain(hostileNotes);
    }

    expectOk(await act(invoice.invoiceId, 'send'));
    await untilInboxHolds(t, recipients, 6);

    expectOk(
      await act(invoice.invoiceId, 'payments', { amount: invoice.total.amount, reference: 'cheque 1042' }),
    );
    const all = await untilInboxHolds(t, recipients, 9);
    const subjects = all.map((email) => email.subject);
    const of = (start: string) => subjects.filter((subject) => subject.startsWith(start));
    expect(of(`Invoice ${invoice.invoiceNumber} from`)).toHaveLength(3);
    expect(of(`Reminder: invoice ${invoice.invoiceNumber} from`)).toHaveLength(3);
    expect(of(`Receipt for invoice ${invoice.invoiceNumber} from`)).toHaveLength(3);
    const receipts = all.filter((email) => email.subject.startsWith('Receipt'));
    for (const receipt of receipts) {
      expect(receipt.body.html).not.toContain('/pay#');
      expect(receipt.body.text).toContain('Payment method: Recorded by the merchant\n');
      expect(receipt.body.text).toContain('Reference: cheque 1042\n');
    }
  });

  it("names a pay-link payment's method and id in the receipt", async () => {
    const { invoice, recipients } = await invoiceWithThreeRecipients();
    const issued = expectOk(await act(invoice.invoiceId, 'issue'));
    await untilInboxHolds(t, recipients, 3);
    const publicApi = apiClient(t.runtime.baseUrl, 'unused');
    const paid = expectOk(
      await publicApi('POST', '/pay/payments', {
        authorization: null,
        body: {
          slug: issued.invoiceUrlSlug,
          amount: issued.amountRemaining.amount,
          paymentMethod: testCard(cards.succeeds),
        },
        idempotencyKey: newKey(),
      }),
    );
    const receipts = (await untilInboxHolds(t, recipients, 6)).filter((email) =>
      email.subject.startsWith('Receipt'),
    );
    expect(receipts).toHaveLength(3);
    for (const receipt of receipts) {
      expect(receipt.body.text).toContain('Payment method: Card\n');
      expect(receipt.body.text).toContain(`Reference: ${paid.payment.paymentId}\n`);
      expect(receipt.body.html).toContain(paid.payment.paymentId);
    }
  });

  it('sends nothing more when the stream hands the event over again or a mail message comes twice', async () => {
    const { invoice, recipients } = await invoiceWithThreeRecipients();
    expectOk(await act(invoice.invoiceId, 'issue'));
    await untilInboxHolds(t, recipients, 3);

    // The event again, through a router whose mail queue hands each message to a mailer twice.
    const events = (await t.scanTable()).filter(
      (item: any) => item.entityType === 'Event' && item.payload?.invoiceId === invoice.invoiceId,
    );
    expect(events).toHaveLength(1);
    const ses = sesLocalClient(new URL(t.runtime.mailInboxUrl).origin);
    const mailer = testMailer('ses', (input) => ses.send(new SendEmailCommand(input)));
    const handed: MailMessage[] = [];
    const mailQueue = {
      send: async (message: MailMessage) => {
        handed.push(message);
        for (const copy of [1, 2]) {
          const body = JSON.stringify(message);
          await mailer({ Records: [{ messageId: `copy-${copy}`, body } as never] });
        }
      },
    };
    const router = createRouter({ queue: { send: async () => undefined }, mailQueue });
    const record = streamRecord('INSERT', { newImage: events[0] as Record<string, unknown> });
    expect(await router(streamEvent(record))).toEqual({ batchItemFailures: [] });
    ses.destroy();

    expect(handed).toHaveLength(3);
    expect(await untilInboxHolds(t, recipients, 3)).toHaveLength(3);
    for (const message of handed) {
      const { Item } = await documentClient().send(
        new GetCommand({
          TableName: tableName(),
          Key: keys.email(emailKeyOf(message)),
        }),
      );
      expect(Item).toMatchObject({ status: 'sent', attemptCount: 1 });
    }
  });

  it('sends an email once when SES first answers that it is throttled', async () => {
    const { invoice, recipients } = await invoiceWithThreeRecipients();
    const [recipient] = recipients as [string];
    const email = await queuedEmail(invoice.invoiceId, recipient);
    const ses = await throttlingSes(2);
    const client = sesLocalClient(ses.endpoint);
    const mailer = testMailer('ses', (input) => client.send(new SendEmailCommand(input)));
    const body = JSON.stringify(mailMessageOf(email));
    expect(await mailer({ Records: [{ messageId: 'throttled', body } as never] })).toEqual({
      batchItemFailures: [],
    });
    client.destroy();
    await ses.close();

    expect(ses.refused()).toBe(2);
    expect(await untilInboxHolds(t, [recipient], 1)).toHaveLength(1);
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.invoiceEmail(merchantId, invoice.invoiceId, email.emailId),
      }),
    );
    expect(Item).toMatchObject({ status: 'sent', attemptCount: 1 });
  });

  it('suppresses an address SES reports bounced, so the next email to it is recorded and not sent', async () => {
    const { invoice, recipients } = await invoiceWithThreeRecipients();
    const [customerAddress, ...others] = recipients as [string, ...string[]];
    expectOk(await act(invoice.invoiceId, 'issue'));
    await untilInboxHolds(t, recipients, 3);
    const emailOf = async (address: string, kind: string) =>
      (await t.scanTable()).find(
        (item: any) =>
          item.entityType === 'InvoiceEmail' &&
          item.invoiceId === invoice.invoiceId &&
          item.recipient === address &&
          item.kind === kind,
      ) as any;
    const bounced = await emailOf(customerAddress, 'issued');
    expect(bounced).toMatchObject({ status: 'sent' });

    // SES's event publishing record of a permanent bounce, as its topic delivers it.
    const sesEvent = {
      eventType: 'Bounce',
      bounce: {
        feedbackId: '0100017f-bounce',
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [
          {
            emailAddress: customerAddress,
            action: 'failed',
            status: '5.1.1',
            diagnosticCode: 'smtp; 550 5.1.1 user unknown',
          },
        ],
        timestamp: new Date().toISOString(),
        reportingMTA: 'dsn; a1-2.smtp-out.amazonses.com',
      },
      mail: {
        timestamp: new Date().toISOString(),
        source: 'invoices@merchant-payments.example',
        sendingAccountId: '123456789012',
        messageId: bounced.providerMessageId,
        destination: [customerAddress],
        headersTruncated: false,
        tags: {
          'ses:configuration-set': ['MerchantPayments-sandbox-email'],
          emailId: [bounced.emailId],
          merchantId: [merchantId],
          invoiceId: [invoice.invoiceId],
        },
      },
    };
    const sns = { Sns: { MessageId: 'sns-1', Message: JSON.stringify(sesEvent) } };
    await createSesEventsHandler()({ Records: [sns, sns] } as never);
    expect(await emailOf(customerAddress, 'issued')).toMatchObject({ status: 'bounced' });

    expectOk(await act(invoice.invoiceId, 'send'));
    await expect
      .poll(async () => (await emailOf(customerAddress, 'resent'))?.status, { timeout: 20_000 })
      .toBe('suppressed');
    await untilInboxHolds(t, others, 4);
    expect(await inboxFor(t, [customerAddress])).toHaveLength(1);
  });

  it("lists an invoice's emails for its merchant, never their bodies, and 404 for anyone else", async () => {
    const { invoice, recipients } = await invoiceWithThreeRecipients();
    expectOk(await act(invoice.invoiceId, 'issue'));
    await untilInboxHolds(t, recipients, 3);
    await mailSettled(t);
    const path = `/invoices/${invoice.invoiceId}/emails`;
    const listed = expectOk(await t.api('GET', path, { query: { merchantId } }));
    expect(listed.items.map((email: any) => email.recipient).sort()).toEqual([...recipients].sort());
    for (const email of listed.items) {
      expect(email).toMatchObject({
        invoiceId: invoice.invoiceId,
        kind: 'issued',
        status: 'sent',
        attemptCount: 1,
      });
      expect(JSON.stringify(email)).not.toContain(invoice.invoiceUrlSlug);
    }
    const one = expectOk(await t.api('GET', `${path}/${listed.items[0].emailId}`, { query: { merchantId } }));
    expect(one).toEqual({ ...listed.items[0], rendered: null });

    const other = await t.anotherMerchant();
    for (const request of [path, `${path}/${listed.items[0].emailId}`]) {
      const foreign = await other.api('GET', request, { query: { merchantId: other.merchantId } });
      expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
    }
    const unknown = await t.api('GET', `/invoices/${newId('inv')}/emails`, { query: { merchantId } });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
  });

  it('keeps what a capturing stage rendered, sends nothing, and shows it on the email', async () => {
    const { invoice, recipients } = await invoiceWithThreeRecipients();
    expectOk(await act(invoice.invoiceId, 'issue'));
    await untilInboxHolds(t, recipients, 3);
    const [recipient] = recipients as [string];
    const email = await queuedEmail(invoice.invoiceId, recipient);
    const capturing = testMailer('capture', async () => {
      throw new Error('a capturing stage sends nothing');
    });
    const body = JSON.stringify(mailMessageOf(email));
    expect(await capturing({ Records: [{ messageId: 'captured', body } as never] })).toEqual({
      batchItemFailures: [],
    });
    const shown = expectOk(
      await t.api('GET', `/invoices/${invoice.invoiceId}/emails/${email.emailId}`, { query: { merchantId } }),
    );
    expect(shown).toMatchObject({ status: 'captured', kind: 'resent', recipient });
    expect(shown.rendered.subject).toContain(invoice.invoiceNumber);
    expect(shown.rendered.html).toContain(`/pay#${invoice.invoiceUrlSlug}`);
    expect(shown.rendered.text).toContain(`/pay#${invoice.invoiceUrlSlug}`);
    expect(await inboxFor(t, [recipient])).toHaveLength(1);
  });

  it('queues again an email whose message was lost, from the reconciler, and sends it once', async () => {
    const { invoice, recipients } = await invoiceWithThreeRecipients();
    expectOk(await act(invoice.invoiceId, 'issue'));
    await untilInboxHolds(t, recipients, 3);
    const [recipient] = recipients as [string];
    const lost = await queuedEmail(invoice.invoiceId, recipient, new Date(Date.now() - 10 * 60_000));
    const ses = sesLocalClient(new URL(t.runtime.mailInboxUrl).origin);
    const mailer = testMailer('ses', (input) => ses.send(new SendEmailCommand(input)));
    const { reconcile, requeued } = reconcilerThrough(mailer);
    await reconcile();
    ses.destroy();

    expect(requeued.map((message) => message.emailId)).toContain(lost.emailId);
    expect(await untilInboxHolds(t, [recipient], 2)).toHaveLength(2);
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.invoiceEmail(merchantId, invoice.invoiceId, lost.emailId),
      }),
    );
    expect(Item).toMatchObject({ status: 'sent', attemptCount: 1 });
    // Sent, it left the due index: no later run queues it again.
    expect(Item).not.toHaveProperty('GSI1PK');
  });
});
