import { describe, expect } from 'vitest';
import { newId } from '../../functions/domain/ids';
import { e2eTest } from '../support/e2e-test';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { mailSettled } from '../support/mail-settled';

/*
 * A merchant's hourly email ceiling (docs/emails.md): past it, an email is recorded `rate_limited`
 * and not sent, never dropped silently.
 */

const test = e2eTest({ EMAILS_PER_MERCHANT_PER_HOUR: 2 });

describe('the hourly email ceiling of a merchant', () => {
  test('records the emails past it rate_limited and sends none of them', async ({ t, refs }) => {
    const tag = newId('cust').slice(-8);
    const customerEmail = `ada.${tag}@example.com`;
    const additional = [`one.${tag}@example.com`, `two.${tag}@example.com`, `three.${tag}@example.com`];
    const customer = expectOk(
      await t.api('POST', '/customers', {
        body: { merchantId: t.merchantId, name: 'Ada Buyer', email: customerEmail },
        idempotencyKey: newId('cust'),
      }),
    );
    const invoice = expectOk(
      await createInvoice(
        t.api,
        invoiceBody(
          t.merchantId,
          { ...refs, customerId: customer.customerId },
          { additionalNotificationEmails: additional },
        ),
      ),
    );
    expectOk(await invoiceAction(t.api, t.merchantId, invoice.invoiceId, 'issue'));
    await mailSettled(t);

    const emails = (await t.scanTable()).filter(
      (item) => item.entityType === 'InvoiceEmail' && item.invoiceId === invoice.invoiceId,
    );
    // The customer's and three more: four in all, two of them over the ceiling.
    const statuses = emails.map((email) => email.status).sort();
    expect(statuses).toEqual(['rate_limited', 'rate_limited', 'sent', 'sent']);
    for (const email of emails.filter((item) => item.status === 'rate_limited')) {
      expect(email.statusReason).toBe('the merchant sent 2 emails this hour');
    }
    // The inbox is the process's: only this test's addresses are its own.
    const response = await fetch(new URL('store', t.runtime.mailInboxUrl));
    const { emails: inbox } = (await response.json()) as { emails: { destination: { to: string[] } }[] };
    const ours = new Set([customerEmail, ...additional]);
    const delivered = inbox.flatMap((email) => email.destination.to).filter((to) => ours.has(to));
    const sentTo = emails.filter((item) => item.status === 'sent').map((item) => String(item.recipient));
    expect(delivered.sort()).toEqual(sentTo.sort());
  });
});
