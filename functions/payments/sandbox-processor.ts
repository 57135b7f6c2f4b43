import { createHash } from 'node:crypto';
import { IdPrefix, type IdPrefix as IdPrefixType } from '../domain/ids';
import type { ChargeOutcome } from '../domain/payment';
import { typeIdOfBytes } from '../domain/typeid-bits';
import type {
  BankAccountDetails,
  CardDetails,
  ChargeRequest,
  PaymentProcessor,
  RefundRequest,
  RefundResult,
} from './payment-processor';

/** Every decline the sandbox gives, with the message it gives with it. */
export const SandboxDecline = {
  insufficient_funds: 'The card has insufficient funds.',
  card_declined: 'The card was declined.',
  do_not_honor: 'The issuer declined the card (do not honor).',
  expired_card: 'The card has expired.',
  incorrect_cvc: 'The card security code is incorrect.',
  invalid_number: 'The card number is not a valid card number.',
  invalid_expiry: 'The expiry month or year is not valid.',
  invalid_cvc: 'The card security code must be 3 digits, or 4 for American Express.',
  test_mode_live_card: 'The sandbox accepts only its test cards.',
  account_closed: 'The bank account is closed.',
  invalid_routing_number: 'The routing number is not a valid ABA routing number.',
  invalid_account_number: 'The account number must be 4 to 17 digits.',
  test_mode_live_account: 'The sandbox accepts only its test bank accounts.',
} as const;
export type SandboxDeclineCode = keyof typeof SandboxDecline;

/** The routing number of the sandbox's one bank. */
export const sandboxRoutingNumber = '110000000';

/**
 * The documented test numbers and what each one does (docs/sandbox-testing.md shows this table,
 * and a test keeps the two equal). `outcome` is `succeeded` or the decline code.
 */
export const SandboxTestNumbers = {
  cards: [
    { number: '4242424242424242', brand: 'Visa', outcome: 'succeeded' },
    { number: '5555555555554444', brand: 'Mastercard', outcome: 'succeeded' },
    { number: '378282246310005', brand: 'American Express', outcome: 'succeeded' },
    { number: '4000000000009995', brand: 'Visa', outcome: 'insufficient_funds' },
    { number: '4000000000000002', brand: 'Visa', outcome: 'card_declined' },
    { number: '4000000000000036', brand: 'Visa', outcome: 'do_not_honor' },
    { number: '4000000000000069', brand: 'Visa', outcome: 'expired_card' },
    { number: '4000000000000127', brand: 'Visa', outcome: 'incorrect_cvc' },
  ],
  bankAccounts: [
    {
      routingNumber: sandboxRoutingNumber,
      accountNumber: '000123456789',
      outcome: 'succeeded',
      returnedLater: false,
    },
    {
      routingNumber: sandboxRoutingNumber,
      accountNumber: '000111111113',
      outcome: 'account_closed',
      returnedLater: false,
    },
    {
      routingNumber: sandboxRoutingNumber,
      accountNumber: '000222222227',
      outcome: 'succeeded',
      returnedLater: true,
    },
  ],
} as const;

type Outcome = 'succeeded' | SandboxDeclineCode;

const cardOutcomes = new Map<string, Outcome>(
  SandboxTestNumbers.cards.map((card) => [card.number, card.outcome]),
);
const bankAccounts = new Map<string, (typeof SandboxTestNumbers.bankAccounts)[number]>(
  SandboxTestNumbers.bankAccounts.map((account) => [account.accountNumber, account]),
);

/**
 * True for the test bank account whose payments succeed now and are returned later; the sandbox
 * return route reads it to know which payments come back.
 */
export function isReturnedLater(accountNumber: string): boolean {
  return bankAccounts.get(accountNumber)?.returnedLater === true;
}

