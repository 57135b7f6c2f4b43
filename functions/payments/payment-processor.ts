import type { Currency } from '../domain/money';
import type { ChargeOutcome } from '../domain/payment';
import { AnswerableError, type ErrorAnswer } from '../errors/answerable-error';

/**
 * Card details as the payer gave them. `number` is digits only (the caller strips spaces);
 * `expYear` has four digits. Card data is never logged, stored or put in an error message.
 */
export interface CardDetails {
  readonly type: 'card';
  readonly number: string;
  readonly expMonth: number;
  readonly expYear: number;
  readonly cvc: string;
}

/** A US bank account: a 9-digit ABA routing number and the account number, digits only. */
export interface BankAccountDetails {
  readonly type: 'bank_account';
  readonly routingNumber: string;
  readonly accountNumber: string;
}

export type PaymentMethodDetails = CardDetails | BankAccountDetails;

export interface ChargeRequest {
  /** Integer minor units, 1 … 9007199254740991. */
  readonly amount: number;
  readonly currency: Currency;
  readonly method: PaymentMethodDetails;
  /**
   * The same key gets the same answer and charges at most once. Processors are shared by every
   * merchant, so pass a key unique across merchants (the new payment's id), not the merchant's
   * Idempotency-Key header.
   */
  readonly idempotencyKey: string;
}

export interface RefundRequest {
  /** The `processorReferenceId` of the charge to refund. */
  readonly processorReferenceId: string;
  /** Integer minor units, 1 … what is left to refund (the domain's `refundPayment` checks that first). */
  readonly amount: number;
  readonly currency: Currency;
  /** As for a charge: unique across merchants (the new refund's id). */
  readonly idempotencyKey: string;
}

export interface RefundResult {
  readonly processorReferenceId: string;
}

/**
 * Where payments come from (docs/decisions/payments-domain-and-sandbox-simulator.md): the one boundary
 * between our rules and a processor. The sandbox simulates one (`SandboxProcessor`); production has none
 * wired yet.
 */
export interface PaymentProcessor {
  /** The `processor` value of payments, payouts and their events. */
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  refund(request: RefundRequest): Promise<RefundResult>;
}

/**
 * No processor can take the request here (production, for now): the HTTP layer
 * answers 503 `service_unavailable`.
 */
export class ProcessorUnavailableError extends AnswerableError {
  override name = 'ProcessorUnavailableError';
  constructor(message = 'No payment processor is available here.', options: { cause?: unknown } = {}) {
    super(message, options);
  }

  answer(): ErrorAnswer {
    return { code: 'service_unavailable', message: 'No payment processor is available on this stage.' };
  }
}

/**
 * The processor did not answer in time, refused for load (429) or failed (5xx), after the SDK's own
 * retry: 503 `service_unavailable`, not stored for the key, and nothing was recorded, so the same
 * request may simply be sent again (docs/decisions/stripe-connect-accounts.md).
 */
export class ProcessorUnreachableError extends AnswerableError {
  override name = 'ProcessorUnreachableError';
  constructor(options: { cause?: unknown } = {}) {
    super('The payment processor did not answer.', options);
  }

  answer(): ErrorAnswer {
    return {
      code: 'service_unavailable',
      message: 'The payment processor did not answer in time; nothing was changed. Try again in a moment.',
      headers: { 'Retry-After': '5' },
    };
  }
}
