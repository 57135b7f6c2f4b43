import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessorUnavailableError } from '../../../functions/payments/payment-processor';
import { secretsManagerReader } from '../../../functions/payments/stripe/secrets-manager-reader';
import { resetStripeSecrets, stripeSecrets } from '../../../functions/payments/stripe/stripe-secrets';
import { mockAwsClient } from '../../support/aws-client-mocks';

const secrets = mockAwsClient(SecretsManagerClient);
// A file before this one in the worker (a runtime as production) may have filled the cache.
beforeEach(() => resetStripeSecrets());
afterEach(() => {
  resetStripeSecrets();
});

const names = {
  STRIPE_SECRET_KEY_SECRET_NAME: 'merchant-payments/production/stripe-secret-key',
  STRIPE_WEBHOOK_SECRET_SECRET_NAME: 'merchant-payments/production/stripe-connect-webhook-secret',
};
/** A deployed function's settings: the names only, no value. */
const settings = { ...names, STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined };

describe('the Secrets Manager reader of the Stripe secrets', () => {
  it('reads each secret once by the name the stack gives, and keeps them for the process', async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: names.STRIPE_SECRET_KEY_SECRET_NAME })
      .resolves({ SecretString: 'platform-key-fixture\n' })
      .on(GetSecretValueCommand, { SecretId: names.STRIPE_WEBHOOK_SECRET_SECRET_NAME })
      .resolves({ SecretString: 'webhook-secret-fixture' });
    const read = secretsManagerReader(new SecretsManagerClient({ region: 'us-east-1' }));
    const first = await stripeSecrets(settings, read);
    const second = await stripeSecrets(settings, read);
    expect(first).toEqual({
      secretKey: 'platform-key-fixture',
      webhookSigningSecret: 'webhook-secret-fixture',
    });
    expect(second).toBe(first);
    expect(
      secrets
        .commandCalls(GetSecretValueCommand)
        .map((call) => call.args[0].input.SecretId)
        .sort(),
    ).toEqual(Object.values(names).sort());
  });

  it('answers 503 for a secret without text, naming the secret and nothing of any value', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([1, 2]) });
    const read = secretsManagerReader(new SecretsManagerClient({ region: 'us-east-1' }));
    const failed = await read(names.STRIPE_SECRET_KEY_SECRET_NAME).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProcessorUnavailableError);
    expect((failed as Error).message).toBe(
      `The secret ${names.STRIPE_SECRET_KEY_SECRET_NAME} holds no text.`,
    );
  });

  it('tries again after a failed read: a throttled cold start does not keep the failure', async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(new Error('ThrottlingException'))
      .resolves({ SecretString: 'value' });
    const read = secretsManagerReader(new SecretsManagerClient({ region: 'us-east-1' }));
    await expect(stripeSecrets(settings, read)).rejects.toThrow('ThrottlingException');
    expect(await stripeSecrets(settings, read)).toEqual({
      secretKey: 'value',
      webhookSigningSecret: 'value',
    });
  });
});