/**
 * The sandbox's simulated processor. Stateless and deterministic: every id is derived from the
 * request's idempotency key, so a retried charge gets the same answer and ids, and the only clock
 * (for card expiry) is the injected `now`.
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox';
  readonly #now: () => Date;

  constructor(options: { now: () => Date }) {
    this.#now = options.now;
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    requireAmount(request.amount);
    const processorReferenceId = referenceId('ch', request.idempotencyKey);
    const outcome =
      request.method.type === 'card'
        ? cardOutcome(request.method, this.#now())
        : bankAccountOutcome(request.method);
    if (outcome === 'succeeded') {
      return {
        outcome,
        processorReferenceId,
        paymentInstrumentId: instrumentId(request.idempotencyKey),
      };
    }
    return {
      outcome: 'declined',
      processorReferenceId,
      declineCode: outcome,
      declineMessage: SandboxDecline[outcome],
    };
  }

  /** Refunds always succeed: the domain's `refundPayment` has already checked what may be refunded. */
  async refund(request: RefundRequest): Promise<RefundResult> {
    requireAmount(request.amount);
    if (!request.processorReferenceId.startsWith(referencePrefix('ch'))) {
      throw new RangeError('The sandbox can refund only its own charges.');
    }
    return { processorReferenceId: referenceId('re', request.idempotencyKey) };
  }

  /** Every merchant has one simulated payout account (`pacct_`), the same on every call. */
  payoutAccountId(merchantId: string): string {
    return derivedTypeId(IdPrefix.payoutAccount, merchantId);
  }

  /** A bank return arriving for a charge, as the sandbox return route simulates it: its reference. */
  returnReference(request: { processorReferenceId: string; idempotencyKey: string }): {
    processorReferenceId: string;
  } {
    if (!request.processorReferenceId.startsWith(referencePrefix('ch'))) {
      throw new RangeError('The sandbox can return only its own charges.');
    }
    return { processorReferenceId: referenceId('rt', request.idempotencyKey) };
  }
}

/** An amount the route failed to validate is a bug of ours, not a decline. */
function requireAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 1) {
    throw new RangeError('The amount must be an integer from 1 to 9007199254740991.');
  }
}

/**
 * Checks run in this order, so a malformed card is told what is malformed before anything else;
 * only a well-formed, unexpired card is looked up in the test table.
 */
function cardOutcome(card: CardDetails, now: Date): Outcome {
  if (!/^\d{12,19}$/.test(card.number) || !passesLuhn(card.number)) return 'invalid_number';
  if (!isIntegerIn(card.expMonth, 1, 12) || !isIntegerIn(card.expYear, 1000, 9999)) return 'invalid_expiry';
  const cvcPattern = /^3[47]/.test(card.number) ? /^\d{4}$/ : /^\d{3}$/;
  if (!cvcPattern.test(card.cvc)) return 'invalid_cvc';
  // Valid through the last moment of its expiry month, UTC (Date.UTC counts months from 0).
  if (now.getTime() >= Date.UTC(card.expYear, card.expMonth, 1)) return 'expired_card';
  return cardOutcomes.get(card.number) ?? 'test_mode_live_card';
}

function bankAccountOutcome(account: BankAccountDetails): Outcome {
  if (!/^\d{9}$/.test(account.routingNumber) || !passesAbaChecksum(account.routingNumber)) {
    return 'invalid_routing_number';
  }
  if (!/^\d{4,17}$/.test(account.accountNumber)) return 'invalid_account_number';
  if (account.routingNumber !== sandboxRoutingNumber) return 'test_mode_live_account';
  return bankAccounts.get(account.accountNumber)?.outcome ?? 'test_mode_live_account';
}

function isIntegerIn(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

/** The Luhn check digit rule: from the right, every second digit doubled (less 9 past 9), sum ≡ 0 mod 10. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    const digit = Number(digits[digits.length - 1 - index]);
    const weighted = index % 2 === 1 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return sum % 10 === 0;
}

/** ABA routing numbers: digits weighted 3, 7, 1 repeating sum to a multiple of 10. */
function passesAbaChecksum(digits: string): boolean {
  const weights = [3, 7, 1];
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    sum += Number(digits[index]) * (weights[index % 3] ?? 0);
  }
  return sum % 10 === 0;
}

function digest(kind: string, idempotencyKey: string): Buffer {
  return createHash('sha256').update(`sandbox|${kind}|${idempotencyKey}`).digest();
}

/** Charges `sbx_ch_`, refunds `sbx_re_`, returns `sbx_rt_`: opaque to us, like any processor's ids. */
function referencePrefix(kind: 'ch' | 're' | 'rt'): string {
  return `sbx_${kind}_`;
}

function referenceId(kind: 'ch' | 're' | 'rt', idempotencyKey: string): string {
  return referencePrefix(kind) + digest(kind, idempotencyKey).toString('hex').slice(0, 24);
}

function instrumentId(idempotencyKey: string): string {
  return derivedTypeId(IdPrefix.paymentInstrument, idempotencyKey);
}

/** A TypeID from a digest, marked as a UUIDv8 (custom) so it reads as one. */
function derivedTypeId(prefix: IdPrefixType, key: string): string {
  const bytes = new Uint8Array(digest(prefix, key).subarray(0, 16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80; // UUID version 8
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 9562 variant
  return typeIdOfBytes(prefix, bytes);
}
