import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntityType } from '../../functions/store/keys';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { newKey, startTestRuntime, type TestRuntime } from '../support/local-runtime';

let t: TestRuntime;
let merchantId: string;
let refs: Awaited<ReturnType<typeof invoiceFixtures>>;

beforeAll(async () => {
  t = await startTestRuntime();
  merchantId = t.runtime.merchantId;
  refs = await invoiceFixtures(t.api, merchantId);
});
afterAll(() => t.stop());

/** Every stored response of the table, as the table keeps it. */
async function storedResponses(): Promise<string[]> {
  return (await t.scanTable())
    .filter((item) => item.entityType === EntityType.idempotencyRecord)
    .map((item) => JSON.stringify(item));
}

describe('stored responses of the invoice routes', () => {
  it('keep no pay-link slug in the clear, and replay the very response that was sent', async () => {
    const keys = { create: newKey(), issue: newKey(), send: newKey(), rotate: newKey() };
    const created = await createInvoice(t.api, invoiceBody(merchantId, refs), keys.create);
    const { invoiceId } = expectOk(created);
    const issued = await invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, keys.issue);
    const sent = await invoiceAction(t.api, merchantId, invoiceId, 'send', {}, keys.send);
    const rotated = await invoiceAction(t.api, merchantId, invoiceId, 'rotate-url-slug', {}, keys.rotate);
    const slugs = [created, issued, sent, rotated].map((result) => expectOk(result).invoiceUrlSlug);
    expect(new Set(slugs).size).toBe(2);

    const stored = await storedResponses();
    expect(stored.length).toBeGreaterThanOrEqual(4);
    for (const slug of slugs) for (const item of stored) expect(item).not.toContain(slug);

    const replays = [
      await createInvoice(t.api, invoiceBody(merchantId, refs), keys.create),
      await invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, keys.issue),
      await invoiceAction(t.api, merchantId, invoiceId, 'send', {}, keys.send),
      await invoiceAction(t.api, merchantId, invoiceId, 'rotate-url-slug', {}, keys.rotate),
    ];
    for (const [index, replay] of replays.entries()) {
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual([created, issued, sent, rotated][index]?.body);
    }
  });
});
