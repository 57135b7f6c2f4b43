/**
 * A merchant's account at the payment processor (docs/processor.md): on production a Stripe Connect
 * connected account, which the platform charges on; in the sandbox a simulated one. One per merchant.
 */
export const ProcessorAccountState = {
  /** Onboarding is not finished, or the processor is still verifying what was given. */
  pending: 'pending',
  /** The processor lets the account take payments and pay out. */
  active: 'active',
  /** Onboarding was done, but the processor stopped charges or payouts until something is fixed. */
  restricted: 'restricted',
} as const;
export type ProcessorAccountState = (typeof ProcessorAccountState)[keyof typeof ProcessorAccountState];

export interface ProcessorAccount {
  readonly merchantId: string;
  /** `stripe` on production, `sandbox` in the sandbox: the `processor` of the merchant's payments. */
  readonly processor: string;
  /** The processor's own id of the account (`acct_…` on Stripe). */
  readonly processorAccountId: string;
  readonly state: ProcessorAccountState;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What Stripe says of a connected account, as its `Account` object names the fields. */
export interface StripeAccountStatus {
  readonly charges_enabled: boolean;
  readonly payouts_enabled: boolean;
  readonly details_submitted: boolean;
  readonly requirements?: { readonly disabled_reason?: string | null } | null;
}

/**
 * Stripe's account fields as one state. `active` needs both charges and payouts enabled. Otherwise the
 * account is `pending` while onboarding is unfinished (`details_submitted` false) or Stripe is still
 * verifying (`requirements.disabled_reason` `requirements.pending_verification`, or none given yet),
 * and `restricted` when Stripe disabled it for any other reason: requirements past due, a rejection,
 * a listing, a review, a platform pause.
 */
export function stripeAccountState(account: StripeAccountStatus): ProcessorAccountState {
  if (account.charges_enabled && account.payouts_enabled) return ProcessorAccountState.active;
  if (!account.details_submitted) return ProcessorAccountState.pending;
  const reason = account.requirements?.disabled_reason ?? null;
  if (reason === null || reason === 'requirements.pending_verification') return ProcessorAccountState.pending;
  return ProcessorAccountState.restricted;
}
