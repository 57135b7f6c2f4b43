import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient } from '../../functions/store/client';
import { buildRecordHealth, getEndpoint } from '../../functions/store/webhook-endpoints';
import { routeInvocation } from '../../tools/local/gateway';
import { e2eFile, merchantId, t } from '../support/e2e-test';
import { newKey } from '../support/local-runtime';
import { subscribableEventTypes } from '../support/spec-fields';

// Loopback turned off, as a deployed stage has it: the URL rules below are the deployed ones.
const test = e2eFile({ WEBHOOK_ALLOW_PRIVATE_TARGETS: false });
let base: string;

test.beforeAll(() => {
  base = `/merchants/${merchantId}/webhook-endpoints`;
});

const validBody = {
  url: 'https://hooks.example.com/merchant',
  name: 'Main',
  eventTypes: ['invoices.InvoicePaid'],
};

const createEndpoint = (body: unknown = validBody, idempotencyKey = newKey()) =>
  t.api('POST', base, { body, idempotencyKey });

const detailPaths = (body: { error: { details?: { path: string }[] } }) =>
  (body.error.details ?? []).map((detail) => detail.path).sort();

describe('POST /merchants/{merchantId}/webhook-endpoints', () => {
  it('returns 201 with the endpoint and its signing secret, which is stored only sealed', async () => {
    const result = await createEndpoint();
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      webhookEndpointId: expect.stringMatching(/^whk_[0-9a-z]{26}$/),
      merchantId,
      url: 'https://hooks.example.com/merchant',
      name: 'Main',
      status: 'active',
      eventTypes: ['invoices.InvoicePaid'],
      signingSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const table = JSON.stringify(await t.scanTable());
    expect(table).not.toContain(result.body.signingSecret);
    expect(table).not.toContain(result.body.signingSecret.slice('whsec_'.length));
  });

  it('replays a create with the same signing secret, kept sealed in the idempotency record', async () => {
    const key = newKey();
    const first = await createEndpoint(validBody, key);
    const again = await createEndpoint(validBody, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(JSON.stringify(await t.scanTable())).not.toContain(first.body.signingSecret);
  });

  describe('returns 400 naming the field, and writes nothing', () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['a plain http url', { ...validBody, url: 'http://hooks.example.com/x' }, ['url']],
      ['a url with user-info', { ...validBody, url: 'https://user:pw@hooks.example.com/x' }, ['url']],
      ['a private IPv4 literal', { ...validBody, url: 'https://10.0.0.1/x' }, ['url']],
      ['the metadata address', { ...validBody, url: 'https://169.254.169.254/latest' }, ['url']],
      ['an IPv6 loopback literal', { ...validBody, url: 'https://[::1]/x' }, ['url']],
      ['an IPv4-mapped loopback', { ...validBody, url: 'https://[::ffff:127.0.0.1]/x' }, ['url']],
      ['localhost', { ...validBody, url: 'https://localhost/x' }, ['url']],
      [
        'a url over 2048 characters',
        { ...validBody, url: `https://hooks.example.com/${'a'.repeat(2048)}` },
        ['url'],
      ],
      ['an empty name', { ...validBody, name: '' }, ['name']],
      ['a name over 100 characters', { ...validBody, name: 'n'.repeat(101) }, ['name']],
      ['no event types', { ...validBody, eventTypes: [] }, ['eventTypes']],
      ['an unknown event type', { ...validBody, eventTypes: ['invoices.InvoiceVoided'] }, ['eventTypes.0']],
      ['a wildcard', { ...validBody, eventTypes: ['*'] }, ['eventTypes.0']],
      [
        'a repeated event type',
        { ...validBody, eventTypes: ['invoices.InvoicePaid', 'invoices.InvoicePaid'] },
        ['eventTypes'],
      ],
      [
        '51 event types',
        { ...validBody, eventTypes: Array(51).fill('invoices.InvoicePaid') },
        ['eventTypes'],
      ],
      ['an unknown field', { ...validBody, secret: 'mine' }, ['secret']],
      ['a missing url', { name: 'x', eventTypes: ['invoices.InvoicePaid'] }, ['url']],
    ];
    for (const [label, body, paths] of cases) {
      it(`for ${label}`, async () => {
        const before = (await t.scanTable()).length;
        const result = await createEndpoint(body);
        expect(result.status, JSON.stringify(result.body)).toBe(400);
        expect(result.body.error.code).toBe('validation_error');
        expect(detailPaths(result.body)).toEqual(paths);
        expect((await t.scanTable()).length).toBe(before);
      });
    }
  });

  it('stores and shows the URL in its normalized form, on create and on update', async () => {
    const created = await createEndpoint({
      ...validBody,
      url: 'HTTPS://Hooks.Example.COM:443/a/../merchant/caf\u00e9',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.url).toBe('https://hooks.example.com/merchant/caf%C3%A9');
    const path = `${base}/${created.body.webhookEndpointId}`;
    const updated = await t.api('PATCH', path, {
      body: { url: 'https://HOOKS.example.com:8443' },
      idempotencyKey: newKey(),
    });
    expect(updated.body.url).toBe('https://hooks.example.com:8443/');
    const stored = (await t.scanTable()).find(
      (item) =>
        item.webhookEndpointId === created.body.webhookEndpointId && item.entityType === 'WebhookEndpoint',
    );
    expect(stored?.url).toBe('https://hooks.example.com:8443/');
  });

  it('accepts every subscribable event type at once', async () => {
    const eventTypes = subscribableEventTypes;
    const result = await createEndpoint({ url: 'https://hooks.example.com/all', eventTypes });
    expect(result.status).toBe(201);
    expect(result.body.eventTypes).toEqual(eventTypes);
    expect(result.body.name).toBeUndefined();
  });

  it('returns 403 for another merchantId in the path and 404 for a malformed one', async () => {
    const other = await t.anotherMerchant();
    const foreign = await t.api('POST', `/merchants/${other.merchantId}/webhook-endpoints`, {
      body: validBody,
      idempotencyKey: newKey(),
    });
    expect(foreign.status).toBe(403);
    const malformed = await t.api('GET', '/merchants/mer_nope/webhook-endpoints');
    expect(malformed.status).toBe(404);
  });
});

