import { createDecipheriv, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { responseBodyOf } from '../../functions/store/idempotency';
import { EntityType } from '../../functions/store/keys';
import { e2eInvoiceFile, merchantId, refs, t } from '../support/e2e-test';
import { createInvoice, expectOk, invoiceAction, invoiceBody } from '../support/invoice-requests';
import { type ApiResult, dynamoDbCommandsDuring, newKey } from '../support/local-runtime';

e2eInvoiceFile();

/** Every idempotency record of the table, as the table keeps it. */
async function storedRecords(): Promise<Record<string, unknown>[]> {
  return (await t.scanTable()).filter((item) => item.entityType === EntityType.idempotencyRecord);
}

/** Every string of a JSON value, at any depth (keys included). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, field]) => [name, ...stringsOf(field)]);
}

/**
 * What a holder of the table and of Idempotency-Keys can open of a stored response: a value sealed
 * as `v1.<iv>.<data>.<tag>` (AES-256-GCM) under HMAC-SHA256(key, "stored response seal\n" + scope
 * hash), the scope hash being in the record's own key. `undefined` when it does not open.
 */
function openWithKey(sealed: string, idempotencyKey: string, scopeHash: string): string | undefined {
  const [version, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || data === undefined || tag === undefined) return undefined;
  const key = createHmac('sha256', Buffer.from(idempotencyKey, 'utf8'))
    .update(`stored response seal\n${scopeHash}`, 'utf8')
    .digest();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return undefined;
  }
}

/** The response body as the client read it, in the order it was sent. */
const text = (result: ApiResult) => JSON.stringify(result.body);

