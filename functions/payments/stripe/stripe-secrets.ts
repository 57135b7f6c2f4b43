import type { FunctionEnvironment } from '../../config';
import { ProcessorUnavailableError } from '../payment-processor';

/** The platform's two Stripe secrets. Never logged, never put in an error message. */
export interface StripeSecrets {
  /** The platform's secret key (`sk_…`, or a restricted `rk_…`). */
  readonly secretKey: string;
  /** The Connect webhook endpoint's signing secret (`whsec_…`). */
  readonly webhookSigningSecret: string;
}

/** Reads one secret's value by its name (in AWS: Secrets Manager's GetSecretValue). */
export type SecretValueReader = (secretName: string) => Promise<string>;

type StripeSettings = Pick<
  FunctionEnvironment,
  | 'STRIPE_SECRET_KEY'
  | 'STRIPE_WEBHOOK_SECRET'
  | 'STRIPE_SECRET_KEY_SECRET_NAME'
  | 'STRIPE_WEBHOOK_SECRET_SECRET_NAME'
>;

let cached: Promise<StripeSecrets> | undefined;

/**
 * The Stripe secrets, read once per process (a cold start) and kept: from the local runtime's own
 * settings when it has them, else by the names the stack sets, through `readSecret`. A failed read is
 * not kept, so the next request tries again. Without either there is no processor here: 503.
 */
export function stripeSecrets(
  settings: StripeSettings,
  readSecret?: SecretValueReader,
): Promise<StripeSecrets> {
  cached ??= loadStripeSecrets(settings, readSecret).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/** For tests and the local runtime, which change the environment inside one process. */
export function resetStripeSecrets(): void {
  cached = undefined;
}

async function loadStripeSecrets(
  settings: StripeSettings,
  readSecret: SecretValueReader | undefined,
): Promise<StripeSecrets> {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSigningSecret } = settings;
  if (secretKey !== undefined && webhookSigningSecret !== undefined)
    return { secretKey, webhookSigningSecret };
  const keyName = settings.STRIPE_SECRET_KEY_SECRET_NAME;
  const webhookName = settings.STRIPE_WEBHOOK_SECRET_SECRET_NAME;
  if (keyName === undefined || webhookName === undefined || readSecret === undefined) {
    throw new ProcessorUnavailableError('The Stripe secrets are not configured here.');
  }
  const [readKey, readWebhookSecret] = await Promise.all([readSecret(keyName), readSecret(webhookName)]);
  return { secretKey: readKey.trim(), webhookSigningSecret: readWebhookSecret.trim() };
}
