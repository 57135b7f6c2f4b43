import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import {
  type DeliveryStatus,
  newDelivery,
  type WebhookDelivery,
} from '../../../functions/domain/webhook-delivery';
import { newSigningSecret } from '../../../functions/domain/webhook-secret';
import { signedDelivery } from '../../../functions/domain/webhook-signature';
import { deliveryFigures } from '../../../tools/soak/delivery-figures';
import { Answer, type AnsweredRequest } from '../../../tools/soak/flaky-responder';

const secret = newSigningSecret(randomBytes);
const now = Date.parse('2026-03-01T12:00:00Z');

function delivery(status: DeliveryStatus, attemptCount: number): WebhookDelivery {
  return {
    ...newDelivery({
      webhookDeliveryId: newId('whkdel'),
      webhookEndpointId: newId('whk'),
      merchantId: newId('mer'),
      eventId: newId('evt'),
      eventType: EventType.payoutCreated,
      data: { amount: 10_000 },
      paused: false,
      now: new Date(now).toISOString(),
    }),
    status,
    attemptCount,
  };
}

/** One POST of `of` as the dispatcher sends it, signed with `signingSecret`, answered `answer`. */
function post(of: WebhookDelivery, answer: Answer, signingSecret = secret): AnsweredRequest {
  const { body, headers } = signedDelivery(of, signingSecret, Math.floor(now / 1000));
  return {
    request: {
      method: 'POST',
      path: '/hooks',
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
      ),
      rawBody: Buffer.from(body),
      receivedAt: now,
    },
    answer,
  };
}

function figures(deliveries: WebhookDelivery[], answered: AnsweredRequest[]) {
  return deliveryFigures({ deliveries, answered, signingSecret: secret });
}

describe('deliveryFigures', () => {
  const retried = delivery('succeeded', 3);
  const exhausted = delivery('exhausted', 5);
  const clean = [
    post(retried, Answer.refused),
    post(retried, Answer.dropped),
    post(retried, Answer.accepted),
    ...Array.from({ length: 5 }, () => post(exhausted, Answer.refused)),
  ];

  it('finds nothing wrong when every POST was an attempt and each succeeded one was accepted', () => {
    expect(figures([retried, exhausted], clean)).toEqual({
      byStatus: { pending: 0, succeeded: 1, exhausted: 1 },
      mostAttempts: 5,
      overAttemptLimit: 0,
      received: 8,
      badSignatures: 0,
      duplicates: 0,
      outcomeMismatches: 0,
    });
  });

  it('counts a delivery with more than 5 attempts', () => {
    const tooMany = delivery('exhausted', 6);
    const found = figures(
      [tooMany],
      Array.from({ length: 6 }, () => post(tooMany, Answer.refused)),
    );
    expect(found.overAttemptLimit).toBe(1);
    expect(found.mostAttempts).toBe(6);
  });

  it('counts a POST whose signature does not verify with the endpoint secret', () => {
    const other = newSigningSecret(randomBytes);
    const found = figures(
      [retried, exhausted],
      [...clean.slice(0, 2), post(retried, Answer.accepted, other)],
    );
    expect(found.badSignatures).toBe(1);
  });

  it('counts a POST beyond the attempts recorded, and one naming no delivery', () => {
    const unknown = delivery('succeeded', 1);
    const found = figures(
      [retried, exhausted],
      [...clean, post(retried, Answer.refused), post(unknown, Answer.accepted)],
    );
    expect(found.duplicates).toBe(2);
  });

  it('counts a succeeded delivery the receiver never accepted, and an exhausted one it accepted', () => {
    const found = figures(
      [retried, exhausted],
      [
        post(retried, Answer.refused),
        post(retried, Answer.refused),
        post(retried, Answer.refused),
        ...Array.from({ length: 4 }, () => post(exhausted, Answer.refused)),
        post(exhausted, Answer.accepted),
      ],
    );
    expect(found.outcomeMismatches).toBe(2);
    expect(found.duplicates).toBe(0);
  });

  it('counts deliveries still pending', () => {
    expect(figures([delivery('pending', 2)], []).byStatus.pending).toBe(1);
  });
});
