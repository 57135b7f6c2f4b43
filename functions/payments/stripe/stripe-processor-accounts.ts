import { stripeAccountState } from '../../domain/processor-account';
import { isoTimestamp } from '../../domain/time';
import type { ProcessorAccounts } from '../processor-accounts';
import { stripeFault } from './stripe-faults';
import { stripePlatform } from './stripe-platform';

/**
 * Stripe Connect accounts of the platform (docs/processor.md): a Standard-like connected account per
 * merchant (the merchant keeps its full Stripe dashboard and its own fees and losses), onboarded
 * through Stripe's hosted Account Links. Both calls are the platform's own: no `Stripe-Account`.
 */
export function stripeProcessorAccounts(): ProcessorAccounts {
  const onboardingLink = async (
    request: Parameters<ProcessorAccounts['onboardingLink']>[0],
    idempotencyKey?: string,
  ) => {
    const { stripe } = await stripePlatform();
    const link = await stripe.accountLinks
      .create(
        {
          account: request.processorAccountId,
          type: 'account_onboarding',
          return_url: request.returnUrl,
          refresh_url: request.refreshUrl,
        },
        idempotencyKey === undefined ? {} : { idempotencyKey },
      )
      .catch((error: unknown) => {
        throw stripeFault(error, 'accountLinks.create');
      });
    return { url: link.url, expiresAt: isoTimestamp(new Date(link.expires_at * 1000)) };
  };
  return {
    name: 'stripe',
    link: async (request) => {
      const { stripe } = await stripePlatform();
      const account =
        request.existingAccountId === undefined
          ? await stripe.accounts
              .create(
                {
                  controller: { stripe_dashboard: { type: 'full' } },
                  metadata: { merchantId: request.merchantId },
                },
                { idempotencyKey: `${request.idempotencyKey}-account` },
              )
              .catch((error: unknown) => {
                throw stripeFault(error, 'accounts.create');
              })
          : undefined;
      const processorAccountId = account?.id ?? (request.existingAccountId as string);
      const onboarding = await onboardingLink(
        { processorAccountId, returnUrl: request.returnUrl, refreshUrl: request.refreshUrl },
        `${request.idempotencyKey}-link`,
      );
      return {
        opened:
          account === undefined ? undefined : { processorAccountId, state: stripeAccountState(account) },
        onboarding,
      };
    },
    onboardingLink: (request) => onboardingLink(request),
  };
}
