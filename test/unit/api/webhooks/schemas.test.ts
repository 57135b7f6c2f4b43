import { afterEach, describe, expect, it, vi } from 'vitest';
import { webhookDeliveryRoutes } from '../../../../functions/api/webhook-deliveries/routes';
import { webhookRoutes } from '../../../../functions/api/webhooks/routes';
import { resetFunctionEnvironment, type Stage } from '../../../../functions/config';
import { checkInput } from '../../../../functions/http/validation';
import { subscribableEventTypes } from '../../../support/spec-fields';

function inStage(stage: Stage) {
  vi.stubEnv('TABLE_NAME', 'unused');
  vi.stubEnv('STAGE', stage);
  resetFunctionEnvironment();
}

afterEach(() => {
  vi.unstubAllEnvs();
  resetFunctionEnvironment();
});

const update = (body: unknown) => checkInput(webhookRoutes.updateWebhookEndpoint, {}, body);

describe('UpdateWebhookEndpointBody simulateFailures', () => {
  it('accepts every whole number from 0 to 50 in the sandbox, alone or beside other fields', () => {
    inStage('sandbox');
    for (const simulateFailures of [0, 1, 5, 50]) {
      expect(update({ simulateFailures })).toMatchObject({ ok: true, body: { simulateFailures } });
    }
    expect(update({ simulateFailures: 3, name: 'Orders' })).toMatchObject({ ok: true });
  });

  it('refuses in the sandbox a number below 0, above 50, with a fraction, or not a number', () => {
    inStage('sandbox');
    const refusals = [
      [-1, 'must be at least 0.'],
      [51, 'must be at most 50.'],
      [1.5, 'must be an integer.'],
      ['3', 'must be an integer.'],
    ] as const;
    for (const [simulateFailures, message] of refusals) {
      expect(update({ simulateFailures })).toEqual({
        ok: false,
        details: [{ path: 'simulateFailures', message }],
      });
    }
  });

  it('refuses it in production, even 0, saying it is accepted only in the sandbox', () => {
    inStage('production');
    for (const simulateFailures of [0, 3]) {
      expect(update({ simulateFailures, name: 'Orders' })).toEqual({
        ok: false,
        details: [
          { path: 'simulateFailures', message: 'must be left out: it is accepted only in the sandbox.' },
        ],
      });
    }
    expect(update({ name: 'Orders' })).toMatchObject({ ok: true });
  });
});

const sendTest = (body: unknown) => checkInput(webhookDeliveryRoutes.sendTestWebhook, {}, body);

describe('TestDeliveryBody', () => {
  it.each(subscribableEventTypes)('accepts the subscribable event type %s', (eventType) => {
    inStage('sandbox');
    expect(sendTest({ eventType })).toMatchObject({ ok: true, body: { eventType } });
  });

  it('refuses a missing, unknown or wildcard type, another field, and no body', () => {
    inStage('sandbox');
    for (const body of [
      {},
      { eventType: 'payments.Unknown' },
      { eventType: '*' },
      { eventType: 7 },
      { eventType: 'invoices.InvoicePaid', extra: true },
      undefined,
    ]) {
      expect(sendTest(body), JSON.stringify(body)).toMatchObject({ ok: false });
    }
  });
});
