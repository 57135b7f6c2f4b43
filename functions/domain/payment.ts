import { RuleViolation } from './errors';
import { type DomainEvent, EventType, PaymentMethodType } from './invoice';
import { type Currency, maxAmount, sumAmounts } from './money';
import { requirePaymentAmount } from './payment-amount';

/**
 * The payment status values of the API reference, which shows no transitions; ours
 * (docs/decisions/payments-domain-and-sandbox-simulator.md) are
 * (new) → completed | declined, completed → refunded once fully refunded, and for bank payments
 * completed → returned. pending, authorized, captured and voided are kept for processors that
 * authorize before they capture; nothing reaches them yet.
 */
export const PaymentStatus = {
  pending: 'pending',
  authorized: 'authorized',
  captured: 'captured',
  completed: 'completed',
  voided: 'voided',
  refunded: 'refunded',
  declined: 'declined',
  returned: 'returned',
} as const;
export type PaymentStatus = (typeof PaymentStatus)[keyof typeof PaymentStatus];

/**
 * A payment as the store keeps it: the listed fields (docs/decisions/payments-read-api.md) plus what its
 * events carry.
 */
export interface Payment {
  readonly paymentId: string;
  readonly merchantId: string;
  readonly customerId: string;
  /** null for a payment made without an invoice (a sandbox payment). */
  readonly invoiceId: string | null;
  /** Integer minor units, 1 … 9007199254740991. */
  readonly amount: number;
  /** Sum of the refunds so far, 0 … amount. */
  readonly amountRefunded: number;
  /**
   * Sum of the refunds asked of the processor and not confirmed yet (Stripe's, until its event): no
   * other refund may take them. Absent for none. Kept outside the API view.
   */
  readonly amountRefundPending?: number;
  readonly currency: Currency;
  readonly status: PaymentStatus;
  readonly paymentMethodType: PaymentMethodType;
  /** The name of the processor that charged it (`sandbox`). */
  readonly processor: string;
  readonly processorReferenceId: string;
  /** The processor's instrument (`pmi_`) for payments.PaymentCreated; null when the charge was declined. */
  readonly paymentInstrumentId: string | null;
  /** The price paid for, for payments.PaymentCreated; null when the payment is not for one price (an invoice). */
  readonly priceId: string | null;
  /** The processor's decline, for a declined payment; null otherwise. */
  readonly declineCode: string | null;
  readonly declineMessage: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /**
   * 1 when created, one more with each change that writes an event (a refund, a return): the
   * `objectVersion` of its events. A payment stored before versions were kept counts as 1.
   */
  readonly version: number;
}

/**
 * What the processor answered for the charge: the return of the `PaymentProcessor` port, which a
 * route passes on as it is. A decline is an answer, not an error: bad card details are declined
 * (`invalid_number` …) like insufficient funds are. Only a processor that cannot answer throws.
 */
export type ChargeOutcome =
  | {
      readonly outcome: 'succeeded';
      readonly processorReferenceId: string;
      /** The processor's id of the card or account charged (`pmi_`). */
      readonly paymentInstrumentId: string;
    }
  | {
      readonly outcome: 'declined';
      readonly processorReferenceId: string;
      readonly declineCode: string;
      readonly declineMessage: string;
    };

/**
 * A refund, exactly the API reference's fields; `paymentStatus` is its payment's status as it is when
 * the refund is read (in the answer that makes it: the status once this refund applied).
 */
/** A refund's state: `succeeded` once the processor refunded it (the sandbox's at once). */
export const RefundStatus = { pending: 'pending', succeeded: 'succeeded', failed: 'failed' } as const;
export type RefundStatus = (typeof RefundStatus)[keyof typeof RefundStatus];

export interface Refund {
  readonly id: string;
  readonly paymentId: string;
  readonly amount: number;
  readonly currency: Currency;
  readonly processorReferenceId: string;
  readonly refundedAt: string;
  readonly paymentStatus: PaymentStatus;
  readonly status: RefundStatus;
}

