import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { verifyWebhook } from '../../docs/receiving-webhooks/verify-webhook';
import type { ReceivedRequest } from './https-receiver';

/**
 * Verifies a received delivery twice: with the receiver guide's own verifier (the service's own headers)
 * and with the npm standardwebhooks package (the Standard Webhooks headers), and checks the id.
 */
export function expectVerifiedDelivery(request: ReceivedRequest, signingSecret: string) {
  const rawBody = request.rawBody.toString('utf8');
  expect(verifyWebhook({ secret: signingSecret, headers: request.headers, rawBody })).toEqual({ ok: true });
  expect(() => new Webhook(signingSecret).verify(rawBody, request.headers)).not.toThrow();
  const body = JSON.parse(rawBody) as {
    id: string;
    type: string;
    createdAt: string;
    data: Record<string, unknown>;
  };
  expect(Object.keys(body)).toEqual(['id', 'type', 'createdAt', 'data']);
  expect(request.headers['merchant-webhook-id']).toBe(body.id);
  expect(request.headers['webhook-id']).toBe(body.id);
  return body;
}

/** True when the delivery does NOT verify with this secret (e.g. one rotated away). */
export function failsWithSecret(request: ReceivedRequest, signingSecret: string): boolean {
  const rawBody = request.rawBody.toString('utf8');
  return !verifyWebhook({ secret: signingSecret, headers: request.headers, rawBody }).ok;
}