describe('the limit of 20 endpoints', () => {
  it('lets exactly 20 of 25 concurrent creates through, and a delete frees a place', async () => {
    const { merchantId: otherId, api } = await t.anotherMerchant();
    const path = `/merchants/${otherId}/webhook-endpoints`;
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        api('POST', path, { body: { ...validBody, name: `E${index}` }, idempotencyKey: newKey() }),
      ),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(20);
    const refused = results.filter((result) => result.status === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.body.error.code).toBe('limit_exceeded');
    const created = results.find((result) => result.status === 201);
    const deleted = await api('DELETE', `${path}/${created?.body.webhookEndpointId}`, {
      idempotencyKey: newKey(),
    });
    expect(deleted.status).toBe(200);
    const again = await api('POST', path, { body: validBody, idempotencyKey: newKey() });
    expect(again.status).toBe(201);
  }, 30_000);
});

describe('GET /merchants/{merchantId}/webhook-endpoints', () => {
  it('lists live endpoints newest first without secrets, and not deleted ones', async () => {
    const { merchantId: otherId, api } = await t.anotherMerchant();
    const path = `/merchants/${otherId}/webhook-endpoints`;
    const made = [];
    for (const name of ['first', 'second', 'third']) {
      made.push((await api('POST', path, { body: { ...validBody, name }, idempotencyKey: newKey() })).body);
    }
    await api('DELETE', `${path}/${made[1].webhookEndpointId}`, { idempotencyKey: newKey() });
    const firstPage = await api('GET', path, { query: { limit: 1 } });
    expect(firstPage.body.items.map((item: { name: string }) => item.name)).toEqual(['third']);
    expect(firstPage.body.items[0].signingSecret).toBeUndefined();
    const rest = await api('GET', path, { query: { limit: 5, cursor: firstPage.body.page.nextCursor } });
    expect(rest.body.items.map((item: { name: string }) => item.name)).toEqual(['first']);
    expect(rest.body.page).toEqual({ hasMore: false });
  });
});

