import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessorUnavailableError } from '../../../functions/payments/payment-processor';
import { resetStripeSecrets, stripeSecrets } from '../../../functions/payments/stripe/stripe-secrets';
import { testStripeSecretKey, testStripeWebhookSecret } from '../../support/stripe-fixtures';

const names = {
  STRIPE_SECRET_KEY_SECRET_NAME: 'payments/stripe-secret-key',
  STRIPE_WEBHOOK_SECRET_SECRET_NAME: 'payments/stripe-webhook-secret',
  STRIPE_SECRET_KEY: undefined,
  STRIPE_WEBHOOK_SECRET: undefined,
};
const values: Record<string, string> = {
  'payments/stripe-secret-key': `${testStripeSecretKey}\n`,
  'payments/stripe-webhook-secret': testStripeWebhookSecret,
};

/** A reader of the two secrets that counts its reads; `failures` reads fail first. */
function countingReader(failures = 0) {
  const reads: string[] = [];
  let failuresLeft = failures;
  const read = async (name: string) => {
    reads.push(name);
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      throw new Error('ThrottlingException');
    }
    const value = values[name];
    if (value === undefined) throw new Error(`no secret ${name}`);
    return value;
  };
  return { reads, read };
}

// A file before this one in the worker (a runtime as production) may have filled the cache.
beforeEach(() => resetStripeSecrets());
afterEach(() => resetStripeSecrets());

describe('stripeSecrets', () => {
  it('reads both secrets by name once per process and keeps them', async () => {
    const reader = countingReader();
    const first = await stripeSecrets(names, reader.read);
    const again = await stripeSecrets(names, reader.read);
    expect(first).toEqual({ secretKey: testStripeSecretKey, webhookSigningSecret: testStripeWebhookSecret });
    expect(again).toBe(first);
    expect(reader.reads.sort()).toEqual(['payments/stripe-secret-key', 'payments/stripe-webhook-secret']);
  });

  it('reads again after a failed read rather than keeping the failure', async () => {
    const reader = countingReader(1);
    await expect(stripeSecrets(names, reader.read)).rejects.toThrow('ThrottlingException');
    await expect(stripeSecrets(names, reader.read)).resolves.toMatchObject({
      secretKey: testStripeSecretKey,
    });
    expect(reader.reads).toHaveLength(4);
  });

  it('takes the local runtime’s own values without reading any secret', async () => {
    const reader = countingReader();
    const local = { ...names, STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: 'whsec_local' };
    await expect(stripeSecrets(local, reader.read)).resolves.toEqual({
      secretKey: 'sk_test_local',
      webhookSigningSecret: 'whsec_local',
    });
    expect(reader.reads).toEqual([]);
  });

  it('answers 503 without names or values, naming no secret', async () => {
    const failure = await stripeSecrets(
      { ...names, STRIPE_SECRET_KEY_SECRET_NAME: undefined, STRIPE_WEBHOOK_SECRET_SECRET_NAME: undefined },
      countingReader().read,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProcessorUnavailableError);
    expect((failure as ProcessorUnavailableError).answer()).toEqual({
      code: 'service_unavailable',
      message: 'No payment processor is available on this stage.',
    });
  });

  it('answers 503 with names but no way to read them', async () => {
    await expect(stripeSecrets(names)).rejects.toBeInstanceOf(ProcessorUnavailableError);
  });
});
