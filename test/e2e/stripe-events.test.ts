import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EntityType } from '../../functions/store/keys';
import { document, documentSchemaAt, responseProblems, validatorOf } from '../support/document-schemas';
import { arbitraryOf, type JsonSchema } from '../support/json-schema-arbitrary';
import {
  apiClient,
  dynamoDbCommandsDuring,
  startTestRuntime,
  type TestRuntime,
} from '../support/local-runtime';
import { assertProperty } from '../support/property';
import {
  accountUpdatedEvent,
  activeStripeAccount,
  balanceAvailableEvent,
  stripeAccount,
  stripeSignature,
  testStripeSecretKey,
  testStripeWebhookSecret,
} from '../support/stripe-fixtures';
import { linkStripeAccount } from '../support/stripe-merchants';
import { type StripeRecordingServer, startStripeRecordingServer } from '../support/stripe-recording-server';

let stripe: StripeRecordingServer;
let t: TestRuntime;

beforeAll(async () => {
  stripe = await startStripeRecordingServer();
  t = await startTestRuntime({
    STAGE: 'production',
    STRIPE_SECRET_KEY: testStripeSecretKey,
    STRIPE_WEBHOOK_SECRET: testStripeWebhookSecret,
    STRIPE_API_BASE_URL: stripe.baseUrl,
    // Every request here comes from this one address, as Stripe's come from a few.
    PUBLIC_RATE_LIMIT_PER_MINUTE: 10_000,
  });
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await stripe?.close();
});
beforeEach(() => stripe.reset());

const now = () => Math.floor(Date.now() / 1000);
let eventCount = 0;
function eventId(): string {
  eventCount += 1;
  return `evt_1Test${Date.now()}${eventCount}`;
}

/** A merchant of its own with a linked, still pending Stripe account `accountId`. */
async function linkedMerchant(accountId: string) {
  const merchant = await t.anotherMerchant();
  await linkStripeAccount(merchant, stripe, accountId);
  return merchant;
}

const publicApi = () => apiClient(t.runtime.baseUrl, 'unused');

/** POSTs `body` exactly as given, with `signature` (or Stripe's own of it) as Stripe-Signature. */
function deliver(body: string, signature: string | null = stripeSignature(body)) {
  return publicApi()('POST', '/processors/stripe/events', {
    authorization: null,
    rawBody: body,
    headers: signature === null ? {} : { 'Stripe-Signature': signature },
  });
}

async function stateOf(merchant: { merchantId: string; api: ReturnType<typeof apiClient> }) {
  return (await merchant.api('GET', `/merchants/${merchant.merchantId}/processor-account`)).body.state;
}

const eventItems = async () =>
  (await t.scanTable()).filter((item) => item.entityType === EntityType.processorEvent);

function activeAccountOf(accountId: string, merchantId: string) {
  return { ...activeStripeAccount(accountId), metadata: { merchantId } };
}

