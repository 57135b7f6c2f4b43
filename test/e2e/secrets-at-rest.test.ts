import { describe, expect, it } from 'vitest';
import { responseBodyOf } from '../../functions/store/idempotency';
import { EntityType } from '../../functions/store/keys';
import { e2eFile, merchantId, t, webhookSettings } from '../support/e2e-test';
import type { HttpsReceiver } from '../support/https-receiver';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { apiClient, newKey } from '../support/local-runtime';
import { cards, sandboxPayment, testCard } from '../support/payment-requests';

/**
 * The table after a full flow keeps no credential in the clear: no API key (only its hash), no
 * signing secret (sealed), and no pay-link slug anywhere but on its invoice.
 */
const test = e2eFile(webhookSettings);
let receiver: HttpsReceiver;

test.beforeAll(({ receiver: started }) => {
  receiver = started;
});

describe('secrets at rest', () => {
  it('finds no API key, signing secret or slug in the table outside where each may be', async () => {
    const secrets: string[] = [];
    const slugs: string[] = [];
    const created = expectOk(
      await t.api('POST', `/merchants/${merchantId}/webhook-endpoints`, {
        body: {
          url: receiver.url(),
          eventTypes: ['invoices.InvoiceSent', 'invoices.InvoicePaid', 'payments.PaymentCreated'],
        },
        idempotencyKey: newKey(),
      }),
    );
    secrets.push(created.signingSecret);
    const endpointPath = `/merchants/${merchantId}/webhook-endpoints/${created.webhookEndpointId}`;
    const rotated = expectOk(
      await t.api('POST', `${endpointPath}/rotate-secret`, { idempotencyKey: newKey() }),
    );
    secrets.push(rotated.signingSecret);

    const refs = await invoiceFixtures(t.api, merchantId);
    const { invoiceId } = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    slugs.push(expectOk(await invoiceAction(t.api, merchantId, invoiceId, 'issue')).invoiceUrlSlug);
    const moved = expectOk(await invoiceAction(t.api, merchantId, invoiceId, 'rotate-url-slug'));
    slugs.push(moved.invoiceUrlSlug);
    const payer = apiClient(t.runtime.baseUrl, 'unused');
    expectOk(
      await payer('POST', '/pay/payments', {
        authorization: null,
        body: {
          slug: moved.invoiceUrlSlug,
          amount: moved.amountRemaining.amount,
          paymentMethod: testCard(cards.succeeds),
        },
        idempotencyKey: newKey(),
      }),
    );
    const payment = expectOk(
      await sandboxPayment(t.api, {
        merchantId,
        customerId: refs.customerId,
        amount: 1500,
        currency: 'USD',
        paymentMethod: testCard(cards.succeeds),
      }),
    );
    expectOk(
      await t.api('POST', `/sandbox/payments/${payment.paymentId}/refunds`, {
        body: { merchantId, amount: 500 },
        idempotencyKey: newKey(),
      }),
    );
    // InvoiceSent, InvoicePaid and two PaymentCreated have gone through the whole pipeline.
    await receiver.waitFor(4, 60_000);

    const items = await t.scanTable();
    const apiKey = t.runtime.apiKey;
    for (const item of items) {
      // A stored answer's long body is deflated: read it as a replay does, or the scan would miss it.
      const deflated = item.entityType === EntityType.idempotencyRecord && 'responseBodyDeflated' in item;
      const text = JSON.stringify(item) + (deflated ? JSON.stringify(responseBodyOf(item)) : '');
      expect(text).not.toContain(apiKey);
      for (const secret of secrets) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice('whsec_'.length));
      }
      if (item.entityType === EntityType.invoice) continue;
      for (const slug of slugs) expect(text, `${item.entityType} ${item.PK}`).not.toContain(slug);
    }
    // Where each may be: the current slug on its invoice; the key as a hash of it.
    const invoice = items.find(
      (item) => item.entityType === EntityType.invoice && item.invoiceId === invoiceId,
    );
    expect(invoice?.invoiceUrlSlug).toBe(moved.invoiceUrlSlug);
    expect(items.some((item) => item.entityType === EntityType.apiKey)).toBe(true);
  });
});
