import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diagnoseWebhook, type WebhookScheme } from '../../docs/receiving-webhooks/diagnose-webhook';
import { e2eTest, webhookSettings } from '../support/e2e-test';
import type { ReceivedRequest } from '../support/https-receiver';
import { issueInvoice } from '../support/invoice-requests';
import { invoiceFixtures } from '../support/invoices';
import { newKey, type TestRuntime } from '../support/local-runtime';
import { expectVerifiedDelivery } from '../support/webhook-checks';
import {
  everySchemeHeader,
  missingHeader,
  timestampOff600,
  webhookHeaderNames,
  webhookSchemes,
} from '../support/webhook-diagnoses';

// The unit test diagnoses deliveries signed in this process; these are the bytes and headers the
// local runtime's dispatcher actually sent over TLS, each altered in exactly one way.

const test = e2eTest(webhookSettings);
let t: TestRuntime;
let merchantId: string;

const Source = { event: 'an invoices.InvoiceSent event', test: 'a test delivery (POST …/test)' } as const;
type Source = keyof typeof Source;

/** Each source's delivery as the receiver got it, with the secret of the endpoint it was sent to. */
const captured = {} as Record<Source, { request: ReceivedRequest; secret: string }>;
/** The endpoint's secret once rotated away from the one the deliveries were signed with. */
let rotatedSecret: string;
/** The secret of another endpoint of the same merchant. */
let otherEndpointSecret: string;

test.beforeAll(async ({ t: runtime, receiver, endpoints: subscribed }) => {
  t = runtime;
  merchantId = runtime.merchantId;
  const endpoint = await subscribed.subscribe(receiver.url('/diagnosed'), ['invoices.InvoiceSent']);
  otherEndpointSecret = (await subscribed.subscribe(receiver.url('/other'), ['payouts.PayoutCreated']))
    .secret;

  const testDelivery = await t.api('POST', `${endpoints()}/${endpoint.id}/test`, {
    body: { eventType: 'payments.PaymentCreated' },
    idempotencyKey: newKey(),
  });
  expect(testDelivery.status, JSON.stringify(testDelivery.body)).toBe(201);
  await issuedInvoice();

  const requests = await receiver.waitFor(2, 30_000);
  expect(requests.map((request) => request.path)).toEqual(['/diagnosed', '/diagnosed']);
  for (const request of requests) {
    const source = request.headers['merchant-webhook-test'] === 'true' ? 'test' : 'event';
    captured[source] = { request, secret: endpoint.secret };
  }
  expect(JSON.parse(captured.event.request.rawBody.toString('utf8')).type).toBe('invoices.InvoiceSent');
  expect(captured.test.request.headers['merchant-webhook-id']).toBe(testDelivery.body.webhookDeliveryId);

  const rotated = await t.api('POST', `${endpoints()}/${endpoint.id}/rotate-secret`, {
    idempotencyKey: newKey(),
  });
  expect(rotated.status).toBe(200);
  rotatedSecret = rotated.body.signingSecret;
}, 180_000);

const endpoints = () => `/merchants/${merchantId}/webhook-endpoints`;

/** A new invoice, issued: one invoices.InvoiceSent event. */
async function issuedInvoice() {
  await issueInvoice(t.api, merchantId, await invoiceFixtures(t.api, merchantId));
}

const signatureHeader = { merchant: 'merchant-webhook-signature', 'standard-webhooks': 'webhook-signature' };

/** One source's delivery: a fresh copy of its headers to alter, its raw body and its send time. */
function delivery(source: Source) {
  const { request, secret } = captured[source];
  const timestamp = Number(request.headers['merchant-webhook-timestamp']);
  return {
    request,
    secret,
    headers: { ...request.headers } as Record<string, string>,
    body: request.rawBody,
    timestamp,
    atSendTime: new Date(timestamp * 1000),
  };
}