export interface Payout {
  readonly payoutId: string;
  readonly merchantId: string;
  readonly payoutAccountId: string;
  readonly processor: string;
  readonly grossAmount: number;
  readonly feeAmount: number;
  readonly netAmount: number;
  readonly currency: Currency;
  readonly createdAt: string;
}

/**
 * The payment a charge attempt leaves behind: `completed` when the processor took the money (the
 * sandbox captures at once), `declined` otherwise. A declined attempt is kept too, so that its
 * payments.PaymentDeclined names a payment the merchant can look up.
 */
export function newPayment(input: {
  paymentId: string;
  merchantId: string;
  customerId: string;
  invoiceId: string | null;
  priceId: string | null;
  amount: number;
  currency: Currency;
  paymentMethodType: PaymentMethodType;
  processor: string;
  charge: ChargeOutcome;
  now: string;
}): Payment {
  requirePaymentAmount(input.amount);
  const succeeded = input.charge.outcome === 'succeeded';
  return {
    paymentId: input.paymentId,
    merchantId: input.merchantId,
    customerId: input.customerId,
    invoiceId: input.invoiceId,
    amount: input.amount,
    amountRefunded: 0,
    currency: input.currency,
    status: succeeded ? PaymentStatus.completed : PaymentStatus.declined,
    paymentMethodType: input.paymentMethodType,
    processor: input.processor,
    processorReferenceId: input.charge.processorReferenceId,
    paymentInstrumentId: input.charge.outcome === 'succeeded' ? input.charge.paymentInstrumentId : null,
    priceId: input.priceId,
    declineCode: input.charge.outcome === 'declined' ? input.charge.declineCode : null,
    declineMessage: input.charge.outcome === 'declined' ? input.charge.declineMessage : null,
    createdAt: input.now,
    updatedAt: input.now,
    version: 1,
  };
}

/**
 * Money was taken in these states; every other state has nothing to give back
 * (docs/decisions/payments-domain-and-sandbox-simulator.md).
 */
const refundableStatuses: readonly PaymentStatus[] = [PaymentStatus.captured, PaymentStatus.completed];

/**
 * Applies a refund of `amount` (≥ 1). The payment becomes `refunded` only once fully refunded; a
 * partial refund keeps its status. More than what is left, or a payment that took no money or
 * has none left (pending, declined, returned, refunded …), is a 409 `invalid_state`.
 */
export function refundPayment(payment: Payment, amount: number, now: string): Payment {
  requireRefundable(payment, amount);
  const amountRefunded = sumAmounts([payment.amountRefunded, amount]);
  return {
    ...payment,
    amountRefunded,
    status: amountRefunded === payment.amount ? PaymentStatus.refunded : payment.status,
    updatedAt: now,
    version: payment.version + 1,
  };
}

/** What is left to refund: neither refunded nor asked of the processor already. */
export function refundableAmount(payment: Payment): number {
  return payment.amount - payment.amountRefunded - (payment.amountRefundPending ?? 0);
}

/**
 * A refund asked of a processor that confirms later (Stripe): the amount is held as pending, so no
 * other refund takes it, and nothing else changes until the processor confirms
 * (`confirmPendingRefund`) or refuses (`releasePendingRefund`). Refused as `refundPayment` is.
 */
export function holdPendingRefund(payment: Payment, amount: number, now: string): Payment {
  requireRefundable(payment, amount);
  return {
    ...payment,
    amountRefundPending: sumAmounts([payment.amountRefundPending ?? 0, amount]),
    updatedAt: now,
  };
}

/** The processor confirmed a pending refund: it is applied as `refundPayment` applies one. */
export function confirmPendingRefund(payment: Payment, amount: number, now: string): Payment {
  return refundPayment(releasePendingRefund(payment, amount, now), amount, now);
}

/** The processor refused a pending refund: its amount is refundable again. */
export function releasePendingRefund(payment: Payment, amount: number, now: string): Payment {
  const pending = payment.amountRefundPending ?? 0;
  if (amount > pending) throw new Error(`a pending refund of ${amount} is more than the ${pending} pending`);
  return { ...payment, amountRefundPending: pending - amount, updatedAt: now };
}

