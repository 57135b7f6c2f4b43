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

/** What the Checkout Session of an invoice gives its PaymentIntent (functions/payments/stripe/stripe-checkout.ts). */
export interface InvoiceMetadata {
  readonly merchantId: string;
  readonly invoiceId: string;
  readonly invoiceRevision?: number;
  readonly paymentMethodType?: 'card' | 'bank_account';
}

/**
 * A PaymentIntent of a direct charge on a connected account, as its events carry it: by default one
 * that succeeded for `amount` in USD by card.
 */
export function paymentIntent(
  id: string,
  invoice: InvoiceMetadata,
  overrides: Partial<Stripe.PaymentIntent> = {},
): Stripe.PaymentIntent {
  const amount = overrides.amount ?? 1000;
  const methodType = invoice.paymentMethodType ?? 'card';
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount,
    amount_capturable: 0,
    amount_received: amount,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${id}_secret_recordingserver`,
    confirmation_method: 'automatic',
    created: 1_790_000_000,
    currency: 'usd',
    customer: null,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: `ch_${id.slice(3)}`,
    livemode: false,
    managed_payments: null,
    metadata: {
      merchantId: invoice.merchantId,
      invoiceId: invoice.invoiceId,
      invoiceRevision: String(invoice.invoiceRevision ?? 2),
      paymentMethodType: methodType,
    },
    next_action: null,
    on_behalf_of: null,
    payment_method: `pm_${id.slice(3)}`,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: [methodType === 'card' ? 'card' : 'us_bank_account'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_group: null,
    ...overrides,
  };
}

/** A PaymentIntent whose latest attempt the issuer declined, as `payment_intent.payment_failed` carries it. */
export function declinedPaymentIntent(
  id: string,
  invoice: InvoiceMetadata,
  decline: { code: string; message: string },
): Stripe.PaymentIntent {
  return paymentIntent(id, invoice, {
    amount_received: 0,
    status: 'requires_payment_method',
    payment_method: null,
    latest_charge: null,
    last_payment_error: {
      type: 'card_error',
      code: 'card_declined',
      decline_code: decline.code,
      message: decline.message,
    },
  });
}

export function paymentIntentSucceededEvent(
  id: string,
  account: string,
  intent: Stripe.PaymentIntent,
  created: number,
): Stripe.PaymentIntentSucceededEvent {
  return { ...eventBase(id, created, account), type: 'payment_intent.succeeded', data: { object: intent } };
}

export function paymentIntentFailedEvent(
  id: string,
  account: string,
  intent: Stripe.PaymentIntent,
  created: number,
): Stripe.PaymentIntentPaymentFailedEvent {
  return {
    ...eventBase(id, created, account),
    type: 'payment_intent.payment_failed',
    data: { object: intent },
  };
}

/** The fields of a Checkout Session the service reads from Stripe's answer. */
export function checkoutSession(
  id: string,
  url: string,
  expiresAt: number,
): Pick<Stripe.Checkout.Session, 'id' | 'object' | 'url' | 'expires_at' | 'status' | 'mode'> {
  return { id, object: 'checkout.session', url, expires_at: expiresAt, status: 'open', mode: 'payment' };
}

/** A dispute Stripe opened on the PaymentIntent's charge: for a bank debit, the debit returned. */
export function stripeDispute(id: string, paymentIntentId: string, amount: number): Stripe.Dispute {
  return {
    id,
    object: 'dispute',
    amount,
    balance_transactions: [],
    charge: `ch_${paymentIntentId.slice(3)}`,
    created: 1_790_000_000,
    currency: 'usd',
    enhanced_eligibility_types: [],
    // Fields the service never reads, each an object of Stripe's own.
    evidence: {} as Stripe.Dispute.Evidence,
    evidence_details: {} as Stripe.Dispute.EvidenceDetails,
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    network_reason_code: 'R10',
    payment_intent: paymentIntentId,
    reason: 'debit_not_authorized',
    status: 'lost',
  };
}

export function disputeCreatedEvent(
  id: string,
  account: string,
  dispute: Stripe.Dispute,
  created: number,
): Stripe.ChargeDisputeCreatedEvent {
  return { ...eventBase(id, created, account), type: 'charge.dispute.created', data: { object: dispute } };
}

/** An automatic payout of `amount` (the net) in USD to the account's bank account. */
export function stripePayout(id: string, amount: number): Stripe.Payout {
  return {
    id,
    object: 'payout',
    amount,
    application_fee: null,
    application_fee_amount: null,
    arrival_date: 1_790_100_000,
    automatic: true,
    balance_transaction: `txn_${id.slice(3)}`,
    created: 1_790_000_000,
    currency: 'usd',
    description: 'STRIPE PAYOUT',
    destination: 'ba_1RecordingServer',
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: {},
    method: 'standard',
    original_payout: null,
    payout_method: null,
    reconciliation_status: 'in_progress',
    reversed_by: null,
    source_type: 'card',
    statement_descriptor: null,
    status: 'pending',
    trace_id: null,
    type: 'bank_account',
  };
}

export function payoutCreatedEvent(
  id: string,
  account: string,
  payout: Stripe.Payout,
  created: number,
): Stripe.PayoutCreatedEvent {
  return { ...eventBase(id, created, account), type: 'payout.created', data: { object: payout } };
}

/** A balance transaction a payout pays out: `amount` gross, `fee` Stripe's fee. */
export function balanceTransaction(
  id: string,
  type: Stripe.BalanceTransaction.Type,
  amount: number,
  fee: number,
): Stripe.BalanceTransaction {
  return {
    id,
    object: 'balance_transaction',
    amount,
    available_on: 1_790_000_000,
    balance_type: 'payments',
    created: 1_790_000_000,
    currency: 'usd',
    description: null,
    exchange_rate: null,
    fee,
    fee_details: [],
    net: amount - fee,
    reporting_category: type === 'payout' ? 'payout' : 'charge',
    source: null,
    status: 'available',
    type,
  };
}

/** A page of a Stripe list, as its list endpoints answer. */
export function stripeList<T>(url: string, data: readonly T[], hasMore = false) {
  return { object: 'list' as const, url, has_more: hasMore, data };
}

/** A refund of a PaymentIntent, `status` as Stripe reports it; `metadata` the service's when it asked. */
export function stripeRefund(
  id: string,
  paymentIntentId: string,
  amount: number,
  status: 'pending' | 'succeeded' | 'failed' | 'canceled',
  metadata: Record<string, string> = {},
): Stripe.Refund {
  return {
    id,
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: `ch_${paymentIntentId.slice(3)}`,
    created: 1_790_000_000,
    currency: 'usd',
    customer: null,
    customer_account: null,
    metadata,
    payment_intent: paymentIntentId,
    payment_method: null,
    reason: null,
    receipt_number: null,
    source_transfer_reversal: null,
    status,
    transfer_reversal: null,
  };
}

export function refundEvent(
  id: string,
  account: string,
  type: 'refund.created' | 'refund.updated' | 'refund.failed',
  refund: Stripe.Refund,
  created: number,
): Stripe.RefundCreatedEvent | Stripe.RefundUpdatedEvent | Stripe.RefundFailedEvent {
  return { ...eventBase(id, created, account), type, data: { object: refund } } as
    | Stripe.RefundCreatedEvent
    | Stripe.RefundUpdatedEvent
    | Stripe.RefundFailedEvent;
}
