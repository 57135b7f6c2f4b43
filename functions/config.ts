import { isValidEmail } from './domain/email';
import {
  flag,
  httpUrl,
  oneOf,
  readSettings,
  required,
  type SettingsOf,
  text,
  textWhere,
  wholeNumber,
  withDefault,
} from './settings/setting';

function isStripeSecretKey(value: string): boolean {
  return /^(?:sk|rk)_[A-Za-z0-9_]{1,255}$/.test(value);
}

function isStripeWebhookSecret(value: string): boolean {
  return /^whsec_[A-Za-z0-9+/=_]{1,255}$/.test(value);
}

export const Stage = { sandbox: 'sandbox', production: 'production' } as const;
export type Stage = (typeof Stage)[keyof typeof Stage];

/**
 * How the mailer hands over an email: `ses` sends it through SES; `capture` renders and records it
 * and sends nothing, as a deployed sandbox always does (docs/decisions/email-infrastructure.md).
 */
export const EmailDelivery = { ses: 'ses', capture: 'capture' } as const;
export type EmailDelivery = (typeof EmailDelivery)[keyof typeof EmailDelivery];

/**
 * Every variable the service's functions read, each with its one rule. The local runtime, the
 * admin CLI and the tests read these same variables through these same rules.
 */
export const ServiceVariables = {
  TABLE_NAME: text('a DynamoDB table name', { maxLength: 255 }),
  STAGE: oneOf(Object.values(Stage)),
  /** Set only by the local runtime and the tests, to reach DynamoDB Local. */
  DYNAMODB_ENDPOINT: httpUrl(),
  /**
   * With DYNAMODB_ENDPOINT only: the access key that selects DynamoDB Local's database, which the
   * runtime keeps secret so no one else on the network reaches its table. Never set in AWS.
   */
  DYNAMODB_LOCAL_ACCESS_KEY_ID: textWhere(
    'letters and digits only, at most 128',
    (value) => /^[A-Za-z0-9]{1,128}$/.test(value),
    { secret: true },
  ),
  /** How long API Gateway reuses an authorizer answer (at most an hour, as API Gateway allows). */
  AUTH_CACHE_SECONDS: withDefault(wholeNumber(0, 3600), 60),
  /** The KMS key that seals webhook signing secrets (set by the stack). */
  SECRETS_KEY_ID: text('a KMS key id, alias or ARN'),
  /**
   * Local runtime only (docs/architecture.md#the-local-runtime): webhook URLs may name loopback, for a
   * receiver on this machine. Off unless set, and a deployed stage never sets it; `npm start` sets it
   * on unless told otherwise (docs/decisions/local-webhooks-without-a-restart.md).
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: withDefault(flag(), false),
  /** The delivery queue the router and the reconciler write to. */
  DELIVERY_QUEUE_URL: httpUrl(),
  /**
   * 60 s between attempts, 10 s response timeout
   * (docs/receiving-webhooks.md#answering-retries-and-deduplication).
   */
  WEBHOOK_RETRY_DELAY_SECONDS: withDefault(wholeNumber(0, 900), 60),
  WEBHOOK_TIMEOUT_MS: withDefault(wholeNumber(1, 60_000), 10_000),
  /** The mail queue the router and the reconciler write to, and the mailer re-sends its retries to. */
  MAIL_QUEUE_URL: httpUrl(),
  /** Whether the mailer sends through SES or only captures (set by the stack from the stage file). */
  EMAIL_DELIVERY: oneOf(Object.values(EmailDelivery)),
  /** The address every customer email is sent from, of the stage's verified SES identity. */
  EMAIL_FROM_ADDRESS: textWhere('an e-mail address, like invoices@payments.example.com', isValidEmail),
  /** The SES configuration set every email is sent through (its events and reputation metrics). */
  SES_CONFIGURATION_SET: text('an SES configuration set name', { maxLength: 64 }),
  /** At most this many emails of one merchant an hour; the rest wait (docs/decisions/email-infrastructure.md). */
  EMAILS_PER_MERCHANT_PER_HOUR: withDefault(wholeNumber(1, 100_000), 100),
  /** The API's public base URL, without a trailing slash: pay links are `${PUBLIC_BASE_URL}/pay#<slug>`. */
  PUBLIC_BASE_URL: httpUrl(),
  /**
   * The names of the Secrets Manager secrets holding the platform's Stripe secret key and its Connect
   * webhook signing secret (set by the stack from the stage file); functions read the values at cold
   * start (docs/processor.md). Names only: a secret's value is never an environment variable in AWS.
   */
  STRIPE_SECRET_KEY_SECRET_NAME: text('a Secrets Manager secret name', { maxLength: 512 }),
  STRIPE_WEBHOOK_SECRET_SECRET_NAME: text('a Secrets Manager secret name', { maxLength: 512 }),
  /** Local runtime and tests only: the platform's Stripe secret key itself. Never set in AWS. */
  STRIPE_SECRET_KEY: textWhere('a Stripe secret key, sk_… or rk_…', isStripeSecretKey, { secret: true }),
  /** Local runtime and tests only: the Connect webhook signing secret itself. Never set in AWS. */
  STRIPE_WEBHOOK_SECRET: textWhere('a Stripe webhook signing secret, whsec_…', isStripeWebhookSecret, {
    secret: true,
  }),
  /**
   * Local runtime and tests only: the API server the Stripe SDK calls instead of api.stripe.com, as
   * its host, port and protocol options (for tests, a local recording server).
   */
  STRIPE_API_BASE_URL: httpUrl(),
  /** How long the Stripe SDK waits for each answer before it retries once (docs/processor.md). */
  STRIPE_TIMEOUT_MS: withDefault(wholeNumber(100, 10_000), 4000),
  /** The local runtime's stand-in for KMS. Never set in AWS. */
  LOCAL_SECRETS_KEY: textWhere('32 bytes in base64', (value) => Buffer.from(value, 'base64').length === 32, {
    secret: true,
  }),
} as const;

/** The environment every Lambda function of the stack (and the local runtime) is given. */
export const FunctionSettings = {
  ...ServiceVariables,
  TABLE_NAME: required(ServiceVariables.TABLE_NAME),
  STAGE: required(ServiceVariables.STAGE),
} as const;

export type FunctionEnvironment = SettingsOf<typeof FunctionSettings>;

let cached: FunctionEnvironment | undefined;

/** Read once per container; a missing or refused variable fails the cold start with one line naming it. */
export function functionEnvironment(): FunctionEnvironment {
  cached ??= readSettings(process.env, FunctionSettings);
  return cached;
}

/** For tests and the local runtime, which change the environment inside one process. */
export function resetFunctionEnvironment(): void {
  cached = undefined;
}