/** A signature value of `scheme` over the delivery's signed content, keyed with `key`. */
function signedWith(key: Buffer, request: ReceivedRequest, scheme: WebhookScheme): string {
  const head = `${request.headers['merchant-webhook-id']}.${request.headers['merchant-webhook-timestamp']}.`;
  const hmac = createHmac('sha256', key).update(head).update(request.rawBody);
  return scheme === 'merchant' ? `v1=${hmac.digest('hex')}` : `v1,${hmac.digest('base64')}`;
}

/**
 * The delivery's own signature of the other scheme, re-encoded as this scheme's value: the signature
 * this scheme's header would carry if it were keyed with the other scheme's key.
 */
function otherSchemesSignature(request: ReceivedRequest, scheme: WebhookScheme): string {
  if (scheme === 'merchant') {
    const standard = request.headers['webhook-signature']?.replace(/^v1,/, '') ?? '';
    return `v1=${Buffer.from(standard, 'base64').toString('hex')}`;
  }
  const spec = request.headers['merchant-webhook-signature']?.replace(/^v1=/, '') ?? '';
  return `v1,${Buffer.from(spec, 'hex').toString('base64')}`;
}

const keyMixUps = {
  merchant: {
    otherScheme:
      'Merchant-Webhook-Signature was signed with the Standard Webhooks key (the base64-decoded part after whsec_), but its key is the whole secret string as UTF-8 bytes, whsec_ prefix included: sign and verify it with that key.',
    unprefixedText:
      'Merchant-Webhook-Signature was signed with the secret without its whsec_ prefix, but its key is the whole secret string as UTF-8 bytes, whsec_ prefix included: sign and verify it with that key.',
  },
  'standard-webhooks': {
    otherScheme:
      'webhook-signature was signed with the Merchant-Webhook-Signature key (the whole secret string), but its key is the base64-decoded bytes of the part after whsec_: sign and verify it with that key.',
    unprefixedText:
      'webhook-signature was signed with the part after whsec_ as text, not base64-decoded, but its key is the base64-decoded bytes of the part after whsec_: sign and verify it with that key.',
  },
} as const;

const reserialised =
  'The signature matches this JSON re-serialised, not the body you passed, so the body was parsed and re-serialised after it arrived: verify the raw request body, before any JSON parsing.';
const passExactly = 'pass the signing secret exactly as the API returned it, whsec_ prefix included.';
const noFormMatches =
  'The signature matches no form of this secret and body: use the current secret of the endpoint this delivery was sent to (rotating it replaces it at once), with the headers and body of one request.';

const sources = Object.entries(Source).map(([source, label]) => [label, source as Source] as const);

