import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberDeliveries } from '../../../functions/domain/delivery-sequence';
import type { WebhookDelivery } from '../../../functions/domain/webhook-delivery';
import { assertProperty } from '../../support/property';
import { invoicePaidDelivery } from '../../support/stored-deliveries';

const now = '2026-11-22T12:00:00.000Z';

function deliveryTo(webhookEndpointId: string, index: number): WebhookDelivery {
  return invoicePaidDelivery(
    { webhookDeliveryId: `whkdel_${index}`, webhookEndpointId, eventId: `evt_${index}` },
    now,
  );
}

describe('numberDeliveries', () => {
  it('gives an endpoint’s deliveries the next numbers in order and advances its sequence once by their count', () => {
    const deliveries = ['whk_a', 'whk_b', 'whk_a', 'whk_a', 'whk_b'].map(deliveryTo);
    const { numbered, advances } = numberDeliveries(deliveries, new Map([['whk_a', 7]]));
    expect(numbered.map((each) => [each.webhookEndpointId, each.sequence])).toEqual([
      ['whk_a', 8],
      ['whk_b', 1],
      ['whk_a', 9],
      ['whk_a', 10],
      ['whk_b', 2],
    ]);
    expect(advances).toEqual([
      { merchantId: 'mer_1', webhookEndpointId: 'whk_a', from: 7, to: 10 },
      { merchantId: 'mer_1', webhookEndpointId: 'whk_b', from: 0, to: 2 },
    ]);
  });

  it('continues every endpoint’s sequence without a gap or a repeat, whatever the mix', () => {
    const endpoints = ['whk_a', 'whk_b', 'whk_c'];
    assertProperty(
      fc.property(
        fc.array(fc.constantFrom(...endpoints), { maxLength: 120 }),
        fc.array(fc.nat({ max: 1000 }), { minLength: 3, maxLength: 3 }),
        (targets, lasts) => {
          const last = new Map(endpoints.map((endpoint, index) => [endpoint, lasts[index] ?? 0]));
          const { numbered, advances } = numberDeliveries(targets.map(deliveryTo), last);
          for (const endpoint of endpoints) {
            const numbers = numbered
              .filter((each) => each.webhookEndpointId === endpoint)
              .map((each) => each.sequence);
            const from = last.get(endpoint) ?? 0;
            expect(numbers).toEqual(numbers.map((_, index) => from + index + 1));
            const advance = advances.find((each) => each.webhookEndpointId === endpoint);
            expect(advance).toEqual(
              numbers.length === 0
                ? undefined
                : { merchantId: 'mer_1', webhookEndpointId: endpoint, from, to: from + numbers.length },
            );
          }
        },
      ),
    );
  });
});
