import Stripe from 'stripe';

/**
 * Stripe's objects as the SDK types them, so `tsc` checks every fixture's shape against Stripe's
 * published types. Ids and secrets are made up and look like no real one.
 */

/** A test-mode secret key of no account. */
export const testStripeSecretKey = 'sk_test_recordingserver0000000000';
/** A webhook signing secret of no endpoint. */
export const testStripeWebhookSecret = 'whsec_recordingserver0000000000';

function requirements(overrides: Partial<Stripe.Account.Requirements> = {}): Stripe.Account.Requirements {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [],
    disabled_reason: null,
    errors: [],
    eventually_due: [],
    past_due: [],
    pending_verification: [],
    ...overrides,
  };
}

/**
 * A connected account. By default one just created: onboarding not done, so Stripe disables charges
 * and payouts until the requirements it lists are given.
 */
export function stripeAccount(
  id: string,
  overrides: Partial<Omit<Stripe.Account, 'requirements'>> & {
    requirements?: Partial<Stripe.Account.Requirements>;
  } = {},
): Stripe.Account {
  const { requirements: requirementOverrides, ...fields } = overrides;
  return {
    id,
    object: 'account',
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    email: null,
    type: 'standard',
    created: 1_790_000_000,
    metadata: {},
    requirements: requirements({
      currently_due: ['business_type', 'external_account', 'tos_acceptance.date'],
      disabled_reason: 'requirements.past_due',
      ...requirementOverrides,
    }),
    ...fields,
  };
}

/** An account whose onboarding is done and which Stripe lets charge and pay out. */
export function activeStripeAccount(id: string): Stripe.Account {
  return stripeAccount(id, {
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
    requirements: { currently_due: [], disabled_reason: null },
  });
}

export function stripeAccountLink(url: string, expiresAt: number): Stripe.AccountLink {
  return { object: 'account_link', created: expiresAt - 300, expires_at: expiresAt, url };
}

/** An error body as Stripe answers it. */
export function stripeError(type: string, message: string): { error: { type: string; message: string } } {
  return { error: { type, message } };
}

/** The parts every event has, as Stripe sends them to a Connect endpoint: on behalf of `account`. */
function eventBase(id: string, created: number, account: string | undefined) {
  return {
    id,
    object: 'event' as const,
    api_version: '2026-10-28.endive',
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    ...(account === undefined ? {} : { account }),
  };
}

/** `account.updated`: the connected account as it is now. */
export function accountUpdatedEvent(
  id: string,
  account: Stripe.Account,
  created: number,
): Stripe.AccountUpdatedEvent {
  return { ...eventBase(id, created, account.id), type: 'account.updated', data: { object: account } };
}

/** `balance.available`, a type the service does not map. */
export function balanceAvailableEvent(
  id: string,
  account: string,
  created: number,
): Stripe.BalanceAvailableEvent {
  return {
    ...eventBase(id, created, account),
    type: 'balance.available',
    data: { object: { object: 'balance', available: [], livemode: false, pending: [] } },
  };
}

/** A Stripe-Signature header for `payload` as Stripe makes it, at `timestamp` (epoch seconds). */
export function stripeSignature(
  payload: string,
  options: { secret?: string; timestamp?: number } = {},
): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? testStripeWebhookSecret,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });
}
