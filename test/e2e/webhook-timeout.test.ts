import { describe, expect } from 'vitest';
import { e2eTest } from '../support/e2e-test';
import { createInvoice, invoiceAction, invoiceBody, productLine } from '../support/invoice-requests';

/**
 * The dispatcher's response timeout, end to end over TLS. The deployed 10 s is pinned where it is set
 * (test/unit/local/settings.test.ts, test/infra/delivery-pipeline.test.ts); here it is 1 s, injected
 * through WEBHOOK_TIMEOUT_MS, so the run does not wait 10 s for it.
 */
const timeoutMs = 1_000;
const test = e2eTest({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_TIMEOUT_MS: timeoutMs });

describe('webhook response timeout', () => {
  test('counts a receiver that hangs past the timeout as a failed attempt with no status code', async ({
    t,
    refs,
    receiver,
    endpoints,
  }) => {
    receiver.respondWith(() => ({ status: 200, hang: true }));
    const endpoint = await endpoints.subscribe(receiver.url(), ['invoices.InvoiceSent']);
    const invoice = await createInvoice(
      t.api,
      invoiceBody(t.merchantId, refs, { lineItems: [productLine(refs)] }),
    );
    await invoiceAction(t.api, t.merchantId, invoice.body.invoiceId, 'issue');
    const path = `/merchants/${t.merchantId}/webhook-endpoints/${endpoint.id}/deliveries`;
    let attempt: any;
    await expect
      .poll(
        async () => {
          attempt = (await t.api('GET', path)).body.items[0]?.attempts[0];
          return attempt !== undefined;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBe(true);
    expect(receiver.requests).toHaveLength(1);
    expect(attempt).toMatchObject({
      attemptNumber: 1,
      responseStatusCode: null,
      errorMessage: `Timed out after ${timeoutMs} ms`,
    });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(timeoutMs);
    expect(attempt.durationMs).toBeLessThan(timeoutMs + 2_000);
  });
});
