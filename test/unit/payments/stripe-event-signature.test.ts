import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  StripeSignatureRefused,
  verifiedStripeEvent,
} from '../../../functions/payments/stripe/stripe-event-signature';
import type { StripePlatform } from '../../../functions/payments/stripe/stripe-platform';
import { balanceAvailableEvent } from '../../support/stripe-fixtures';

const previousSecret = 'whsec_previous000000000000000000';
const newSecret = 'whsec_rolled00000000000000000000';
const stripe = new Stripe('sk_test_signatures000000000000');
const platformWith = (webhookSigningSecret: string): StripePlatform => ({ stripe, webhookSigningSecret });

const now = new Date('2026-12-01T12:00:00.000Z');
const timestamp = Math.floor(now.getTime() / 1000);
const payload = JSON.stringify(balanceAvailableEvent('evt_rolling', 'acct_1', timestamp));
const body = Buffer.from(payload);

/** Stripe's header signed with `secret`: `t=<timestamp>,v1=<signature>`. */
const signedWith = (secret: string) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
const signatureOf = (header: string) => header.split(',v1=')[1];

/**
 * While an endpoint's rolled secret has not expired, Stripe signs each delivery with every active
 * secret, one `v1` per secret (docs/operations.md, "Rotating the Stripe secrets"): a function that
 * still holds the previous secret and one that holds the new one both verify it.
 */
describe('verifiedStripeEvent during a roll of the webhook secret', () => {
  const bothSigned = `t=${timestamp},v1=${signatureOf(signedWith(newSecret))},v1=${signatureOf(signedWith(previousSecret))}`;

  it.each([
    ['previous', previousSecret],
    ['new', newSecret],
  ])('verifies a delivery signed with both secrets with the %s secret alone', (_name, secret) => {
    expect(verifiedStripeEvent(platformWith(secret), body, bothSigned, now).id).toBe('evt_rolling');
  });

  it('refuses, once the previous secret expired, every delivery to a function still holding it', () => {
    expect(() => verifiedStripeEvent(platformWith(previousSecret), body, signedWith(newSecret), now)).toThrow(
      StripeSignatureRefused,
    );
  });
});
