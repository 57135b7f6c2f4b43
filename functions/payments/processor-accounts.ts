import type { ProcessorAccountState } from '../domain/processor-account';

export interface LinkAccountRequest {
  readonly merchantId: string;
  /** The account the merchant already has; absent, a new one is opened. */
  readonly existingAccountId: string | undefined;
  /** Where the processor sends the merchant when onboarding ends, and when its link has expired. */
  readonly returnUrl: string;
  readonly refreshUrl: string;
  /** Unique to the merchant's request (its Idempotency-Key's scope): the same request opens one account. */
  readonly idempotencyKey: string;
}

export interface LinkedAccount {
  /** The account opened by this call; absent when the existing one was reused. */
  readonly opened: { readonly processorAccountId: string; readonly state: ProcessorAccountState } | undefined;
  /** A link that onboards the merchant onto its account, once, for a short time. Never logged. */
  readonly onboarding: { readonly url: string; readonly expiresAt: string };
}

/**
 * The processor's side of a merchant's account (docs/processor.md): Stripe Connect on production, a
 * simulation in the sandbox. Chosen by stage in `processor-accounts-for-stage.ts`.
 */
export interface ProcessorAccounts {
  /** The `processor` of the account and of the merchant's payments. */
  readonly name: string;
  link(request: LinkAccountRequest): Promise<LinkedAccount>;
  /** A fresh onboarding link to an account already linked (an idempotent replay's). */
  onboardingLink(
    request: Pick<LinkAccountRequest, 'returnUrl' | 'refreshUrl'> & { processorAccountId: string },
  ): Promise<LinkedAccount['onboarding']>;
}