function requireRefundable(payment: Payment, amount: number): void {
  requirePaymentAmount(amount);
  if (!refundableStatuses.includes(payment.status)) {
    throw new RuleViolation('invalid_state', `A payment that is ${payment.status} cannot be refunded.`);
  }
  const left = refundableAmount(payment);
  if (amount > left) {
    throw new RuleViolation(
      'invalid_state',
      `The refund of ${amount} is more than the ${left} left to refund.`,
    );
  }
}

/**
 * A bank return (spec payments.PaymentReturned): only a completed bank-account payment can come
 * back; cards are disputed, not returned. The return takes back what was not refunded already.
 */
export function returnPayment(payment: Payment, now: string): Payment {
  if (payment.paymentMethodType !== PaymentMethodType.bank_account) {
    throw new RuleViolation('invalid_state', 'Only a bank account payment can be returned.');
  }
  if (payment.status !== PaymentStatus.completed) {
    throw new RuleViolation('invalid_state', `A payment that is ${payment.status} cannot be returned.`);
  }
  return { ...payment, status: PaymentStatus.returned, updatedAt: now, version: payment.version + 1 };
}

/** The refund record of a refund just applied: `refundedPayment` is what `refundPayment` returned. */
export function newRefund(input: {
  refundId: string;
  refundedPayment: Payment;
  amount: number;
  processorReferenceId: string;
  now: string;
  status?: RefundStatus;
}): Refund {
  return {
    id: input.refundId,
    paymentId: input.refundedPayment.paymentId,
    amount: input.amount,
    currency: input.refundedPayment.currency,
    processorReferenceId: input.processorReferenceId,
    refundedAt: input.now,
    paymentStatus: input.refundedPayment.status,
    status: input.status ?? RefundStatus.succeeded,
  };
}

/**
 * The sandbox payout fee: 2.9 % of the gross, rounded half up to a minor unit, plus 30 minor
 * units, and never more than the gross, so the net is never negative. The same rule in USD and CAD.
 */
export const payoutFee = { basisPoints: 290, fixedAmount: 30 } as const;

/** Gross, fee and net of a payout of `grossAmount` (an integer 0 … 9007199254740991), by `payoutFee`. */
export function payoutAmounts(grossAmount: number): {
  grossAmount: number;
  feeAmount: number;
  netAmount: number;
} {
  if (!Number.isSafeInteger(grossAmount) || grossAmount < 0) {
    throw new RangeError(`A payout's gross amount must be an integer from 0 to ${maxAmount}.`);
  }
  // BigInt: gross × 290 passes 2^53 long before the gross does. Adding half the divisor before
  // the floor division rounds half up.
  const percentage = (BigInt(grossAmount) * BigInt(payoutFee.basisPoints) + 5_000n) / 10_000n;
  const fee = percentage + BigInt(payoutFee.fixedAmount);
  const feeAmount = fee > BigInt(grossAmount) ? grossAmount : Number(fee);
  return { grossAmount, feeAmount, netAmount: grossAmount - feeAmount };
}

export function newPayout(input: {
  payoutId: string;
  merchantId: string;
  payoutAccountId: string;
  processor: string;
  grossAmount: number;
  currency: Currency;
  now: string;
}): Payout {
  return {
    payoutId: input.payoutId,
    merchantId: input.merchantId,
    payoutAccountId: input.payoutAccountId,
    processor: input.processor,
    ...payoutAmounts(input.grossAmount),
    currency: input.currency,
    createdAt: input.now,
  };
}

/** The object an event reports a change of, and its version after that change. */
interface ChangedObject {
  readonly objectId: string;
  readonly objectVersion: number;
}

function event(
  eventType: EventType,
  merchantId: string,
  eventId: string,
  object: ChangedObject,
  payload: Readonly<Record<string, unknown>> & { readonly occurredAt: string },
): DomainEvent {
  return { eventId, eventType, merchantId, payload, createdAt: payload.occurredAt, ...object };
}

const paymentObject = (payment: Payment): ChangedObject => ({
  objectId: payment.paymentId,
  objectVersion: payment.version,
});