describe('Stripe’s account.updated', () => {
  it('moves the account to its new state in one read and one write, and answers 200 applied', async () => {
    const merchant = await linkedMerchant('acct_1Activates');
    const event = accountUpdatedEvent(
      eventId(),
      activeAccountOf('acct_1Activates', merchant.merchantId),
      now(),
    );
    const body = JSON.stringify(event);
    let result: Awaited<ReturnType<typeof deliver>> | undefined;
    const commands = await dynamoDbCommandsDuring(async () => {
      result = await deliver(body);
    });
    expect(result).toMatchObject({
      status: 200,
      body: { received: true, eventId: event.id, outcome: 'applied' },
    });
    expect(commands).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect(await stateOf(merchant)).toBe('active');
    const [record] = (await eventItems()).filter((item) => item.processorEventId === event.id);
    expect(record).toMatchObject({
      processor: 'stripe',
      eventType: 'account.updated',
      processorAccountId: 'acct_1Activates',
      merchantId: merchant.merchantId,
      outcome: 'applied',
      ttl: expect.any(Number),
    });
    // GSI5 (an event's deliveries) is keyed by `eventId`: a Stripe event's record stays out of it.
    expect(record).not.toHaveProperty('eventId');
  });

  it('answers a repeat 200 duplicate and changes nothing', async () => {
    const merchant = await linkedMerchant('acct_1Repeated');
    const body = JSON.stringify(
      accountUpdatedEvent(eventId(), activeAccountOf('acct_1Repeated', merchant.merchantId), now()),
    );
    expect((await deliver(body)).body.outcome).toBe('applied');
    const before = await t.scanTable();
    const again = await deliver(body);
    expect(again).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    expect(await t.scanTable()).toEqual(before);
  });

  it('ignores an event older than the last one applied, whatever order they come in', async () => {
    const merchant = await linkedMerchant('acct_1Reordered');
    const at = now();
    const restricted = stripeAccount('acct_1Reordered', {
      details_submitted: true,
      metadata: { merchantId: merchant.merchantId },
      requirements: { disabled_reason: 'requirements.past_due', past_due: ['external_account'] },
    });
    const newer = JSON.stringify(accountUpdatedEvent(eventId(), restricted, at));
    const older = JSON.stringify(
      accountUpdatedEvent(eventId(), activeAccountOf('acct_1Reordered', merchant.merchantId), at - 60),
    );
    expect((await deliver(newer)).body.outcome).toBe('applied');
    expect((await deliver(older)).body).toMatchObject({ outcome: 'stale' });
    expect(await stateOf(merchant)).toBe('restricted');
    for (const body of [older, newer]) expect((await deliver(body)).body.outcome).toBe('duplicate');
    expect(await stateOf(merchant)).toBe('restricted');
  });

  it('verifies the exact bytes Stripe sent, not a re-serialization of them', async () => {
    const merchant = await linkedMerchant('acct_1ExactBytes');
    const account = {
      ...activeAccountOf('acct_1ExactBytes', merchant.merchantId),
      business_profile: { name: 'Café ☕ Ünïcode — “quoted”' } as never,
    };
    // Indented and with a non-ASCII name: parsing and stringifying it again would give other bytes.
    const body = `${JSON.stringify(accountUpdatedEvent(eventId(), account, now()), null, 2)}\n`;
    expect(JSON.stringify(JSON.parse(body))).not.toBe(body);
    expect((await deliver(body)).body.outcome).toBe('applied');
    expect(await stateOf(merchant)).toBe('active');
  });

  it('records and answers 200 an event of an account no merchant linked, changing no account', async () => {
    const merchant = await linkedMerchant('acct_1Known');
    const before = (await t.scanTable()).filter((item) => item.entityType === EntityType.processorAccount);
    for (const account of [
      activeAccountOf('acct_1Stranger', merchant.merchantId),
      { ...activeStripeAccount('acct_1NoMetadata'), metadata: {} },
    ]) {
      const event = accountUpdatedEvent(eventId(), account, now());
      expect(await deliver(JSON.stringify(event))).toMatchObject({
        status: 200,
        body: { outcome: 'unknown_account' },
      });
      expect((await eventItems()).filter((item) => item.processorEventId === event.id)).toHaveLength(1);
    }
    const after = (await t.scanTable()).filter((item) => item.entityType === EntityType.processorAccount);
    expect(after).toEqual(before);
    expect(await stateOf(merchant)).toBe('pending');
  });
});

describe('other Stripe events', () => {
  it('records a type not mapped yet and answers 200 recorded', async () => {
    const event = balanceAvailableEvent(eventId(), 'acct_1Anyone', now());
    expect(await deliver(JSON.stringify(event))).toMatchObject({
      status: 200,
      body: { outcome: 'recorded' },
    });
    expect((await deliver(JSON.stringify(event))).body.outcome).toBe('duplicate');
    expect((await eventItems()).filter((item) => item.processorEventId === event.id)).toHaveLength(1);
  });
});

describe('a request Stripe did not sign', () => {
  it.each([
    ['another secret', (body: string) => stripeSignature(body, { secret: 'whsec_someoneelse000000' })],
    ['a signature over 5 minutes old', (body: string) => stripeSignature(body, { timestamp: now() - 301 })],
    ['no signature', () => null],
    ['a malformed header', () => 't=1,v1=nothex'],
    ['a signature of other bytes', (body: string) => stripeSignature(`${body} `)],
  ] as const)('answers 400 to %s and changes nothing', async (_, sign) => {
    const accountId = `acct_1Unsigned${eventCount}`;
    const merchant = await linkedMerchant(accountId);
    const event = accountUpdatedEvent(eventId(), activeAccountOf(accountId, merchant.merchantId), now());
    const body = JSON.stringify(event);
    const before = await t.scanTable();
    const result = await deliver(body, sign(body));
    expect(result.status).toBe(400);
    expect(result.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ path: 'Stripe-Signature', message: expect.stringMatching(/within the last 5 minutes/) }],
    });
    expect(await t.scanTable()).toEqual(before);
  });
});

describe('the route as docs/openapi.json describes it', () => {
  const path = '/processors/stripe/events';
  const operation = document.paths[path].post;
  const resolve = (ref: string): JsonSchema => documentSchemaAt(ref);

  it('answers every body valid by its schema 200 when Stripe signed it, and the documented 400 when not', async () => {
    const bodies = arbitraryOf(operation.requestBody.content['application/json'].schema, {
      resolve,
      validatorOf,
    });
    await assertProperty(
      fc.asyncProperty(bodies, fc.boolean(), async (body, signed) => {
        const text = JSON.stringify(body);
        const result = await deliver(text, signed ? stripeSignature(text) : null);
        const status = signed ? 200 : 400;
        expect({
          status: result.status,
          problems: responseProblems('POST', path, result.status, result.body),
        }).toEqual({ status, problems: [] });
        if (!signed) expect(result.body.error.details[0].path).toBe('Stripe-Signature');
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
