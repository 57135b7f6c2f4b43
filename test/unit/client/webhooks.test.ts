import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { toleranceSeconds, WebhookVerificationError, webhooks } from '../../../client/src/index';
import { newSigningSecret } from '../../../functions/domain/webhook-secret';
import { deliveryBody, deliveryHeaders } from '../../../functions/domain/webhook-signature';
import { assertProperty } from '../../support/property';

const secret = newSigningSecret(randomBytes);
const timestamp = 1_767_225_600;
const at = (seconds: number) => new Date(seconds * 1000);
const body = deliveryBody({
  deliveryId: 'whkdel_01kdxq7m5e9r3t8v2w4y6z0a1b',
  eventType: 'invoices.InvoicePaid',
  createdAt: '2026-01-01T00:00:00.000Z',
  data: { invoiceId: 'inv_01kdxq7kz8c2n4p6r8s0t2v4w6', amount: 1800, currency: 'USD' },
});
/** The headers the service's own signer writes for `body` (functions/domain/webhook-signature.ts). */
const signed = deliveryHeaders({ secret, deliveryId: 'whkdel_01kdxq7m5e9r3t8v2w4y6z0a1b', timestamp, body });

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

describe('webhooks.verify', () => {
  it('accepts what the service signs, from a header record or a fetch Headers, and returns the event', () => {
    const event = webhooks.verify(body, signed, secret, { now: at(timestamp) });
    expect(event).toEqual(JSON.parse(body));
    expect(webhooks.verify(Buffer.from(body), new Headers(signed), secret, { now: at(timestamp) })).toEqual(
      event,
    );
  });

  it('checks every scheme the request carries: either alone verifies, a bad one of two refuses', () => {
    const merchantOnly = Object.fromEntries(
      Object.entries(signed).filter(([name]) => !name.startsWith('webhook-')),
    );
    const standardOnly = Object.fromEntries(
      Object.entries(signed).filter(([name]) => !name.startsWith('Merchant-')),
    );
    const now = { now: at(timestamp) };
    expect(reasonOf(() => webhooks.verify(body, merchantOnly, secret, now))).toBeUndefined();
    expect(reasonOf(() => webhooks.verify(body, standardOnly, secret, now))).toBeUndefined();
    // The Standard Webhooks library, which reads the system clock, agrees on the second scheme.
    const nowSeconds = Math.floor(Date.now() / 1000);
    const fresh = deliveryHeaders({ secret, deliveryId: 'whkdel_fresh', timestamp: nowSeconds, body });
    expect(new Webhook(secret).verify(body, fresh)).toEqual(JSON.parse(body));
    expect(webhooks.verify(body, fresh, secret, { now: at(nowSeconds) })).toEqual(JSON.parse(body));
    const badStandard = { ...signed, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
    expect(reasonOf(() => webhooks.verify(body, badStandard, secret, now))).toBe('signature_mismatch');
    const partial = { ...merchantOnly, 'Merchant-Webhook-Signature': undefined };
    expect(reasonOf(() => webhooks.verify(body, partial, secret, now))).toBe('missing_header');
    expect(reasonOf(() => webhooks.verify(body, {}, secret, now))).toBe('missing_header');
  });

  it('refuses a changed body, another secret, an unreadable timestamp and a body that is not JSON', () => {
    const now = { now: at(timestamp) };
    expect(reasonOf(() => webhooks.verify(`${body} `, signed, secret, now))).toBe('signature_mismatch');
    expect(reasonOf(() => webhooks.verify(body, signed, newSigningSecret(randomBytes), now))).toBe(
      'signature_mismatch',
    );
    const badTimestamp = { ...signed, 'Merchant-Webhook-Timestamp': '1e9' };
    expect(reasonOf(() => webhooks.verify(body, badTimestamp, secret, now))).toBe('invalid_timestamp');
    const text = 'not json';
    const headers = deliveryHeaders({ secret, deliveryId: 'whkdel_x', timestamp, body: text });
    expect(reasonOf(() => webhooks.verify(text, headers, secret, now))).toBe('invalid_body');
    expect(reasonOf(() => webhooks.verifySignature(text, headers, secret, now))).toBeUndefined();
  });

  it('accepts a timestamp up to exactly 5 minutes either side of the clock, and nothing beyond', () => {
    assertProperty(
      fc.property(fc.integer({ min: -3 * toleranceSeconds, max: 3 * toleranceSeconds }), (offset) => {
        const reason = reasonOf(() => webhooks.verify(body, signed, secret, { now: at(timestamp + offset) }));
        if (offset > toleranceSeconds) expect(reason).toBe('timestamp_too_old');
        else if (offset < -toleranceSeconds) expect(reason).toBe('timestamp_too_new');
        else expect(reason).toBeUndefined();
      }),
      {
        examples: [
          [toleranceSeconds],
          [toleranceSeconds + 1],
          [-toleranceSeconds],
          [-toleranceSeconds - 1],
          [0],
        ],
      },
    );
    expect(reasonOf(() => webhooks.verify(body, signed, secret, { now: new Date(Number.NaN) }))).toBe(
      'timestamp_too_old',
    );
  });

  it('diagnoses the secret without its prefix, as the guide says', () => {
    const diagnosis = webhooks.diagnose(body, signed, secret.slice('whsec_'.length), { now: at(timestamp) });
    expect(diagnosis).toMatchObject({ ok: false, scheme: 'merchant', cause: 'wrong_secret_form' });
    expect(webhooks.diagnose(body, new Headers(signed), secret, { now: at(timestamp) })).toEqual({
      ok: true,
      scheme: 'merchant',
    });
  });
});
