import type Stripe from 'stripe';
import { functionEnvironment } from '../../config';
import { secretsManagerReader } from './secrets-manager-reader';
import { buildStripeClient } from './stripe-client';
import { resetStripeSecrets, type SecretValueReader, stripeSecrets } from './stripe-secrets';

/** The platform's side of Stripe Connect: its client and the signing secret of its Connect webhook. */
export interface StripePlatform {
  readonly stripe: Stripe;
  readonly webhookSigningSecret: string;
}

let platform: Promise<StripePlatform> | undefined;

/**
 * The platform's Stripe client, built once per process from the secrets (docs/processor.md). Rejects
 * with `ProcessorUnavailableError` (503) where no Stripe secrets are configured.
 */
export function stripePlatform(
  readSecret: SecretValueReader = secretsManagerReader(),
): Promise<StripePlatform> {
  const environment = functionEnvironment();
  platform ??= stripeSecrets(environment, readSecret).then(
    ({ secretKey, webhookSigningSecret }) => ({
      stripe: buildStripeClient(secretKey, environment),
      webhookSigningSecret,
    }),
    (error: unknown) => {
      platform = undefined;
      throw error;
    },
  );
  return platform;
}

/** For tests and the local runtime, which change the environment inside one process. */
export function resetStripePlatform(): void {
  platform = undefined;
  resetStripeSecrets();
}
