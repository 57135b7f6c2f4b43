import { createHash } from 'node:crypto';
import { ProcessorAccountState } from '../domain/processor-account';
import type { LinkAccountRequest, LinkedAccount, ProcessorAccounts } from './processor-accounts';

/** How long the sandbox's onboarding link is said to last, as long as Stripe's do. */
const onboardingLinkSeconds = 300;

/**
 * The sandbox's accounts (docs/decisions/stripe-connect-accounts.md): there is nothing to onboard, so
 * every merchant's account is active at once, its id derived from the merchant's, and the onboarding
 * link leads straight to the merchant's own return page.
 */
export function sandboxProcessorAccounts(now: () => Date): ProcessorAccounts {
  const onboarding = (returnUrl: string) => ({
    url: returnUrl,
    expiresAt: new Date(now().getTime() + onboardingLinkSeconds * 1000).toISOString(),
  });
  return {
    name: 'sandbox',
    link: async (request: LinkAccountRequest): Promise<LinkedAccount> => ({
      opened:
        request.existingAccountId === undefined
          ? { processorAccountId: sandboxAccountId(request.merchantId), state: ProcessorAccountState.active }
          : undefined,
      onboarding: onboarding(request.returnUrl),
    }),
    onboardingLink: async (request) => onboarding(request.returnUrl),
  };
}

function sandboxAccountId(merchantId: string): string {
  return `sbx_acct_${createHash('sha256').update(`sandbox|account|${merchantId}`).digest('hex').slice(0, 24)}`;
}
