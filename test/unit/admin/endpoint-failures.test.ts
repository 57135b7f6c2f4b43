import { describe, expect, it } from 'vitest';
import { EventType } from '../../../functions/domain/invoice';
import {
  type DeliveryAttempt,
  newDelivery,
  type WebhookDelivery,
} from '../../../functions/domain/webhook-delivery';
import { failedAttemptsOf } from '../../../tools/admin/endpoint-failures';

function delivery(id: string, attempts: DeliveryAttempt[]): WebhookDelivery {
  return {
    ...newDelivery({
      webhookDeliveryId: id,
      webhookEndpointId: 'whk_1',
      merchantId: 'mer_1',
      eventId: `evt_${id}`,
      eventType: EventType.invoicePaid,
      data: {},
      paused: false,
      now: '2030-01-01T00:00:00.000Z',
    }),
    attemptCount: attempts.length,
    attempts,
  };
}

function attempt(attemptNumber: number, attemptedAt: string, status: number | null): DeliveryAttempt {
  const ok = status !== null && status >= 200 && status < 300;
  return {
    attemptNumber,
    attemptedAt,
    responseStatusCode: status,
    durationMs: 12,
    errorMessage: ok ? null : status === null ? 'connect ECONNREFUSED' : `HTTP ${status}`,
  };
}

describe('failedAttemptsOf', () => {
  it('lists only attempts that failed, across deliveries, newest first, at most limit', () => {
    const deliveries = [
      delivery('whkdel_a', [
        attempt(1, '2030-01-01T00:00:01.000Z', 500),
        attempt(2, '2030-01-01T00:01:01.000Z', 200),
      ]),
      delivery('whkdel_b', [
        attempt(1, '2030-01-01T00:00:30.000Z', null),
        attempt(2, '2030-01-01T00:02:00.000Z', 503),
      ]),
      delivery('whkdel_c', []),
    ];

    const failed = failedAttemptsOf(deliveries, 20);

    expect(
      failed.map((item) => [item.webhookDeliveryId, item.attemptNumber, item.responseStatusCode]),
    ).toEqual([
      ['whkdel_b', 2, 503],
      ['whkdel_b', 1, null],
      ['whkdel_a', 1, 500],
    ]);
    expect(failed[1]).toEqual({
      webhookDeliveryId: 'whkdel_b',
      eventType: EventType.invoicePaid,
      deliveryStatus: 'pending',
      attemptNumber: 1,
      attemptedAt: '2030-01-01T00:00:30.000Z',
      responseStatusCode: null,
      durationMs: 12,
      errorMessage: 'connect ECONNREFUSED',
    });
    expect(failedAttemptsOf(deliveries, 2).map((item) => item.attemptedAt)).toEqual([
      '2030-01-01T00:02:00.000Z',
      '2030-01-01T00:00:30.000Z',
    ]);
  });
});
