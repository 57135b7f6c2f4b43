import { ServiceVariables } from '../../functions/config';
import { defaultLeaseMarginMs } from '../../functions/delivery/default-lease-margin';
import {
  readSettings,
  type SettingsOf,
  text,
  wholeNumber,
  withDefault,
} from '../../functions/settings/setting';
import { publicRateLimit } from '../../lib/constructs/public-rate-limit';

/** Where a local server listens: the same rule for the runtime's and the webhook receiver's. */
export function listenPort(defaultPort: number) {
  return withDefault(wholeNumber(0, 65535), defaultPort);
}

export function listenHost() {
  return withDefault(text('a host name or IP address to listen on', { maxLength: 255 }), '127.0.0.1');
}

/**
 * The local runtime's variables (docs/architecture.md#the-local-runtime). Those the functions read
 * too keep the functions' rule; the runtime hands the values on to the handlers it runs.
 */
export const LocalVariables = {
  PORT: listenPort(3000),
  HOST: listenHost(),
  STAGE: withDefault(ServiceVariables.STAGE, 'sandbox'),
  WEBHOOK_RETRY_DELAY_SECONDS: ServiceVariables.WEBHOOK_RETRY_DELAY_SECONDS,
  WEBHOOK_TIMEOUT_MS: ServiceVariables.WEBHOOK_TIMEOUT_MS,
  /** How much a delivery's lease outlasts the response timeout; tests shorten it, AWS keeps the default. */
  WEBHOOK_LEASE_MARGIN_MS: withDefault(wholeNumber(1000, 60_000), defaultLeaseMarginMs),
  AUTH_CACHE_SECONDS: ServiceVariables.AUTH_CACHE_SECONDS,
  /**
   * On by default here, and only here: the functions' rule, whose default stays off, so a deployed
   * stage, which never sets it, refuses loopback (docs/decisions/local-webhooks-without-a-restart.md).
   * Loopback only, as when set; `0` turns it off.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: withDefault(ServiceVariables.WEBHOOK_ALLOW_PRIVATE_TARGETS, true),
  /** Requests per minute per client address to the public pay routes (the stack's web ACL allows as many). */
  PUBLIC_RATE_LIMIT_PER_MINUTE: withDefault(wholeNumber(1, 100_000), publicRateLimit.requests),
  /** The local mail inbox (`aws-ses-v2-local`): every email the runtime sends lands there. */
  MAIL_INBOX_PORT: wholeNumber(0, 65535),
  /** Emails a merchant may send an hour before the rest are recorded `rate_limited`. */
  EMAILS_PER_MERCHANT_PER_HOUR: withDefault(wholeNumber(1, 100_000), 100),
  /** Production only: the platform's Stripe secret key and Connect webhook secret (docs/processor.md). */
  STRIPE_SECRET_KEY: ServiceVariables.STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: ServiceVariables.STRIPE_WEBHOOK_SECRET,
  /** Another API server for the Stripe SDK than api.stripe.com: a local recording server, in tests. */
  STRIPE_API_BASE_URL: ServiceVariables.STRIPE_API_BASE_URL,
  STRIPE_TIMEOUT_MS: ServiceVariables.STRIPE_TIMEOUT_MS,
  /** Where runtime.json and the persisted table live; the admin CLI's --local reads the same. */
  LOCAL_STATE_DIR: text('a folder path'),
} as const;

export type LocalSettings = SettingsOf<typeof LocalVariables>;

/** Reads the environment; a refused value throws a SettingError naming the variable in one line. */
export function readLocalSettings(env: Readonly<Record<string, string | undefined>>): LocalSettings {
  return readSettings(env, LocalVariables);
}
