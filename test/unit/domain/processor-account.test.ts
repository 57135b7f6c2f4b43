import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { stripeAccountState } from '../../../functions/domain/processor-account';
import { accountStateChangeOf } from '../../../functions/domain/processor-event';
import {
  accountUpdatedEvent,
  activeStripeAccount,
  balanceAvailableEvent,
  stripeAccount,
} from '../../support/stripe-fixtures';

describe('stripeAccountState', () => {
  it('is active only when Stripe enables both charges and payouts', () => {
    expect(stripeAccountState(activeStripeAccount('acct_1'))).toBe('active');
    expect(stripeAccountState({ ...activeStripeAccount('acct_1'), payouts_enabled: false })).not.toBe(
      'active',
    );
    expect(stripeAccountState({ ...activeStripeAccount('acct_1'), charges_enabled: false })).not.toBe(
      'active',
    );
  });

  it('is pending while onboarding is unfinished, whatever Stripe says is missing', () => {
    expect(stripeAccountState(stripeAccount('acct_1'))).toBe('pending');
  });

  it.each<Stripe.Account.Requirements.DisabledReason | null>([null, 'requirements.pending_verification'])(
    'is pending once details are in and Stripe is verifying them (disabled_reason %s)',
    (reason) => {
      const account = stripeAccount('acct_1', {
        details_submitted: true,
        requirements: { disabled_reason: reason },
      });
      expect(stripeAccountState(account)).toBe('pending');
    },
  );

  // Typed as Stripe's own list, so tsc refuses a reason Stripe does not give.
  it.each<Stripe.Account.Requirements.DisabledReason>([
    'requirements.past_due',
    'action_required.requested_capabilities',
    'rejected.fraud',
    'rejected.incomplete_verification',
    'rejected.terms_of_service',
    'rejected.listed',
    'rejected.other',
    'rejected.platform_fraud',
    'rejected.platform_other',
    'rejected.platform_terms_of_service',
    'listed',
    'under_review',
    'platform_paused',
    'other',
  ])('is restricted once details are in and Stripe disabled the account for %s', (reason) => {
    const account = stripeAccount('acct_1', {
      details_submitted: true,
      requirements: { disabled_reason: reason },
    });
    expect(stripeAccountState(account)).toBe('restricted');
  });

  it('is restricted when charges work but payouts were stopped', () => {
    const account = stripeAccount('acct_1', {
      details_submitted: true,
      charges_enabled: true,
      requirements: { disabled_reason: 'requirements.past_due' },
    });
    expect(stripeAccountState(account)).toBe('restricted');
  });
});

describe('accountStateChangeOf', () => {
  it('reads the account, its merchant and its state from account.updated', () => {
    const account = { ...activeStripeAccount('acct_1Change'), metadata: { merchantId: 'mer_x' } };
    expect(accountStateChangeOf(accountUpdatedEvent('evt_1', account, 1))).toEqual({
      merchantId: 'mer_x',
      processorAccountId: 'acct_1Change',
      state: 'active',
    });
  });

  it('says nothing of any other type', () => {
    expect(accountStateChangeOf(balanceAvailableEvent('evt_2', 'acct_1', 1))).toBeUndefined();
  });
});
