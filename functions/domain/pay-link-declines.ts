/**
 * The pay link is public, so anyone holding a slug could try card after card on it (card testing).
 * A pay link takes at most `perSlug` declined payments in any rolling `windowMs`, and an invoice at
 * most `perInvoice` across all its links; past either, the pay link refuses payments until the
 * oldest of those declines is older than the window. A rotated slug starts a count of its own, so a
 * holder of an old link can't lock out the payer of the new one; the invoice's ceiling still bounds
 * what rotations let through, and only the merchant clears it
 * (docs/decisions/declines-on-the-pay-link.md).
 */
export const PayLinkDeclineLimit = { perSlug: 5, perInvoice: 20, windowMs: 60 * 60 * 1000 } as const;

/**
 * What the payer is told of any decline: the processor's code and message would tell a card tester
 * which detail was wrong. The merchant's payment and the PaymentDeclined event keep the real ones.
 */
export const PayerDecline = {
  code: 'payment_declined',
  message: 'The payment was declined. Check the details you entered, or use another card or bank account.',
} as const;

/** The times (epoch ms) of the latest pay-link declines, newest first, at most a limit's count. */
export type DeclineHistory = readonly number[];

/** An invoice's pay-link declines: those of its current slug, and those of all its slugs. */
export interface PayLinkDeclines {
  readonly slug: DeclineHistory;
  readonly invoice: DeclineHistory;
}

export const noDeclines: PayLinkDeclines = { slug: [], invoice: [] };

/** Which count refused: the current link's (a new link helps) or the invoice's (only the merchant's clear does). */
export type DeclineLimitScope = 'slug' | 'invoice';

const refusals: Record<DeclineLimitScope, string> = {
  slug: 'Too many declined payments through this pay link; try again later, or ask the sender for a new link.',
  invoice: 'Too many declined payments for this invoice; try again later.',
};

/** Too many declines within the window; the pay link takes payments again at `until`. */
export class PayLinkDeclineLimitReached extends Error {
  override name = 'PayLinkDeclineLimitReached';
  readonly until: Date;
  readonly scope: DeclineLimitScope;
  constructor(until: Date, scope: DeclineLimitScope) {
    super(refusals[scope]);
    this.until = until;
    this.scope = scope;
  }
}

/**
 * Why and until when the pay link refuses payments, or `undefined` when it takes them now: each
 * count's limit-th newest decline counts until it is `windowMs` old, and both must have expired.
 */
export function declineLimit(
  declines: PayLinkDeclines,
  now: Date,
): { readonly until: Date; readonly scope: DeclineLimitScope } | undefined {
  const slug = limitedUntil(declines.slug, PayLinkDeclineLimit.perSlug, now);
  const invoice = limitedUntil(declines.invoice, PayLinkDeclineLimit.perInvoice, now);
  if (invoice === undefined) return slug === undefined ? undefined : { until: slug, scope: 'slug' };
  return { until: slug !== undefined && slug > invoice ? slug : invoice, scope: 'invoice' };
}

function limitedUntil(history: DeclineHistory, limit: number, now: Date): Date | undefined {
  const oldestCounted = history[limit - 1];
  if (oldestCounted === undefined) return undefined;
  const until = oldestCounted + PayLinkDeclineLimit.windowMs;
  return until > now.getTime() ? new Date(until) : undefined;
}

/** The declines after one at `at`: those that left the window are dropped, the rest capped. */
export function withDecline(declines: PayLinkDeclines, at: Date): PayLinkDeclines {
  return {
    slug: keptWith(declines.slug, at, PayLinkDeclineLimit.perSlug),
    invoice: keptWith(declines.invoice, at, PayLinkDeclineLimit.perInvoice),
  };
}

function keptWith(history: DeclineHistory, at: Date, limit: number): number[] {
  const windowStart = at.getTime() - PayLinkDeclineLimit.windowMs;
  return [at.getTime(), ...history.filter((time) => time > windowStart)].slice(0, limit);
}

/**
 * The declines an invoice keeps through a merchant's change: a new slug starts its own count (the
 * old link can't pay any more, so its declines say nothing about the new one's payer), the
 * invoice's count stays, and the merchant's clear empties both.
 */
export function declinesAfterChange(
  declines: PayLinkDeclines,
  change: { readonly slugChanged: boolean; readonly cleared: boolean },
): PayLinkDeclines {
  if (change.cleared) return noDeclines;
  return change.slugChanged ? { slug: [], invoice: declines.invoice } : declines;
}

/** Whole seconds until `until`, at least 1: the value of a Retry-After header. */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
