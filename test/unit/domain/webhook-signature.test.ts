import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyWebhook } from '../../../docs/receiving-webhooks/verify-webhook';
import { newSigningSecret } from '../../../functions/domain/webhook-secret';
import {
  deliveryBody,
  deliveryHeaders,
  signedDelivery,
  signSpec,
  signStandard,
  WebhookUserAgent,
} from '../../../functions/domain/webhook-signature';
import { guideVectors } from '../../support/guide-vectors';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';

/**
 * Fixed vectors, published in docs/receiving-webhooks.md. The expected signatures were computed once
 * outside this code base, with `openssl dgst -sha256 -hmac <secret>` (Merchant-Webhook-Signature) and
 * `openssl dgst -sha256 -mac HMAC -macopt hexkey:<decoded key> -binary | base64` (Standard Webhooks),
 * and cross-checked with python3's hmac module.
 */
const vectors = [
  {
    secret: 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
    id: 'whkdel_01jq3v7y8k2m4n6p8r0s2t4v6w',
    timestamp: 1700000000,
    body: '{}',
    spec: 'v1=f97b00cbf12e995e91bd3523f3a4e1b704e7bc79897f6b8d9477aa0f3b7fc7ef',
    standard: 'v1,x8h9rrK2Jf/UqPlFN6ilODlM+HmKMODZz0MJj0zwviQ=',
  },
  {
    secret: 'whsec_0ZgJEGbjkKi+i+Lk64Gn+QQPjT4mLhnSJXZVDNlyfY4=',
    id: 'whkdel_01kdxq7m5e9r3t8v2w4y6z0a1b',
    timestamp: 1767225600,
    body: '{"id":"whkdel_01kdxq7m5e9r3t8v2w4y6z0a1b","type":"payments.PaymentDeclined","createdAt":"2026-01-01T00:00:00.000Z","data":{"paymentId":"pmt_01kdxq7kz8c2n4p6r8s0t2v4w6","merchantId":"mer_01kdxq0a2b3c4d5e6f7g8h9j0k","processor":"sandbox","declineCode":"insufficient_funds","declineMessage":"Paiement refusé au café € 4,50","occurredAt":"2025-12-31T23:59:58.000Z"}}',
    spec: 'v1=6dbfa09172f864e4b169079b484070b24c3e7da4f3e65b9c4ad26b04904c058f',
    standard: 'v1,ORHSkOM+Xf2YVS4YS7FzquSYMA03veaHvzceRU2AWf8=',
  },
  {
    secret: 'whsec_b8SxbHx/eqXVonh/fCf/erkG+c6hSjCE6gn2FfXBHFs=',
    id: 'whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8',
    timestamp: 1735689599,
    body: '{"id":"whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8","type":"invoices.InvoicePaid","createdAt":"2024-12-31T23:59:59.123Z","data":{"invoiceId":"inv_01jzb8bx3y4z5a6b7c8d9e0f1g","merchantId":"mer_01kdxq0a2b3c4d5e6f7g8h9j0k","customerId":"cust_01jzb8a0b1c2d3e4f5g6h7j8k9","invoiceNumber":"INV-000042","amount":125000,"currency":"CAD","paidAt":"2024-12-31T23:59:58.000Z"}}',
    spec: 'v1=53b537e02d12151b9a95a6c567825fc38f1fc67a50c729c97ea7f5c1bc10576e',
    standard: 'v1,MfeOIM1q3+7X8E9RmCV87ab6bOClbpjXuuI9+etxkhI=',
  },
];

const now = new Date('2026-03-01T12:00:00.000Z');
const nowSeconds = Math.floor(now.getTime() / 1000);
const secret = newSigningSecret((size) => randomBytes(size));
const deliveryId = 'whkdel_01jnf3x2y4z6a8b0c2d4e6f8g0';
const body = deliveryBody({
  deliveryId,
  eventType: 'invoices.InvoiceSent',
  createdAt: now.toISOString(),
  data: { invoiceId: 'inv_01jnf3w0000000000000000000', resend: false, note: 'café €' },
});

