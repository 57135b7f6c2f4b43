import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseWebhook } from '../../../../docs/receiving-webhooks/diagnose-webhook';
import { verifyWebhook } from '../../../../docs/receiving-webhooks/verify-webhook';
import { newSigningSecret } from '../../../../functions/domain/webhook-secret';
import { signedDelivery } from '../../../../functions/domain/webhook-signature';
import { guideVectors } from '../../../support/guide-vectors';
import { integerNearBounds } from '../../../support/integer-near-bounds';
import { assertProperty } from '../../../support/property';
import {
  everySchemeHeader,
  missingHeader,
  timestampOff600,
  webhookHeaderNames,
  webhookSchemes,
} from '../../../support/webhook-diagnoses';

const secret = newSigningSecret((size) => Uint8Array.from({ length: size }, (_, index) => 255 - index * 7));
const otherSecret = newSigningSecret((size) => new Uint8Array(size).fill(9));
const timestamp = 1_767_225_600;
const atSendTime = { now: new Date(timestamp * 1000) };

const invoicePaid = {
  webhookDeliveryId: 'whkdel_01kdxq7m5e9r3t8v2w4y6z0a1b',
  eventType: 'invoices.InvoicePaid',
  createdAt: '2026-01-01T00:00:00.000Z',
  data: { invoiceId: 'inv_01jzb8bx3y4z5a6b7c8d9e0f1g', amount: 125000, currency: 'CAD', note: 'café €' },
};

/** One attempt's request exactly as the service signs and sends it. */
function sent(delivery = invoicePaid, signingSecret = secret) {
  const { body, headers } = signedDelivery(delivery, signingSecret, timestamp);
  return { body, headers: { ...headers } as Record<string, string> };
}

/** HMAC-SHA256 of the signed content with `key`: a signature keyed the way it should not be. */
function hmac(key: Buffer, body: string, encoding: 'hex' | 'base64') {
  return createHmac('sha256', key)
    .update(`${invoicePaid.webhookDeliveryId}.${timestamp}.${body}`)
    .digest(encoding);
}

const decodedKey = Buffer.from(secret.slice('whsec_'.length), 'base64');

