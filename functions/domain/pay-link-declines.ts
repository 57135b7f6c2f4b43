/**
 * The pay link is public, so anyone holding a slug could try card after card on it (card testing).
 * An invoice takes at most `cap` declined pay-link payments in any rolling `windowMs`; past that the
 * pay link refuses payments until the oldest of those declines is older than the window.
 */
export const PayLinkDeclineLimit = { cap: 5, windowMs: 60 * 60 * 1000 } as const;

/**
 * What the payer is told of any decline: the processor's code and message would tell a card tester
 * which detail was wrong. The merchant's payment and the PaymentDeclined event keep the real ones.
 */
export const PayerDecline = {
  code: 'payment_declined',
  message: 'The payment was declined. Check the details you entered, or use another card or bank account.',
} as const;

/** The times (epoch ms) of an invoice's latest pay-link declines, newest first, at most `cap`. */
export type DeclineHistory = readonly number[];

/** Too many declines of this invoice's pay link within the window; it takes payments again at `until`. */
export class PayLinkDeclineLimitReached extends Error {
  override name = 'PayLinkDeclineLimitReached';
  readonly until: Date;
  constructor(until: Date) {
    super('Too many declined payments for this invoice; try again later.');
    this.until = until;
  }
}

/**
 * When the pay link takes payments again, or `undefined` when it takes them now: the cap-th newest
 * decline still counts until it is `windowMs` old.
 */
export function declineLimitUntil(history: DeclineHistory, now: Date): Date | undefined {
  const oldestCounted = history[PayLinkDeclineLimit.cap - 1];
  if (oldestCounted === undefined) return undefined;
  const until = oldestCounted + PayLinkDeclineLimit.windowMs;
  return until > now.getTime() ? new Date(until) : undefined;
}

/** The history after a decline at `at`: declines that left the window are dropped, the rest capped. */
export function withDecline(history: DeclineHistory, at: Date): number[] {
  const windowStart = at.getTime() - PayLinkDeclineLimit.windowMs;
  return [at.getTime(), ...history.filter((time) => time > windowStart)].slice(0, PayLinkDeclineLimit.cap);
}

/** Whole seconds until `until`, at least 1: the value of a Retry-After header. */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