/** The body and headers of one attempt made `age` seconds before `now`. */
function attempt(age = 0) {
  return {
    rawBody: Buffer.from(body, 'utf8'),
    headers: deliveryHeaders({ secret, deliveryId, timestamp: nowSeconds - age, body }),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('signSpec', () => {
  it.each(vectors.map((vector, index) => [index + 1, vector] as const))(
    'gives the published v1= hex signature of vector %i',
    (_number, { secret, id, timestamp, body, spec }) => {
      expect(signSpec({ secret, id, timestamp, body })).toBe(spec);
    },
  );

  it('refuses a timestamp that is not whole unix seconds', () => {
    expect(() => signSpec({ secret, id: deliveryId, timestamp: nowSeconds + 0.5, body })).toThrow(RangeError);
    expect(() => signSpec({ secret, id: deliveryId, timestamp: -1, body })).toThrow(RangeError);
  });

  it('signs exactly the timestamps that are whole unix seconds from 0 to 9007199254740991', () => {
    assertProperty(
      fc.property(
        fc.oneof(integerNearBounds({ min: 0, max: Number.MAX_SAFE_INTEGER, reach: 3 }), fc.double()),
        (timestamp) => {
          const whole = Number.isInteger(timestamp) && timestamp >= 0 && timestamp <= Number.MAX_SAFE_INTEGER;
          const headers = () => deliveryHeaders({ secret, deliveryId, timestamp, body });
          if (whole) expect(headers()['Merchant-Webhook-Timestamp']).toBe(String(timestamp));
          else expect(headers).toThrow(RangeError);
        },
      ),
    );
  });
});

describe('signStandard', () => {
  it.each(vectors.map((vector, index) => [index + 1, vector] as const))(
    'gives the published v1, base64 signature of vector %i',
    (_number, { secret, id, timestamp, body, standard }) => {
      expect(signStandard({ secret, id, timestamp, body })).toBe(standard);
    },
  );

  it('refuses a value that is not a whsec_ signing secret', () => {
    expect(() =>
      signStandard({ secret: 'whsec_not base64!', id: deliveryId, timestamp: nowSeconds, body }),
    ).toThrow(TypeError);
  });
});

describe('the guide', () => {
  it('publishes exactly the vectors the signers are tested against', () => {
    expect(guideVectors()).toEqual(vectors);
  });
});

describe('deliveryBody', () => {
  it('is {id, type, createdAt, data} in that order, as compact JSON', () => {
    const built = deliveryBody({
      deliveryId: 'whkdel_01kdxq7m5e9r3t8v2w4y6z0a1b',
      eventType: 'payments.PaymentDeclined',
      createdAt: '2026-01-01T00:00:00.000Z',
      data: {
        paymentId: 'pmt_01kdxq7kz8c2n4p6r8s0t2v4w6',
        merchantId: 'mer_01kdxq0a2b3c4d5e6f7g8h9j0k',
        processor: 'sandbox',
        declineCode: 'insufficient_funds',
        declineMessage: 'Paiement refusé au café € 4,50',
        occurredAt: '2025-12-31T23:59:58.000Z',
      },
    });
    expect(built).toBe(vectors[1]?.body);
    expect(Object.keys(JSON.parse(built))).toEqual(['id', 'type', 'createdAt', 'data']);
  });
});

describe('deliveryHeaders', () => {
  it('carries exactly the service’s own headers, the Standard Webhooks headers, the content type and the user agent', () => {
    const vector = vectors[2];
    if (vector === undefined) throw new Error('vector 3 missing');
    const { secret, id, timestamp, body } = vector;
    expect(deliveryHeaders({ secret, deliveryId: id, timestamp, body })).toStrictEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'MerchantPayments-Webhooks/1.0',
      'Merchant-Webhook-Id': id,
      'Merchant-Webhook-Timestamp': '1735689599',
      'Merchant-Webhook-Signature': vector.spec,
      'webhook-id': id,
      'webhook-timestamp': '1735689599',
      'webhook-signature': vector.standard,
    });
    expect(WebhookUserAgent).toBe('MerchantPayments-Webhooks/1.0');
  });

  it('signs each attempt with its own timestamp over the same id and body', () => {
    const first = attempt(60).headers;
    const second = attempt(0).headers;
    expect(second['Merchant-Webhook-Id']).toBe(first['Merchant-Webhook-Id']);
    expect(second['Merchant-Webhook-Signature']).not.toBe(first['Merchant-Webhook-Signature']);
    expect(second['webhook-signature']).not.toBe(first['webhook-signature']);
  });
});

