import { describe, expect, it } from 'vitest';
import { EventType } from '../../../functions/domain/invoice';
import {
  maxSimulatedFailures,
  simulatedFailureMessage,
  simulatedFailureOutcome,
} from '../../../functions/domain/simulated-failures';
import {
  deleteWebhookEndpoint,
  newWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../../functions/domain/webhook-endpoint';

const endpoint = newWebhookEndpoint({
  webhookEndpointId: 'whk_1',
  merchantId: 'mer_1',
  url: 'https://hooks.example.com/x',
  eventTypes: [EventType.invoicePaid],
  now: '2026-03-01T10:00:00.000Z',
});
const later = '2026-03-01T11:00:00.000Z';

describe('simulatedFailureMessage', () => {
  it('says the failure is simulated, that no request was sent, and how many more will fail', () => {
    expect(simulatedFailureMessage(2)).toBe(
      'Simulated failure (sandbox simulateFailures): no request was sent; 2 more attempts will fail.',
    );
    expect(simulatedFailureMessage(1)).toBe(
      'Simulated failure (sandbox simulateFailures): no request was sent; 1 more attempt will fail.',
    );
    expect(simulatedFailureMessage(0)).toBe(
      'Simulated failure (sandbox simulateFailures): no request was sent; none remain.',
    );
  });

  it('makes a failed outcome with no response status', () => {
    expect(simulatedFailureOutcome(4, 3)).toEqual({
      statusCode: null,
      durationMs: 3,
      errorMessage: simulatedFailureMessage(4),
      succeeded: false,
    });
    expect(maxSimulatedFailures).toBe(50);
  });
});

describe('updateWebhookEndpoint simulateFailures', () => {
  it('sets the count, keeps it through other changes, replaces it, and 0 clears it', () => {
    const set = updateWebhookEndpoint(endpoint, { simulateFailures: 5 }, later);
    expect(set.simulateFailures).toBe(5);
    expect(updateWebhookEndpoint(set, { name: 'Orders' }, later).simulateFailures).toBe(5);
    expect(updateWebhookEndpoint(set, { simulateFailures: 2 }, later).simulateFailures).toBe(2);
    const cleared = updateWebhookEndpoint(set, { simulateFailures: 0 }, later);
    expect('simulateFailures' in cleared).toBe(false);
  });

  it('ends a pending simulation when the endpoint is deleted', () => {
    const set = updateWebhookEndpoint(endpoint, { simulateFailures: 5 }, later);
    expect('simulateFailures' in deleteWebhookEndpoint(set, later)).toBe(false);
  });
});