describe('PATCH, DELETE and rotate-secret', () => {
  it('updates url, name, event types and status', async () => {
    const { body: endpoint } = await createEndpoint();
    const path = `${base}/${endpoint.webhookEndpointId}`;
    const patch = {
      url: 'https://other.example.com/hooks',
      name: 'Renamed',
      eventTypes: ['invoices.InvoiceSent', 'payments.PaymentCreated'],
      status: 'disabled',
    };
    const result = await t.api('PATCH', path, { body: patch, idempotencyKey: newKey() });
    expect(result.status).toBe(200);
    const { signingSecret: _secret, ...visible } = endpoint;
    expect(result.body).toEqual({ ...visible, ...patch, updatedAt: expect.any(String) });
    const enabled = await t.api('PATCH', path, { body: { status: 'active' }, idempotencyKey: newKey() });
    expect(enabled.body.status).toBe('active');
  });

  it('refuses an empty patch, a deleted status and a private url with 400', async () => {
    const { body: endpoint } = await createEndpoint();
    const path = `${base}/${endpoint.webhookEndpointId}`;
    for (const body of [{}, { status: 'deleted' }, { url: 'https://192.168.1.10/x' }]) {
      const result = await t.api('PATCH', path, { body, idempotencyKey: newKey() });
      expect(result.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('deletes with 200 and status deleted; afterwards every route answers 404', async () => {
    const { body: endpoint } = await createEndpoint();
    const path = `${base}/${endpoint.webhookEndpointId}`;
    const deleted = await t.api('DELETE', path, { idempotencyKey: newKey() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.status).toBe('deleted');
    expect(deleted.body.signingSecret).toBeUndefined();
    expect((await t.api('DELETE', path, { idempotencyKey: newKey() })).status).toBe(404);
    expect((await t.api('PATCH', path, { body: { name: 'x' }, idempotencyKey: newKey() })).status).toBe(404);
    expect((await t.api('POST', `${path}/rotate-secret`, { idempotencyKey: newKey() })).status).toBe(404);
  });

  it('rotates to a new secret and replays the rotation with that same secret', async () => {
    const { body: endpoint } = await createEndpoint();
    const key = newKey();
    const path = `${base}/${endpoint.webhookEndpointId}/rotate-secret`;
    const rotated = await t.api('POST', path, { idempotencyKey: key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.signingSecret).toMatch(/^whsec_/);
    expect(rotated.body.signingSecret).not.toBe(endpoint.signingSecret);
    const replay = await t.api('POST', path, { body: {}, idempotencyKey: key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.signingSecret).toBe(rotated.body.signingSecret);
  });

  it("answers 404 for another merchant's endpoint on every route and leaves it alone", async () => {
    const { body: endpoint } = await createEndpoint();
    const other = await t.anotherMerchant();
    const path = `/merchants/${other.merchantId}/webhook-endpoints/${endpoint.webhookEndpointId}`;
    const attempts = [
      other.api('PATCH', path, { body: { name: 'x' }, idempotencyKey: newKey() }),
      other.api('DELETE', path, { idempotencyKey: newKey() }),
      other.api('POST', `${path}/rotate-secret`, { idempotencyKey: newKey() }),
    ];
    for (const result of await Promise.all(attempts)) expect(result.status).toBe(404);
    const mine = await t.api('GET', base, { query: { limit: 100 } });
    const still = mine.body.items.find(
      (item: { webhookEndpointId: string }) => item.webhookEndpointId === endpoint.webhookEndpointId,
    );
    expect(still).toMatchObject({ status: 'active', name: 'Main' });
  });
});

describe('a change that meets a health write of the dispatcher', () => {
  /**
   * Sends the dispatcher's health write (a failing run starts) for the endpoint just before the
   * next transaction a route sends, so the route finds the endpoint changed since it read it.
   */
  async function withHealthWriteBeforeNextRouteWrite<T>(endpointId: string, act: () => Promise<T>) {
    const client = documentClient();
    const name = `health-write-${newKey()}`;
    let sent = false;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!sent && context.commandName === 'TransactWriteItemsCommand' && routeInvocation.getStore()) {
          sent = true;
          const stored = await getEndpoint(merchantId, endpointId);
          if (stored === undefined) throw new Error('the endpoint to race with is gone');
          await client.send(
            new UpdateCommand(buildRecordHealth(stored, { kind: 'failing', at: new Date().toISOString() })),
          );
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      return { result: await act(), raced: () => sent };
    } finally {
      client.middlewareStack.remove(name);
    }
  }

  it.each([
    ['DELETE', (id: string) => t.api('DELETE', `${base}/${id}`, { idempotencyKey: newKey() })],
    [
      'PATCH',
      (id: string) =>
        t.api('PATCH', `${base}/${id}`, { body: { name: 'Renamed' }, idempotencyKey: newKey() }),
    ],
    [
      'rotate-secret',
      (id: string) => t.api('POST', `${base}/${id}/rotate-secret`, { idempotencyKey: newKey() }),
    ],
  ] as const)('%s reads the endpoint again and succeeds', async (_, change) => {
    const created = await createEndpoint();
    expect(created.status).toBe(201);
    const id = created.body.webhookEndpointId as string;
    const { result, raced } = await withHealthWriteBeforeNextRouteWrite(id, () => change(id));
    expect(raced()).toBe(true);
    expect({ status: result.status, body: result.body }).toMatchObject({ status: 200 });
  });
});