describe('signedDelivery', () => {
  const delivery = {
    webhookDeliveryId: 'whkdel_01jq3v7y8k2m4n6p8r0s2t4v6w',
    eventType: 'invoices.InvoicePaid',
    createdAt: '2026-11-22T12:00:00.000Z',
    data: { invoiceId: 'inv_1' },
  };
  const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

  it('adds the event id, sequence and object version as headers, outside the signed content', () => {
    const ordered = { ...delivery, eventId: 'evt_1', sequence: 7, objectVersion: 3 };
    const { body, headers } = signedDelivery(ordered, secret, 1700000000);
    const plain = signedDelivery(delivery, secret, 1700000000);
    expect(body).toBe(plain.body);
    expect(headers).toStrictEqual({
      ...plain.headers,
      'Merchant-Webhook-Event-Id': 'evt_1',
      'Merchant-Webhook-Sequence': '7',
      'Merchant-Webhook-Object-Version': '3',
    });
    expect(plain.headers).toStrictEqual(
      deliveryHeaders({ secret, deliveryId: delivery.webhookDeliveryId, timestamp: 1700000000, body }),
    );
  });

  it('leaves out the sequence and object version a delivery written before they were kept has not', () => {
    const { headers } = signedDelivery(
      { ...delivery, eventId: 'evt_1', sequence: null, objectVersion: null },
      secret,
      1700000000,
    );
    expect(headers['Merchant-Webhook-Event-Id']).toBe('evt_1');
    expect(headers).not.toHaveProperty('Merchant-Webhook-Sequence');
    expect(headers).not.toHaveProperty('Merchant-Webhook-Object-Version');
  });
});

