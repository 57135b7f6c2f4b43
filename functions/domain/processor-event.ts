import {
  type ProcessorAccountState,
  type StripeAccountStatus,
  stripeAccountState,
} from './processor-account';

/**
 * What the service did with one processor event (docs/processor.md#stripes-events-in), kept on its
 * record and answered to the processor.
 */
export const ProcessorEventOutcome = {
  /** The event changed what the service keeps (an account's state, a payment). */
  applied: 'applied',
  /** Already recorded: a repeat, answered as before and changing nothing. */
  duplicate: 'duplicate',
  /** Older than the last event applied to its object: recorded, changing nothing. */
  stale: 'stale',
  /** Names an account no merchant linked: recorded and logged, changing nothing. */
  unknownAccount: 'unknown_account',
  /** Names an object the service never made (an invoice it does not hold): recorded and logged. */
  unknownObject: 'unknown_object',
  /** A type the service does not map yet: recorded, changing nothing. */
  recorded: 'recorded',
} as const;
export type ProcessorEventOutcome = (typeof ProcessorEventOutcome)[keyof typeof ProcessorEventOutcome];

/** Processor event records are kept this long: past Stripe's retries (3 days) and its 30 days of events. */
export const processorEventRetentionDays = 35;

/** A Stripe event, as far as the service reads it (its `Event` object's fields). */
export interface StripeEventFields {
  readonly id: string;
  readonly type: string;
  /** Epoch seconds. */
  readonly created: number;
  readonly account?: string | null;
  readonly data: { readonly object: unknown };
}

/** An account's new state, as an `account.updated` event carries it. */
export interface AccountStateChange {
  /** The merchant the platform named in the account's metadata when it opened it. */
  readonly merchantId: string | undefined;
  readonly processorAccountId: string;
  readonly state: ProcessorAccountState;
}

/**
 * `account.updated` carries the whole connected account as it is now: its state follows from the
 * same fields as when the account was opened (`stripeAccountState`). Undefined for any other type.
 */
export function accountStateChangeOf(event: StripeEventFields): AccountStateChange | undefined {
  if (event.type !== 'account.updated') return undefined;
  const account = event.data.object as StripeAccountStatus & {
    id: string;
    metadata?: Record<string, string>;
  };
  return {
    merchantId: account.metadata?.merchantId,
    processorAccountId: account.id,
    state: stripeAccountState(account),
  };
}
