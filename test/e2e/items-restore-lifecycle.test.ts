import { PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect } from 'vitest';
import { invoiceSlugHash } from '../../functions/domain/invoice-slug';
import { keys } from '../../functions/store/keys';
import { localAdmin } from '../support/admin-process';
import { createTestTable, deleteTestTable, testDynamoDbClient } from '../support/dynamodb';
import { e2eTest } from '../support/e2e-test';
import { expectOk, invoiceAction, issueTaxedInvoice } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { apiClient, newKey, type TestRuntime } from '../support/local-runtime';
import { mailSettled } from '../support/mail-settled';
import { createPortalSession, linkTokenOf } from '../support/portal-sessions';

// No authorizer cache: each request reads the key as the table holds it, so a key put back active
// would answer at once.
const test = e2eTest({ AUTH_CACHE_SECONDS: 0 });
let t: TestRuntime;

test.beforeAll(({ t: runtime }) => {
  t = runtime;
});

const admin = localAdmin(() => t.stateDir, { inProcess: true });
const copies: string[] = [];

afterAll(async () => {
  await Promise.all(copies.map((table) => deleteTestTable(table)));
});

/** A copy of the runtime's table as it is now, as a point-in-time restore makes one beside it. */
async function copyOfTable(): Promise<string> {
  const copy = await createTestTable('restored');
  copies.push(copy);
  const dynamodb = testDynamoDbClient();
  let startKey: Record<string, never> | undefined;
  do {
    const page = await dynamodb.send(
      new ScanCommand({ TableName: t.runtime.tableName, ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    for (const Item of page.Items ?? []) await dynamodb.send(new PutItemCommand({ TableName: copy, Item }));
    startKey = page.LastEvaluatedKey as Record<string, never> | undefined;
  } while (startKey !== undefined);
  return copy;
}

const restore = (copy: string, ...selection: string[]) =>
  admin('items', 'restore', '--from-table', copy, ...selection, '--apply', '--overwrite');

/** The live item with this key, as the table holds it now. */
async function liveItem(key: { PK: string; SK: string }) {
  return (await t.scanTable()).find((item) => item.PK === key.PK && item.SK === key.SK);
}

describe('items restore --apply --overwrite never undoes a revocation or a rotation', () => {
  test('a key revoked since the copy stays revoked', async () => {
    const { merchantId } = await t.anotherMerchant();
    const key = (await admin('keys', 'create', '--merchant', merchantId)).output;
    const asKey = apiClient(t.runtime.baseUrl, key.apiKey);
    const read = async () => (await asKey('GET', `/catalog/products?merchantId=${merchantId}`)).status;
    expect(await read()).toBe(200);
    const copy = await copyOfTable();
    expect((await admin('keys', 'revoke', '--key', key.keyPrefix)).code).toBe(0);
    expect(await read()).toBe(401);

    const restored = await restore(copy, '--merchant', merchantId);

    expect(restored.code).toBe(0);
    expect(restored.output).toMatchObject({ copied: 0, overwritten: 0, differing: 0, leftAlone: 1 });
    const keyId = key.keyPrefix.slice('merchant_sbx'.length);
    expect(restored.output.keys.leftAlone).toEqual([
      { ...keys.apiKey(keyId), reason: 'revoked since the copy' },
    ]);
    expect(await read()).toBe(401);
    const listed = await admin('keys', 'list', '--merchant', merchantId);
    expect(listed.output.items).toContainEqual(
      expect.objectContaining({ keyPrefix: key.keyPrefix, status: 'revoked' }),
    );
  });

  test('keys whose expiry a rotation brought forward keep it', async () => {
    const { merchantId } = await t.anotherMerchant();
    const copy = await copyOfTable();
    const rotated = await admin('keys', 'rotate', '--merchant', merchantId, '--expire-old-in', '1h');
    expect(rotated.code).toBe(0);
    const expiries = async () =>
      (await admin('keys', 'list', '--merchant', merchantId)).output.items.map(
        (item: { keyPrefix: string; expiresAt: string | null }) => [item.keyPrefix, item.expiresAt],
      );
    const before = await expiries();

    const restored = await restore(copy, '--merchant', merchantId);

    expect(restored.output).toMatchObject({ overwritten: 0, differing: 0, leftAlone: 1 });
    expect(restored.output.keys.leftAlone).toEqual([
      expect.objectContaining({ reason: 'rotated since the copy' }),
    ]);
    expect(await expiries()).toEqual(before);
  });

  test("an endpoint's signing secret rotated since the copy stays the new one", async () => {
    const { merchantId, api } = await t.anotherMerchant();
    const endpoints = `/merchants/${merchantId}/webhook-endpoints`;
    const created = expectOk(
      await api('POST', endpoints, {
        body: { url: 'https://hooks.example.com/restore', eventTypes: ['invoices.InvoiceSent'] },
        idempotencyKey: newKey(),
      }),
    );
    const copy = await copyOfTable();
    const rotated = expectOk(
      await api('POST', `${endpoints}/${created.webhookEndpointId}/rotate-secret`, {
        idempotencyKey: newKey(),
      }),
    );
    expect(rotated.signingSecret).not.toBe(created.signingSecret);
    const endpointKey = keys.webhookEndpoint(merchantId, created.webhookEndpointId);
    const afterRotation = await liveItem(endpointKey);

    const restored = await restore(copy, '--merchant', merchantId);

    expect(restored.output).toMatchObject({ overwritten: 0, differing: 0, leftAlone: 1 });
    expect(restored.output.keys.leftAlone).toEqual([{ ...endpointKey, reason: 'rotated since the copy' }]);
    expect(await liveItem(endpointKey)).toEqual(afterRotation);
  });

  test('an endpoint deleted since the copy stays deleted, and so does its delivery sequence', async () => {
    const { merchantId, api } = await t.anotherMerchant();
    const endpoints = `/merchants/${merchantId}/webhook-endpoints`;
    const created = expectOk(
      await api('POST', endpoints, {
        body: { url: 'https://hooks.example.com/deleted', eventTypes: ['invoices.InvoiceSent'] },
        idempotencyKey: newKey(),
      }),
    );
    const id = created.webhookEndpointId as string;
    // A delivery makes the endpoint's sequence item; its first attempt fails at once without a request
    // (sandbox simulateFailures), and its retry is a minute away: nothing of it changes while the
    // test copies, deletes and restores.
    expectOk(
      await api('PATCH', `${endpoints}/${id}`, { body: { simulateFailures: 5 }, idempotencyKey: newKey() }),
    );
    expectOk(
      await api('POST', `${endpoints}/${id}/test`, {
        body: { eventType: 'invoices.InvoiceSent' },
        idempotencyKey: newKey(),
      }),
    );
    await expect
      .poll(async () => expectOk(await api('GET', `${endpoints}/${id}/deliveries`)).items[0]?.attemptCount, {
        timeout: 20_000,
        interval: 50,
      })
      .toBe(1);
    const copy = await copyOfTable();
    expect((await api('DELETE', `${endpoints}/${id}`, { idempotencyKey: newKey() })).status).toBe(200);

    const restored = await restore(copy, '--merchant', merchantId);

    expect(restored.code).toBe(0);
    // Nothing written back: the count of the merchant's endpoints counts the live ones, none now.
    expect(restored.output).toMatchObject({ copied: 0, overwritten: 0 });
    expect(restored.output.keys.leftAlone, JSON.stringify(restored.output.keys.leftAlone)).toEqual(
      expect.arrayContaining([
        { ...keys.webhookEndpoint(merchantId, id), reason: 'deleted since the copy' },
        { ...keys.webhookDeliverySequence(merchantId, id), reason: 'deleted since the copy' },
        { ...keys.webhookEndpointCounter(merchantId), reason: 'a count of what the live table holds' },
      ]),
    );
    expect(await liveItem(keys.webhookEndpoint(merchantId, id))).toBeUndefined();
    expect((await api('GET', endpoints)).body.items).toEqual([]);
  });

  test('portal sessions revoked or opened since the copy stay so', async () => {
    const { merchantId, api } = await t.anotherMerchant();
    const revoked = await createPortalSession(api, merchantId, { scope: 'manage' });
    const opened = await createPortalSession(api, merchantId, { scope: 'manage' });
    const exchange = async (url: string) =>
      (
        await t.api('POST', '/portal/exchange', {
          authorization: null,
          body: { token: linkTokenOf(url) },
        })
      ).status;
    const copy = await copyOfTable();
    const revocation = await api(
      'DELETE',
      `/merchants/${merchantId}/portal-sessions/${revoked.portalSessionId}`,
      {
        idempotencyKey: newKey(),
      },
    );
    expect(revocation.status).toBe(200);
    expect(await exchange(opened.url)).toBe(200);
    const refusedRevoked = await exchange(revoked.url);
    expect(refusedRevoked).not.toBe(200);

    // Portal sessions are keyed by their id alone: a key range reaches them.
    const restored = await restore(copy, '--from-key', 'PORTALSESSION#', '--to-key', 'PORTALSESSION#~');

    expect(restored.output).toMatchObject({ overwritten: 0, differing: 0, leftAlone: 2 });
    expect(restored.output.keys.leftAlone).toEqual(
      expect.arrayContaining([
        {
          PK: `PORTALSESSION#${revoked.portalSessionId}`,
          SK: 'PORTALSESSION',
          reason: 'revoked since the copy',
        },
        {
          PK: `PORTALSESSION#${opened.portalSessionId}`,
          SK: 'PORTALSESSION',
          reason: 'exchanged since the copy',
        },
      ]),
    );
    expect(await exchange(revoked.url)).toBe(refusedRevoked);
    expect(await exchange(opened.url)).toBe(410);
  });

  test('a pay link rotated since the copy: the old slug does not come back', async () => {
    const { merchantId, api } = await t.anotherMerchant();
    const invoice = await issueTaxedInvoice(api, merchantId, await invoiceFixtures(api, merchantId));
    // The issue's email to the customer is sent before the copy, as the rotation is what moves on since.
    await mailSettled(t);
    const copy = await copyOfTable();
    const rotated = expectOk(await invoiceAction(api, merchantId, invoice.invoiceId, 'rotate-url-slug'));
    expect(rotated.invoiceUrlSlug).not.toBe(invoice.invoiceUrlSlug);
    const view = async (slug: string) =>
      (await t.api('POST', '/pay/invoice', { authorization: null, body: { slug } })).status;
    expect(await view(invoice.invoiceUrlSlug)).toBe(404);

    const restored = await restore(copy, '--merchant', merchantId);

    expect(restored.output).toMatchObject({
      copied: 0,
      overwritten: 0,
      missing: 0,
      differing: 0,
      leftAlone: 2,
    });
    expect(restored.output.keys.leftAlone).toEqual(
      expect.arrayContaining([
        { ...keys.invoice(merchantId, invoice.invoiceId), reason: 'rotated since the copy' },
        { ...keys.invoiceSlug(invoiceSlugHash(invoice.invoiceUrlSlug)), reason: 'rotated since the copy' },
      ]),
    );
    expect(await view(invoice.invoiceUrlSlug)).toBe(404);
    expect(await view(rotated.invoiceUrlSlug)).toBe(200);
    expect(await liveItem(keys.invoiceSlug(invoiceSlugHash(invoice.invoiceUrlSlug)))).toBeUndefined();
    expect(restored.stdout).not.toContain(invoice.invoiceUrlSlug);
  });
});