describe('verifyWebhook (the guide’s code) on our deliveries', () => {
  it('accepts a fresh delivery', () => {
    expect(verifyWebhook({ secret, now, ...attempt() })).toEqual({ ok: true });
  });

  it('accepts the raw body given as a string', () => {
    expect(verifyWebhook({ secret, now, headers: attempt().headers, rawBody: body })).toEqual({ ok: true });
  });

  it('finds the headers whatever their case', () => {
    const { headers, rawBody } = attempt();
    const lower = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    const upper = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    expect(verifyWebhook({ secret, now, headers: lower, rawBody })).toEqual({ ok: true });
    expect(verifyWebhook({ secret, now, headers: upper, rawBody })).toEqual({ ok: true });
  });

  it('refuses a delivery checked with another secret', () => {
    const other = newSigningSecret((size) => randomBytes(size));
    expect(verifyWebhook({ ...attempt(), secret: other, now })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses a tampered body', () => {
    const { headers } = attempt();
    const rawBody = Buffer.from(body.replace('"resend":false', '"resend":true'), 'utf8');
    expect(verifyWebhook({ secret, now, headers, rawBody })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses a changed id or timestamp, both being signed', () => {
    const { headers, rawBody } = attempt();
    const otherId = { ...headers, 'Merchant-Webhook-Id': 'whkdel_01jnf3x2y4z6a8b0c2d4e6f8g1' };
    const otherTime = { ...headers, 'Merchant-Webhook-Timestamp': String(nowSeconds - 1) };
    expect(verifyWebhook({ secret, now, headers: otherId, rawBody })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
    expect(verifyWebhook({ secret, now, headers: otherTime, rawBody })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('accepts a timestamp exactly 5 minutes old or ahead', () => {
    expect(verifyWebhook({ secret, now, ...attempt(300) })).toEqual({ ok: true });
    expect(verifyWebhook({ secret, now, ...attempt(-300) })).toEqual({ ok: true });
  });

  it('refuses a timestamp 301 seconds old', () => {
    expect(verifyWebhook({ secret, now, ...attempt(301) })).toEqual({
      ok: false,
      reason: 'timestamp_too_old',
    });
  });

  it('refuses a correctly signed delivery when the clock it is given is an invalid Date', () => {
    expect(verifyWebhook({ secret, now: new Date(Number.NaN), ...attempt() })).toEqual({
      ok: false,
      reason: 'timestamp_too_old',
    });
  });

  it('refuses a timestamp 301 seconds in the future', () => {
    expect(verifyWebhook({ secret, now, ...attempt(-301) })).toEqual({
      ok: false,
      reason: 'timestamp_too_new',
    });
  });

  it.each(['Merchant-Webhook-Id', 'Merchant-Webhook-Timestamp', 'Merchant-Webhook-Signature'] as const)(
    'refuses a delivery without %s',
    (missing) => {
      const { headers, rawBody } = attempt();
      const { [missing]: _removed, ...rest } = headers;
      expect(verifyWebhook({ secret, now, headers: rest, rawBody })).toEqual({
        ok: false,
        reason: 'missing_header',
      });
      expect(verifyWebhook({ secret, now, headers: { ...headers, [missing]: '' }, rawBody })).toEqual({
        ok: false,
        reason: 'missing_header',
      });
    },
  );

  it.each(['1.7e9', '-1700000000', ' 1700000000', '0x65'])('refuses the timestamp %j', (timestamp) => {
    const { headers, rawBody } = attempt();
    const changed = { ...headers, 'Merchant-Webhook-Timestamp': timestamp };
    expect(verifyWebhook({ secret, now, headers: changed, rawBody })).toEqual({
      ok: false,
      reason: 'invalid_timestamp',
    });
  });

  it('uses the v1= value among several space-separated values', () => {
    const { headers, rawBody } = attempt();
    const good = headers['Merchant-Webhook-Signature'];
    const bad = `v1=${'0'.repeat(64)}`;
    const withSignature = (value: string) => ({ ...headers, 'Merchant-Webhook-Signature': value });
    expect(verifyWebhook({ secret, now, rawBody, headers: withSignature(`v0=abc ${good}`) })).toEqual({
      ok: true,
    });
    expect(verifyWebhook({ secret, now, rawBody, headers: withSignature(`${bad} ${good}`) })).toEqual({
      ok: true,
    });
    expect(verifyWebhook({ secret, now, rawBody, headers: withSignature(`${good} v2=xyz`) })).toEqual({
      ok: true,
    });
    expect(
      verifyWebhook({ secret, now, rawBody, headers: withSignature(good.replace('v1=', 'v0=')) }),
    ).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });
});

describe('the Standard Webhooks headers', () => {
  it('verify with the npm standardwebhooks package', () => {
    vi.useFakeTimers({ now });
    const { headers } = attempt();
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('are refused by standardwebhooks under another secret', () => {
    vi.useFakeTimers({ now });
    const other = newSigningSecret((size) => randomBytes(size));
    expect(() => new Webhook(other).verify(body, attempt().headers)).toThrow('No matching signature found');
  });

  it('verify, as the service’s own headers do, for any secret, time and payload', () => {
    vi.useFakeTimers();
    assertProperty(
      fc.property(secretBytes, attemptTime, payloadData, (bytes, timestamp, data) => {
        const anySecret = newSigningSecret(() => bytes);
        const anyBody = deliveryBody({
          deliveryId,
          eventType: 'invoices.InvoicePaid',
          createdAt: now.toISOString(),
          data,
        });
        const headers = deliveryHeaders({ secret: anySecret, deliveryId, timestamp, body: anyBody });
        const at = new Date(timestamp * 1000);
        vi.setSystemTime(at);
        expect(new Webhook(anySecret).verify(anyBody, headers)).toEqual(JSON.parse(anyBody));
        expect(
          verifyWebhook({ secret: anySecret, headers, rawBody: Buffer.from(anyBody, 'utf8'), now: at }),
        ).toEqual({ ok: true });
      }),
    );
  });
});

describe('verifyWebhook (the guide’s code) on time', () => {
  it('accepts a delivery exactly when its timestamp is at most 5 minutes from the clock', () => {
    assertProperty(
      fc.property(attemptTime, integerNearBounds({ min: -300, max: 300, reach: 3 }), (timestamp, age) => {
        const headers = deliveryHeaders({ secret, deliveryId, timestamp, body });
        const at = new Date((timestamp + age) * 1000);
        const expected =
          age > 300
            ? { ok: false, reason: 'timestamp_too_old' }
            : age < -300
              ? { ok: false, reason: 'timestamp_too_new' }
              : { ok: true };
        expect(verifyWebhook({ secret, headers, rawBody: Buffer.from(body, 'utf8'), now: at })).toEqual(
          expected,
        );
      }),
    );
  });
});

/** 32 bytes: all clear, all set, or anything. */
const secretBytes = fc.oneof(
  fc.constant(new Uint8Array(32)),
  fc.constant(new Uint8Array(32).fill(0xff)),
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
);

/** Unix seconds from 1970 to the last second a Date holds, less the 10 minutes a clock may be off by here. */
const attemptTime = integerNearBounds({ min: 0, max: 8_640_000_000_000 - 600 });

/** Event data with any text, lone surrogates and all, which JSON.stringify escapes. */
const payloadData = fc.dictionary(
  fc.string({ unit: 'binary' }),
  fc.oneof(fc.string({ unit: 'binary' }), fc.integer(), fc.maxSafeInteger()),
);