describe.each(sources)('diagnoseWebhook on %s the local runtime sent', (_label, source) => {
  const other: Source = source === 'event' ? 'test' : 'event';

  describe('ok', () => {
    it.each(webhookSchemes)('finds nothing wrong with the delivery as received (%s headers)', (scheme) => {
      const { request, secret, headers, body, atSendTime } = delivery(source);
      expectVerifiedDelivery(request, secret);
      expect(headers['webhook-timestamp']).toBe(headers['merchant-webhook-timestamp']);
      expect(diagnoseWebhook(secret, headers, body, { now: atSendTime, scheme })).toEqual({
        ok: true,
        scheme,
      });
      expect(diagnoseWebhook(secret, headers, body.toString('utf8'), { now: atSendTime, scheme })).toEqual({
        ok: true,
        scheme,
      });
      // Received moments ago: the runtime's timestamp is within tolerance of this clock too.
      expect(diagnoseWebhook(secret, headers, body, { scheme })).toEqual({ ok: true, scheme });
    });

    it('checks the Merchant-Webhook-* headers of a delivery that carries both schemes', () => {
      const { secret, headers, body, atSendTime } = delivery(source);
      expect(diagnoseWebhook(secret, headers, body, { now: atSendTime })).toEqual({
        ok: true,
        scheme: 'merchant',
      });
    });

    it('checks the webhook-* headers when a proxy dropped the Merchant-Webhook-* ones', () => {
      const { secret, headers, body, atSendTime } = delivery(source);
      for (const name of webhookHeaderNames.merchant) delete headers[name.toLowerCase()];
      expect(diagnoseWebhook(secret, headers, body, { now: atSendTime })).toEqual({
        ok: true,
        scheme: 'standard-webhooks',
      });
    });
  });

  describe('missing_header', () => {
    it.each(everySchemeHeader)('names the %s header that was removed: %s', (scheme, name) => {
      const { secret, headers, body, atSendTime } = delivery(source);
      delete headers[name.toLowerCase()];
      expect(diagnoseWebhook(secret, headers, body, { now: atSendTime, scheme })).toEqual(
        missingHeader(scheme, name),
      );
    });

    it('names all three of the service’s headers when a proxy dropped both schemes’ headers', () => {
      const { secret, headers, body, atSendTime } = delivery(source);
      for (const name of [...webhookHeaderNames.merchant, ...webhookHeaderNames['standard-webhooks']])
        delete headers[name.toLowerCase()];
      expect(diagnoseWebhook(secret, headers, body, { now: atSendTime })).toEqual({
        ok: false,
        scheme: 'merchant',
        cause: 'missing_header',
        message:
          'The request has no Merchant-Webhook-Id, Merchant-Webhook-Timestamp and Merchant-Webhook-Signature headers: pass every request header as received, and check that no proxy in front of your server drops it.',
      });
    });

    it('says the headers are empty when none were passed', () => {
      const { secret, body, atSendTime } = delivery(source);
      expect(diagnoseWebhook(secret, {}, body, { now: atSendTime })).toEqual({
        ok: false,
        scheme: 'merchant',
        cause: 'missing_header',
        message:
          'The headers you passed are empty: pass the request headers as received, e.g. Node’s req.headers.',
      });
    });
  });

  it.each(webhookSchemes)('refuses a timestamp header rewritten as an ISO date (%s)', (scheme) => {
    const { secret, headers, body, atSendTime } = delivery(source);
    const [, timestampName] = webhookHeaderNames[scheme];
    headers[timestampName.toLowerCase()] = atSendTime.toISOString();
    expect(diagnoseWebhook(secret, headers, body, { now: atSendTime, scheme })).toEqual({
      ok: false,
      scheme,
      cause: 'invalid_timestamp',
      message: `${timestampName} is "${atSendTime.toISOString()}", not whole Unix seconds: pass the header exactly as received.`,
    });
  });

  describe('timestamp_outside_tolerance', () => {
    it.each(webhookSchemes)(
      'says the delivery is 600 seconds old, 10 minutes after it was sent (%s)',
      (scheme) => {
        const { secret, headers, body, timestamp } = delivery(source);
        const now = new Date((timestamp + 600) * 1000);
        expect(diagnoseWebhook(secret, headers, body, { now, scheme })).toEqual(
          timestampOff600(scheme, 'old'),
        );
      },
    );

    it.each(webhookSchemes)(
      'says the delivery is 600 seconds ahead of a clock 10 minutes behind (%s)',
      (scheme) => {
        const { secret, headers, body, timestamp } = delivery(source);
        const now = new Date((timestamp - 600) * 1000);
        expect(diagnoseWebhook(secret, headers, body, { now, scheme })).toEqual(
          timestampOff600(scheme, 'ahead'),
        );
      },
    );

    it.each(webhookSchemes)('accepts the delivery exactly 5 minutes off either way (%s)', (scheme) => {
      const { secret, headers, body, timestamp } = delivery(source);
      for (const offset of [-300, 300])
        expect(
          diagnoseWebhook(secret, headers, body, { now: new Date((timestamp + offset) * 1000), scheme }),
        ).toEqual({ ok: true, scheme });
    });
  });

  describe('body_modified', () => {
    it.each(webhookSchemes)('says a body parsed and pretty-printed was re-serialised (%s)', (scheme) => {
      const { secret, headers, body, atSendTime } = delivery(source);
      const pretty = JSON.stringify(JSON.parse(body.toString('utf8')), null, 2);
      const expected = { ok: false, scheme, cause: 'body_modified', message: reserialised };
      expect(diagnoseWebhook(secret, headers, pretty, { now: atSendTime, scheme })).toEqual(expected);
      expect(diagnoseWebhook(secret, headers, Buffer.from(pretty), { now: atSendTime, scheme })).toEqual(
        expected,
      );
    });

    it.each(webhookSchemes)(
      'says a body whose top-level keys were re-ordered was re-serialised (%s)',
      (scheme) => {
        const { secret, headers, body, atSendTime } = delivery(source);
        const { id, type, ...rest } = JSON.parse(body.toString('utf8'));
        const reordered = JSON.stringify({ type, id, ...rest });
        expect(diagnoseWebhook(secret, headers, reordered, { now: atSendTime, scheme })).toEqual({
          ok: false,
          scheme,
          cause: 'body_modified',
          message: reserialised,
        });
      },
    );

    it.each(webhookSchemes)('says a body passed as a parsed object must be the raw bytes (%s)', (scheme) => {
      const { secret, headers, body, atSendTime } = delivery(source);
      expect(
        diagnoseWebhook(secret, headers, JSON.parse(body.toString('utf8')), { now: atSendTime, scheme }),
      ).toEqual({
        ok: false,
        scheme,
        cause: 'body_modified',
        message:
          'You passed the body as a parsed object, and a signature covers bytes: pass the raw request body (a Buffer or string), before any JSON parsing.',
      });
    });

    it.each(webhookSchemes)('says a body cut short is not JSON, so not the body sent (%s)', (scheme) => {
      const { secret, headers, body, atSendTime } = delivery(source);
      expect(diagnoseWebhook(secret, headers, body.subarray(0, -1), { now: atSendTime, scheme })).toEqual({
        ok: false,
        scheme,
        cause: 'body_modified',
        message:
          'The body you passed is not JSON, so it is not the body we sent: pass the raw request body, whole and undecoded.',
      });
    });

    it('says a pretty-printed body is not compact JSON, even with another endpoint’s secret', () => {
      const { headers, body, atSendTime } = delivery(source);
      const pretty = JSON.stringify(JSON.parse(body.toString('utf8')), null, 2);
      expect(diagnoseWebhook(otherEndpointSecret, headers, pretty, { now: atSendTime })).toEqual({
        ok: false,
        scheme: 'merchant',
        cause: 'body_modified',
        message:
          'The body you passed is not the compact JSON we send (its spacing or escapes differ), so it was changed after it arrived: verify the raw request body, before any JSON parsing.',
      });
    });
  });

  describe('wrong_secret_form', () => {
    it.each(webhookSchemes)('says the secret lacks its whsec_ prefix (%s)', (scheme) => {
      const { secret, headers, body, atSendTime } = delivery(source);
      expect(
        diagnoseWebhook(secret.slice('whsec_'.length), headers, body, { now: atSendTime, scheme }),
      ).toEqual({
        ok: false,
        scheme,
        cause: 'wrong_secret_form',
        message: `The secret you passed lacks its whsec_ prefix: ${passExactly}`,
      });
    });

    it.each(webhookSchemes)('says the secret was passed already base64-decoded (%s)', (scheme) => {
      const { secret, headers, body, atSendTime } = delivery(source);
      const decoded = Buffer.from(secret.slice('whsec_'.length), 'base64');
      expect(diagnoseWebhook(decoded, headers, body, { now: atSendTime, scheme })).toEqual({
        ok: false,
        scheme,
        cause: 'wrong_secret_form',
        message: `The secret you passed is already base64-decoded bytes: ${passExactly}`,
      });
    });

    it.each(webhookSchemes)('says the secret has a line break around it (%s)', (scheme) => {
      const { secret, headers, body, atSendTime } = delivery(source);
      expect(diagnoseWebhook(`${secret}\n`, headers, body, { now: atSendTime, scheme })).toEqual({
        ok: false,
        scheme,
        cause: 'wrong_secret_form',
        message: `The secret you passed has spaces or a line break around it: ${passExactly}`,
      });
    });

    it.each(webhookSchemes)(
      'says the signature header was keyed with the other scheme’s key (%s)',
      (scheme) => {
        const { request, secret, headers, body, atSendTime } = delivery(source);
        headers[signatureHeader[scheme]] = otherSchemesSignature(request, scheme);
        expect(diagnoseWebhook(secret, headers, body, { now: atSendTime, scheme })).toEqual({
          ok: false,
          scheme,
          cause: 'wrong_secret_form',
          message: keyMixUps[scheme].otherScheme,
        });
      },
    );

    it.each(webhookSchemes)(
      'says the signature header was keyed with the text after whsec_ (%s)',
      (scheme) => {
        const { request, secret, headers, body, atSendTime } = delivery(source);
        const unprefixed = Buffer.from(secret.slice('whsec_'.length), 'utf8');
        headers[signatureHeader[scheme]] = signedWith(unprefixed, request, scheme);
        expect(diagnoseWebhook(secret, headers, body, { now: atSendTime, scheme })).toEqual({
          ok: false,
          scheme,
          cause: 'wrong_secret_form',
          message: keyMixUps[scheme].unprefixedText,
        });
      },
    );
  });

  describe('signature_mismatch', () => {
    it.each(webhookSchemes)(
      'says another endpoint’s secret is not the one the delivery was signed with (%s)',
      (scheme) => {
        const { headers, body, atSendTime } = delivery(source);
        expect(diagnoseWebhook(otherEndpointSecret, headers, body, { now: atSendTime, scheme })).toEqual({
          ok: false,
          scheme,
          cause: 'signature_mismatch',
          message: noFormMatches,
        });
      },
    );

    it.each(webhookSchemes)(
      'says a secret rotated since the delivery was sent does not match it (%s)',
      (scheme) => {
        const { headers, body, atSendTime } = delivery(source);
        expect(diagnoseWebhook(rotatedSecret, headers, body, { now: atSendTime, scheme })).toEqual({
          ok: false,
          scheme,
          cause: 'signature_mismatch',
          message: noFormMatches,
        });
      },
    );

    it.each(webhookSchemes)(
      'names both deliveries when the body is another delivery’s to the endpoint (%s)',
      (scheme) => {
        const { secret, headers, atSendTime } = delivery(source);
        const otherBody = delivery(other).body;
        const [idName] = webhookHeaderNames[scheme];
        expect(diagnoseWebhook(secret, headers, otherBody, { now: atSendTime, scheme })).toEqual({
          ok: false,
          scheme,
          cause: 'signature_mismatch',
          message: `The body is delivery ${JSON.parse(otherBody.toString('utf8')).id} but ${idName} is ${headers[idName.toLowerCase()]}: pass the headers and body of the same request.`,
        });
      },
    );

    it.each(webhookSchemes)(
      'says the signature header holds the other scheme’s value, as when swapped (%s)',
      (scheme) => {
        const { secret, headers, body, atSendTime } = delivery(source);
        const otherScheme = scheme === 'merchant' ? 'standard-webhooks' : 'merchant';
        headers[signatureHeader[scheme]] = headers[signatureHeader[otherScheme]] ?? '';
        expect(diagnoseWebhook(secret, headers, body, { now: atSendTime, scheme })).toEqual({
          ok: false,
          scheme,
          cause: 'signature_mismatch',
          message: `The signature header holds no "${scheme === 'merchant' ? 'v1=' : 'v1,'}" value: pass the header exactly as received.`,
        });
      },
    );
  });
});