describe('stored responses of the invoice routes', () => {
  it('yield no pay-link slug to whoever holds the table and every Idempotency-Key the API showed', async () => {
    const sent: string[] = [];
    const answers: ApiResult[] = [];
    const act = async (call: (key: string) => Promise<ApiResult>, key: string) => {
      sent.push(key);
      const result = await call(key);
      expectOk(result);
      answers.push(result);
      return result.body;
    };
    const action =
      (invoiceId: string, name: Parameters<typeof invoiceAction>[3], fields = {}) =>
      (key: string) =>
        invoiceAction(t.api, merchantId, invoiceId, name, fields, key);
    // Keys as the guides write them (guessable from the create's, which the invoice shows), and random ones.
    const first = await act((key) => createInvoice(t.api, invoiceBody(merchantId, refs), key), 'inv-1');
    await act(action(first.invoiceId, 'issue'), 'inv-1-issue');
    await act(action(first.invoiceId, 'send'), 'inv-1-send');
    await act(action(first.invoiceId, 'rotate-url-slug'), 'inv-1-rotate');
    const second = await act((key) => createInvoice(t.api, invoiceBody(merchantId, refs), key), newKey());
    await act(action(second.invoiceId, 'issue'), newKey());
    await act(action(second.invoiceId, 'payments', { amount: 100 }), newKey());
    const third = await act((key) => createInvoice(t.api, invoiceBody(merchantId, refs), key), 'inv-3');
    await act(action(third.invoiceId, 'void'), 'inv-3-void');
    for (const { invoiceId } of [first, second, third]) {
      answers.push(await t.api('GET', `/invoices/${invoiceId}`, { query: { merchantId } }));
    }
    const slugs = new Set(answers.map((answer) => String(answer.body.invoiceUrlSlug)));
    expect(slugs.size).toBe(4);

    // Every key sent, every key any answer or item shows, and guesses made from those.
    const table = await t.scanTable();
    const shown = [...answers.map((answer) => answer.body), ...table].flatMap((value) =>
      typeof value.idempotencyKey === 'string' ? [value.idempotencyKey] : [],
    );
    const suffixes = ['', '-issue', '-send', '-rotate', '-void', '-pay', '-payments'];
    const candidates = new Set([...sent, ...shown.flatMap((key) => suffixes.map((suffix) => key + suffix))]);

    const records = await storedRecords();
    expect(records.length).toBeGreaterThanOrEqual(sent.length);
    const opened: string[] = [];
    for (const record of records) {
      const scopeHash = String(record.PK).replace(/^IDEMPOTENCY#/, '');
      // The record as stored and its body as a replay reads it (a long one is kept deflated).
      const stored = `${JSON.stringify(record)} ${JSON.stringify(responseBodyOf(record))}`;
      for (const slug of slugs) expect(stored).not.toContain(slug);
      for (const value of stringsOf(responseBodyOf(record))) {
        for (const key of candidates) {
          const plain = openWithKey(value, key, scopeHash);
          if (plain !== undefined) opened.push(plain);
        }
      }
    }
    expect(opened).toEqual([]);
    // An invoice's stored answer keeps the field, empty: the replay fills in the invoice's slug.
    for (const record of records) {
      const body = responseBodyOf(record) as Record<string, unknown>;
      if ('invoiceId' in body) expect(body.invoiceUrlSlug).toBeNull();
    }
  });

  it('replays the very response that was sent, with the slug the invoice has now', async () => {
    const keys = { create: newKey(), issue: newKey(), send: newKey(), rotate: newKey(), pay: newKey() };
    const created = await createInvoice(t.api, invoiceBody(merchantId, refs), keys.create);
    const { invoiceId } = expectOk(created);
    const issued = await invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, keys.issue);
    const sent = await invoiceAction(t.api, merchantId, invoiceId, 'send', {}, keys.send);
    const paid = await invoiceAction(t.api, merchantId, invoiceId, 'payments', { amount: 100 }, keys.pay);
    const firstAnswers = [created, issued, sent, paid];
    // Before any rotation: byte for byte the first answer.
    const replays = async () => [
      await createInvoice(t.api, invoiceBody(merchantId, refs), keys.create),
      await invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, keys.issue),
      await invoiceAction(t.api, merchantId, invoiceId, 'send', {}, keys.send),
      await invoiceAction(t.api, merchantId, invoiceId, 'payments', { amount: 100 }, keys.pay),
    ];
    for (const [index, replay] of (await replays()).entries()) {
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(text(replay)).toBe(text(firstAnswers[index] as ApiResult));
    }

    // After a rotation every replay shows the live slug, the one that pays; the rest is unchanged.
    const rotated = await invoiceAction(t.api, merchantId, invoiceId, 'rotate-url-slug', {}, keys.rotate);
    const live = expectOk(rotated).invoiceUrlSlug;
    expect(live).not.toBe(expectOk(created).invoiceUrlSlug);
    const rotateReplay = await invoiceAction(
      t.api,
      merchantId,
      invoiceId,
      'rotate-url-slug',
      {},
      keys.rotate,
    );
    expect(text(rotateReplay)).toBe(text(rotated));
    for (const [index, replay] of (await replays()).entries()) {
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      const first = (firstAnswers[index] as ApiResult).body;
      expect(text(replay)).toBe(JSON.stringify({ ...first, invoiceUrlSlug: live }));
    }

    // A void invoice's replay too.
    const draft = expectOk(await createInvoice(t.api, invoiceBody(merchantId, refs)));
    const voidKey = newKey();
    const voided = await invoiceAction(t.api, merchantId, draft.invoiceId, 'void', {}, voidKey);
    expect(text(await invoiceAction(t.api, merchantId, draft.invoiceId, 'void', {}, voidKey))).toBe(
      text(voided),
    );
  });

  it('reads the invoice once more on a replay of an invoice answer, and on nothing else', async () => {
    const key = newKey();
    const body = invoiceBody(merchantId, refs);
    const { invoiceId } = expectOk(await createInvoice(t.api, body, key));
    const createReplay = await dynamoDbCommandsDuring(async () => {
      expectOk(await createInvoice(t.api, body, key));
    });
    expect(createReplay).toEqual(['BatchGetItemCommand', 'TransactWriteItemsCommand', 'GetItemCommand']);
    const issueKey = newKey();
    expectOk(await invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, issueKey));
    const issueReplay = await dynamoDbCommandsDuring(async () => {
      expectOk(await invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, issueKey));
    });
    // The invoice is issued by now: the change is refused before any transaction, and the stored
    // outcome meets the 409's conditional put.
    expect(issueReplay).toEqual(['GetItemCommand', 'PutItemCommand', 'GetItemCommand']);
    // A stored 409 holds no invoice: its replay reads nothing more.
    const refusedKey = newKey();
    const refused = await invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, refusedKey);
    expect(refused.status).toBe(409);
    const refusedReplay = await dynamoDbCommandsDuring(async () => {
      const again = await invoiceAction(t.api, merchantId, invoiceId, 'issue', {}, refusedKey);
      expect(again.status).toBe(409);
    });
    expect(refusedReplay).toEqual(['GetItemCommand', 'PutItemCommand']);
  });
});