/** A payout never changes once created: its events are of version 1. */
const payoutObject = (payout: Payout): ChangedObject => ({ objectId: payout.payoutId, objectVersion: 1 });

/**
 * payments.PaymentCreated for a charged payment: exactly the fields docs/receiving-webhooks.md lists, at its
 * `createdAt`.
 */
export function paymentCreatedEvent(payment: Payment, eventId: string): DomainEvent {
  if (payment.paymentInstrumentId === null) {
    throw new Error('paymentCreatedEvent needs a payment that was charged');
  }
  return event(EventType.paymentCreated, payment.merchantId, eventId, paymentObject(payment), {
    paymentId: payment.paymentId,
    paymentInstrumentId: payment.paymentInstrumentId,
    priceId: payment.priceId,
    processor: payment.processor,
    customerId: payment.customerId,
    merchantId: payment.merchantId,
    amount: payment.amount,
    currency: payment.currency,
    occurredAt: payment.createdAt,
  });
}

/** payments.PaymentDeclined for a declined payment; the decline is the processor's answer. */
export function paymentDeclinedEvent(payment: Payment, eventId: string): DomainEvent {
  if (payment.status !== PaymentStatus.declined || payment.declineCode === null) {
    throw new Error('paymentDeclinedEvent needs a declined payment');
  }
  return event(EventType.paymentDeclined, payment.merchantId, eventId, paymentObject(payment), {
    paymentId: payment.paymentId,
    merchantId: payment.merchantId,
    processor: payment.processor,
    declineCode: payment.declineCode,
    declineMessage: payment.declineMessage,
    occurredAt: payment.createdAt,
  });
}

/** payments.PaymentRefunded, one per refund (a partial refund too), at its `refundedAt`. */
export function paymentRefundedEvent(payment: Payment, refund: Refund, eventId: string): DomainEvent {
  if (refund.paymentId !== payment.paymentId) {
    throw new Error('paymentRefundedEvent needs the refund of this payment');
  }
  return event(EventType.paymentRefunded, payment.merchantId, eventId, paymentObject(payment), {
    refundId: refund.id,
    paymentId: payment.paymentId,
    merchantId: payment.merchantId,
    refundedAmount: refund.amount,
    currency: refund.currency,
    processorReferenceId: refund.processorReferenceId,
    occurredAt: refund.refundedAt,
  });
}

/**
 * payments.PaymentReturned for a payment `returnPayment` returned, at its `updatedAt`;
 * `returnedAmount` is what had not been refunded.
 */
export function paymentReturnedEvent(
  returnedPayment: Payment,
  input: { readonly returnId: string; readonly processorReferenceId: string },
  eventId: string,
): DomainEvent {
  if (returnedPayment.status !== PaymentStatus.returned) {
    throw new Error('paymentReturnedEvent needs a returned payment');
  }
  return event(
    EventType.paymentReturned,
    returnedPayment.merchantId,
    eventId,
    paymentObject(returnedPayment),
    {
      returnId: input.returnId,
      paymentId: returnedPayment.paymentId,
      merchantId: returnedPayment.merchantId,
      returnedAmount: returnedPayment.amount - returnedPayment.amountRefunded,
      currency: returnedPayment.currency,
      processorReferenceId: input.processorReferenceId,
      occurredAt: returnedPayment.updatedAt,
    },
  );
}

/**
 * payouts.PayoutCreated: exactly the fields docs/receiving-webhooks.md lists, at the payout's `createdAt`.
 */
export function payoutCreatedEvent(payout: Payout, eventId: string): DomainEvent {
  return event(EventType.payoutCreated, payout.merchantId, eventId, payoutObject(payout), {
    payoutId: payout.payoutId,
    merchantId: payout.merchantId,
    payoutAccountId: payout.payoutAccountId,
    processor: payout.processor,
    grossAmount: payout.grossAmount,
    feeAmount: payout.feeAmount,
    netAmount: payout.netAmount,
    currency: payout.currency,
    occurredAt: payout.createdAt,
  });
}