describe('diagnoseWebhook', () => {
  it.each(webhookSchemes)(
    'finds nothing wrong with a delivery as the service sends it (%s headers)',
    (scheme) => {
      const { body, headers } = sent();
      expect(diagnoseWebhook(secret, headers, body, { ...atSendTime, scheme })).toEqual({ ok: true, scheme });
      expect(diagnoseWebhook(secret, headers, Buffer.from(body), { ...atSendTime, scheme })).toEqual({
        ok: true,
        scheme,
      });
    },
  );

  it.each(guideVectors().map((vector, index) => [index + 1, vector] as const))(
    'finds nothing wrong with test vector %i, whichever headers it carries',
    (_number, { secret, id, timestamp, body, spec, standard }) => {
      const now = new Date(timestamp * 1000);
      const merchant = {
        'merchant-webhook-id': id,
        'merchant-webhook-timestamp': String(timestamp),
        'merchant-webhook-signature': spec,
      };
      const standardHeaders = {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': standard,
      };
      expect(diagnoseWebhook(secret, merchant, body, { now })).toEqual({ ok: true, scheme: 'merchant' });
      expect(diagnoseWebhook(secret, standardHeaders, body, { now })).toEqual({
        ok: true,
        scheme: 'standard-webhooks',
      });
    },
  );

  describe('missing_header', () => {
    it.each(everySchemeHeader)('names the %s header that was removed: %s', (scheme, name) => {
      const { body, headers } = sent();
      delete headers[name];
      expect(diagnoseWebhook(secret, headers, body, { ...atSendTime, scheme })).toEqual(
        missingHeader(scheme, name),
      );
    });

    it('checks the Standard Webhooks headers when the request carries only those, and names all that are missing', () => {
      const { body, headers } = sent();
      for (const name of webhookHeaderNames.merchant) delete headers[name];
      delete headers['webhook-id'];
      delete headers['webhook-signature'];
      expect(diagnoseWebhook(secret, headers, body, atSendTime)).toMatchObject({
        ok: false,
        scheme: 'standard-webhooks',
        cause: 'missing_header',
        message: expect.stringMatching(/^The request has no webhook-id and webhook-signature headers: /),
      });
    });

    it('says the headers are empty when none were passed', () => {
      expect(diagnoseWebhook(secret, {}, sent().body, atSendTime)).toMatchObject({
        scheme: 'merchant',
        cause: 'missing_header',
        message: expect.stringContaining('The headers you passed are empty'),
      });
    });
  });

  it('refuses a timestamp that is not whole Unix seconds', () => {
    const { body, headers } = sent();
    headers['Merchant-Webhook-Timestamp'] = '2026-01-01T00:00:00Z';
    expect(diagnoseWebhook(secret, headers, body, atSendTime)).toMatchObject({
      cause: 'invalid_timestamp',
      message: expect.stringContaining('Merchant-Webhook-Timestamp is "2026-01-01T00:00:00Z"'),
    });
  });

  describe('timestamp_outside_tolerance', () => {
    it.each(webhookSchemes)(
      'says by how many seconds a signed delivery is too old, 10 minutes later (%s)',
      (scheme) => {
        const { body, headers } = sent();
        const now = new Date((timestamp + 600) * 1000);
        expect(diagnoseWebhook(secret, headers, body, { now, scheme })).toEqual(
          timestampOff600(scheme, 'old'),
        );
      },
    );

    it.each(webhookSchemes)(
      'says by how many seconds a signed delivery is ahead, 10 minutes earlier (%s)',
      (scheme) => {
        const { body, headers } = sent();
        const now = new Date((timestamp - 600) * 1000);
        expect(diagnoseWebhook(secret, headers, body, { now, scheme })).toEqual(
          timestampOff600(scheme, 'ahead'),
        );
      },
    );

    it('accepts a delivery exactly 5 minutes off either way', () => {
      const { body, headers } = sent();
      for (const offset of [-300, 300])
        expect(
          diagnoseWebhook(secret, headers, body, { now: new Date((timestamp + offset) * 1000) }).ok,
        ).toBe(true);
    });

    it('names the stale clock only once the signature matches: a wrong secret comes first', () => {
      const { body, headers } = sent();
      const now = new Date((timestamp + 600) * 1000);
      expect(diagnoseWebhook(otherSecret, headers, body, { now })).toMatchObject({
        cause: 'signature_mismatch',
      });
    });
  });

  describe('body_modified', () => {
    const reserialised =
      'The signature matches this JSON re-serialised, not the body you passed, so the body was parsed and re-serialised after it arrived: verify the raw request body, before any JSON parsing.';

    it.each(webhookSchemes)('says a pretty-printed body was re-serialised (%s)', (scheme) => {
      const { body, headers } = sent();
      const pretty = JSON.stringify(JSON.parse(body), null, 2);
      expect(diagnoseWebhook(secret, headers, pretty, { ...atSendTime, scheme })).toEqual({
        ok: false,
        scheme,
        cause: 'body_modified',
        message: reserialised,
      });
      expect(diagnoseWebhook(secret, headers, Buffer.from(pretty), { ...atSendTime, scheme })).toMatchObject({
        cause: 'body_modified',
      });
    });

    it('says a body whose keys were re-ordered was re-serialised', () => {
      const { body, headers } = sent();
      const { id, type, ...rest } = JSON.parse(body);
      const reordered = JSON.stringify({ type, id, ...rest });
      expect(diagnoseWebhook(secret, headers, reordered, atSendTime)).toMatchObject({
        cause: 'body_modified',
        message: reserialised,
      });
    });

    it.each(webhookSchemes)('says a body passed as a parsed object must be the raw bytes (%s)', (scheme) => {
      const { body, headers } = sent();
      expect(diagnoseWebhook(secret, headers, JSON.parse(body), { ...atSendTime, scheme })).toEqual({
        ok: false,
        scheme,
        cause: 'body_modified',
        message:
          'You passed the body as a parsed object, and a signature covers bytes: pass the raw request body (a Buffer or string), before any JSON parsing.',
      });
    });

    it('says a body that is not compact JSON was changed, even when the secret is wrong too', () => {
      const { body, headers } = sent();
      const pretty = JSON.stringify(JSON.parse(body), null, 2);
      expect(diagnoseWebhook(otherSecret, headers, pretty, atSendTime)).toMatchObject({
        cause: 'body_modified',
        message: expect.stringContaining('is not the compact JSON we send'),
      });
    });

    it('says a body that is not JSON is not the body sent', () => {
      const { body, headers } = sent();
      expect(diagnoseWebhook(secret, headers, body.slice(0, -1), atSendTime)).toMatchObject({
        cause: 'body_modified',
        message: expect.stringContaining('is not JSON'),
      });
    });
  });

  describe('wrong_secret_form', () => {
    const passExactly = 'pass the signing secret exactly as the API returned it, whsec_ prefix included.';

    it.each(webhookSchemes)('says the secret lacks its whsec_ prefix (%s)', (scheme) => {
      const { body, headers } = sent();
      expect(
        diagnoseWebhook(secret.slice('whsec_'.length), headers, body, { ...atSendTime, scheme }),
      ).toEqual({
        ok: false,
        scheme,
        cause: 'wrong_secret_form',
        message: `The secret you passed lacks its whsec_ prefix: ${passExactly}`,
      });
    });

    it('says the secret was passed already base64-decoded', () => {
      const { body, headers } = sent();
      expect(diagnoseWebhook(decodedKey, headers, body, atSendTime)).toMatchObject({
        cause: 'wrong_secret_form',
        message: `The secret you passed is already base64-decoded bytes: ${passExactly}`,
      });
    });

    it('says the secret has a line break around it', () => {
      const { body, headers } = sent();
      expect(diagnoseWebhook(`${secret}\n`, headers, body, atSendTime)).toMatchObject({
        cause: 'wrong_secret_form',
        message: `The secret you passed has spaces or a line break around it: ${passExactly}`,
      });
    });

    it('says Merchant-Webhook-Signature was keyed with the Standard Webhooks key', () => {
      const { body, headers } = sent();
      headers['Merchant-Webhook-Signature'] = `v1=${hmac(decodedKey, body, 'hex')}`;
      expect(diagnoseWebhook(secret, headers, body, atSendTime)).toEqual({
        ok: false,
        scheme: 'merchant',
        cause: 'wrong_secret_form',
        message:
          'Merchant-Webhook-Signature was signed with the Standard Webhooks key (the base64-decoded part after whsec_), but its key is the whole secret string as UTF-8 bytes, whsec_ prefix included: sign and verify it with that key.',
      });
    });

    it('says Merchant-Webhook-Signature was keyed with the secret stripped of whsec_', () => {
      const { body, headers } = sent();
      const stripped = Buffer.from(secret.slice('whsec_'.length), 'utf8');
      headers['Merchant-Webhook-Signature'] = `v1=${hmac(stripped, body, 'hex')}`;
      expect(diagnoseWebhook(secret, headers, body, atSendTime)).toMatchObject({
        cause: 'wrong_secret_form',
        message: expect.stringMatching(
          /^Merchant-Webhook-Signature was signed with the secret without its whsec_/,
        ),
      });
    });

    it('says webhook-signature was keyed with the whole secret string, the Merchant-Webhook-Signature key', () => {
      const { body, headers } = sent();
      headers['webhook-signature'] = `v1,${hmac(Buffer.from(secret, 'utf8'), body, 'base64')}`;
      expect(diagnoseWebhook(secret, headers, body, { ...atSendTime, scheme: 'standard-webhooks' })).toEqual({
        ok: false,
        scheme: 'standard-webhooks',
        cause: 'wrong_secret_form',
        message:
          'webhook-signature was signed with the Merchant-Webhook-Signature key (the whole secret string), but its key is the base64-decoded bytes of the part after whsec_: sign and verify it with that key.',
      });
    });
  });

  describe('signature_mismatch', () => {
    it.each(webhookSchemes)('says the secret is not the one the delivery was signed with (%s)', (scheme) => {
      const { body, headers } = sent();
      expect(diagnoseWebhook(otherSecret, headers, body, { ...atSendTime, scheme })).toEqual({
        ok: false,
        scheme,
        cause: 'signature_mismatch',
        message:
          'The signature matches no form of this secret and body: use the current secret of the endpoint this delivery was sent to (rotating it replaces it at once), with the headers and body of one request.',
      });
    });

    it('names both deliveries when the body comes from another one', () => {
      const { headers } = sent();
      const other = sent({ ...invoicePaid, webhookDeliveryId: 'whkdel_01kdxq9a8b7c6d5e4f3g2h1j0k' });
      expect(diagnoseWebhook(secret, headers, other.body, atSendTime)).toMatchObject({
        cause: 'signature_mismatch',
        message: `The body is delivery whkdel_01kdxq9a8b7c6d5e4f3g2h1j0k but Merchant-Webhook-Id is ${invoicePaid.webhookDeliveryId}: pass the headers and body of the same request.`,
      });
    });

    it('says the signature header holds no value of its scheme, as when the two are swapped', () => {
      const { body, headers } = sent();
      headers['Merchant-Webhook-Signature'] = headers['webhook-signature'] ?? '';
      expect(diagnoseWebhook(secret, headers, body, atSendTime)).toMatchObject({
        cause: 'signature_mismatch',
        message: 'The signature header holds no "v1=" value: pass the header exactly as received.',
      });
    });
  });

  it('finds any signed delivery ok within 5 minutes, too old or ahead by its offset beyond, and re-serialised when pretty-printed', () => {
    assertProperty(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        // Clock offsets around the tolerance, the bounds -300 and 300 and their neighbours in every run.
        fc.oneof(integerNearBounds({ min: -300, max: 300, reach: 3 }), fc.integer({ min: -3600, max: 3600 })),
        fc.constantFrom(...webhookSchemes),
        (bytes, data, sentAt, offset, scheme) => {
          const signingSecret = newSigningSecret(() => bytes);
          const { body, headers } = signedDelivery({ ...invoicePaid, data }, signingSecret, sentAt);
          const now = new Date((sentAt + offset) * 1000);
          const diagnosis = diagnoseWebhook(signingSecret, headers, body, { now, scheme });
          if (Math.abs(offset) <= 300) expect(diagnosis).toEqual({ ok: true, scheme });
          else
            expect(diagnosis).toMatchObject({
              cause: 'timestamp_outside_tolerance',
              message: expect.stringContaining(
                `is ${Math.abs(offset)} seconds ${offset > 0 ? 'old' : 'ahead'}`,
              ),
            });
          const pretty = JSON.stringify(JSON.parse(body), null, 2);
          expect(diagnoseWebhook(signingSecret, headers, pretty, { now, scheme })).toMatchObject({
            cause: 'body_modified',
          });
        },
      ),
    );
  });

  it('agrees with verifyWebhook: ok exactly when the guide’s verifier accepts', () => {
    const { body, headers } = sent();
    const cases = [
      { secret, body, now: atSendTime.now },
      { secret: otherSecret, body, now: atSendTime.now },
      { secret, body: `${body} `, now: atSendTime.now },
      { secret, body, now: new Date((timestamp + 301) * 1000) },
    ];
    for (const { secret, body, now } of cases)
      expect(diagnoseWebhook(secret, headers, body, { now }).ok).toBe(
        verifyWebhook({ secret, headers, rawBody: body, now }).ok,
      );
  });
});
