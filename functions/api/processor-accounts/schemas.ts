import * as z from 'zod/mini';
import { ProcessorAccountState } from '../../domain/processor-account';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';
import { MerchantId, Timestamp } from '../shared-schemas';

/** An https URL of the merchant's own site, as Stripe takes it: no spaces, at most 2048 characters. */
const MerchantPageUrl = text({
  max: 2048,
  pattern: /^https:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:[/?#]\S*)?$/,
  patternMessage: 'must be an https:// URL.',
});

export const LinkProcessorAccountBody = z.strictObject({
  returnUrl: documented(MerchantPageUrl, {
    description:
      'The page of yours the processor sends the merchant back to when it leaves onboarding, finished ' +
      'or not: read the account here then (`GET …/processor-account`).',
    example: 'https://dashboard.example.com/settings/payments',
  }),
  refreshUrl: documented(MerchantPageUrl, {
    description:
      'The page of yours the processor sends the merchant to when its link has expired or was used: ' +
      'call this route again there for a fresh link.',
    example: 'https://dashboard.example.com/settings/payments/reconnect',
  }),
});

export const ProcessorAccountPathParams = z.strictObject({ merchantId: MerchantId });

const processorAccountFields = {
  merchantId: MerchantId,
  processor: documented(text(), { description: '`stripe` in production, `sandbox` in the sandbox.' }),
  processorAccountId: documented(text(), {
    description: "The processor's id of the account: Stripe's connected account id (`acct_…`).",
  }),
  state: documented(z.enum(ProcessorAccountState), {
    description:
      '`pending` until onboarding is finished and verified; `active` when the account may take payments ' +
      'and pay out; `restricted` when the processor stopped charges or payouts until something is fixed. ' +
      'It follows the processor: read it again after the merchant comes back.',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const ProcessorAccount = documented(z.strictObject(processorAccountFields), {
  id: 'ProcessorAccount',
});

export const LinkedProcessorAccount = documented(
  z.strictObject({
    ...processorAccountFields,
    onboardingUrl: documented(text(), {
      description:
        "Send the merchant's browser here to onboard (or finish onboarding) its account. It works once and " +
        'for a few minutes; every call of this route gives a fresh one. In the sandbox it is your `returnUrl`: ' +
        'there is nothing to onboard.',
    }),
    onboardingUrlExpiresAt: Timestamp,
  }),
  { id: 'LinkedProcessorAccount' },
);
