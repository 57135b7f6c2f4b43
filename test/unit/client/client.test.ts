import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isId, List, MerchantPayments, parseId } from '../../../client/src/index';

const merchantId = 'mer_01h455vb4pex5vsknk084sn02q';
const apiKey = 'merchant_sbxAbCdEfGhIj_s3cr3t';

/** A real HTTP server that records each request and answers with a page of its number. */
let server: ReturnType<typeof createServer>;
let baseUrl: string;
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor');
      const page = cursor === null ? 1 : Number(cursor);
      const body =
        req.method === 'GET'
          ? {
              items: [{ n: page * 2 - 1 }, { n: page * 2 }],
              page: page < 3 ? { hasMore: true, nextCursor: String(page + 1) } : { hasMore: false },
            }
          : { ok: true };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('MerchantPayments', () => {
  it('fills merchantId into the query, the path or the body, as each operation takes it', async () => {
    seen.length = 0;
    const client = new MerchantPayments({ apiKey, merchantId, baseUrl });
    await client.customers.list({ limit: 2 }).page();
    await client.invoices.issue(parseId('inv', 'inv_01h455vb4pex5vsknk084sn02q'));
    await client.webhookEndpoints.list().page();
    await client.payLink.retrieve({ slug: 'slug-1' });
    const [list, issue, endpoints, payLink] = seen;
    expect(list).toMatchObject({ method: 'GET', url: `/sandbox/customers?merchantId=${merchantId}&limit=2` });
    expect(list?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(list?.headers['idempotency-key']).toBeUndefined();
    expect(issue).toMatchObject({
      method: 'POST',
      url: '/sandbox/invoices/inv_01h455vb4pex5vsknk084sn02q/issue',
    });
    expect(JSON.parse(issue?.body ?? '')).toEqual({ merchantId });
    expect(issue?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(issue?.headers['content-type']).toBe('application/json');
    expect(endpoints?.url).toBe(`/sandbox/merchants/${merchantId}/webhook-endpoints`);
    // The pay link's public route: no API key, no Idempotency-Key (it takes none).
    expect(payLink?.headers.authorization).toBeUndefined();
    expect(payLink?.headers['idempotency-key']).toBeUndefined();
  });

  it('sends the caller’s Idempotency-Key, and refuses one the API would refuse', async () => {
    seen.length = 0;
    const client = new MerchantPayments({ apiKey, merchantId, baseUrl });
    await client.customers.create({ name: 'Ada', email: 'ada@example.com' }, { idempotencyKey: 'order-42' });
    expect(seen[0]?.headers['idempotency-key']).toBe('order-42');
    await expect(
      client.customers.create({ name: 'A', email: 'a@example.com' }, { idempotencyKey: 'has space' }),
    ).rejects.toThrow('idempotencyKey must be 1 to 255 printable ASCII characters');
    expect(seen).toHaveLength(1);
  });

  it('walks every page by nextCursor, and gives one page with page()', async () => {
    const client = new MerchantPayments({ apiKey, merchantId, baseUrl });
    const items: unknown[] = [];
    for await (const item of client.catalog.products.list()) items.push(item);
    expect(items).toEqual([1, 2, 3, 4, 5, 6].map((n) => ({ n })));
    expect(await client.catalog.products.list({ cursor: '3' }).page()).toEqual({
      items: [{ n: 5 }, { n: 6 }],
      page: { hasMore: false },
    });
    const pages: number[] = [];
    for await (const page of client.catalog.products.list().pages()) pages.push(page.items.length);
    expect(pages).toEqual([2, 2, 2]);
  });

  it('stops at a page that has no more, even with a cursor, and fetches nothing until asked', async () => {
    let calls = 0;
    const list = new List(async () => {
      calls += 1;
      return { items: [calls], page: { hasMore: false, nextCursor: 'ignored' } };
    });
    expect(calls).toBe(0);
    expect(await list.toArray()).toEqual([1]);
    expect(calls).toBe(1);
  });

  it('refuses options it cannot work with, in one line each', () => {
    expect(() => new MerchantPayments({ apiKey: 'sk_test_123', merchantId, baseUrl })).toThrow(
      'apiKey must be a merchant API key, merchant_sbx… or merchant_prd…',
    );
    expect(
      () => new MerchantPayments({ apiKey, merchantId: 'cust_01h455vb4pex5vsknk084sn02q', baseUrl }),
    ).toThrow('merchantId must be a merchant id');
    expect(() => new MerchantPayments({ apiKey, merchantId, baseUrl: 'not a url' })).toThrow('is not a URL');
    expect(() => new MerchantPayments({ apiKey, merchantId, baseUrl: 'ftp://x/' })).toThrow(
      'is not an http(s) URL',
    );
  });

  it('takes the stage’s URL from the environment by the key’s prefix', () => {
    const saved = { ...process.env };
    try {
      delete process.env.MERCHANT_PAYMENTS_SANDBOX_URL;
      delete process.env.MERCHANT_PAYMENTS_PRODUCTION_URL;
      expect(() => new MerchantPayments({ apiKey, merchantId })).toThrow(
        'baseUrl is missing: pass it, or set MERCHANT_PAYMENTS_SANDBOX_URL for a merchant_sbx key',
      );
      process.env.MERCHANT_PAYMENTS_PRODUCTION_URL = baseUrl;
      expect(() => new MerchantPayments({ apiKey, merchantId })).toThrow('MERCHANT_PAYMENTS_SANDBOX_URL');
      expect(() => new MerchantPayments({ apiKey: 'merchant_prdAbCdEfGhIj_x', merchantId })).not.toThrow();
    } finally {
      process.env = saved;
    }
  });

  it('types ids by kind and checks them by their TypeID form', () => {
    expect(isId('inv', 'inv_01h455vb4pex5vsknk084sn02q')).toBe(true);
    expect(isId('inv', 'cust_01h455vb4pex5vsknk084sn02q')).toBe(false);
    expect(isId('inv', 'inv_81h455vb4pex5vsknk084sn02q')).toBe(false);
    expect(isId('inv', 'inv_01h455vb4pex5vsknk084sn02')).toBe(false);
    expect(isId('inv', 42)).toBe(false);
    expect(() => parseId('cust', 'inv_01h455vb4pex5vsknk084sn02q')).toThrow('is not a cust_ id');
  });
});
