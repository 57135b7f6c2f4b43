import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidFields, RuleViolation } from '../../../functions/domain/errors';
import { maxAmount } from '../../../functions/domain/money';
import {
  confirmPendingRefund,
  holdPendingRefund,
  newPayment,
  newPayout,
  newRefund,
  type Payment,
  PaymentStatus,
  paymentCreatedEvent,
  paymentDeclinedEvent,
  paymentRefundedEvent,
  paymentReturnedEvent,
  payoutAmounts,
  payoutCreatedEvent,
  refundableAmount,
  refundPayment,
  releasePendingRefund,
  returnPayment,
} from '../../../functions/domain/payment';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { assertProperty } from '../../support/property';
import { expectInvalidState } from '../../support/rule-violations';
import { eventPayloadFields } from '../../support/spec-fields';

const created = '2026-11-01T00:00:00.000Z';
const now = '2026-11-02T00:00:00.000Z';

function paymentWith(overrides: Partial<Payment> = {}): Payment {
  return {
    paymentId: 'pmt_01',
    merchantId: 'mer_01',
    customerId: 'cust_01',
    invoiceId: null,
    amount: 10_000,
    amountRefunded: 0,
    currency: 'USD',
    status: 'completed',
    paymentMethodType: 'card',
    processor: 'sandbox',
    processorReferenceId: 'sbx_ch_1',
    paymentInstrumentId: 'pmi_01',
    priceId: 'price_01',
    declineCode: null,
    declineMessage: null,
    createdAt: created,
    updatedAt: created,
    version: 1,
    ...overrides,
  };
}

const allStatuses = Object.values(PaymentStatus);

/** Any number a refund could be asked for: at and around 0, 1 and the bound, past it, fractions. */
const refundRequest = fc.oneof(
  integerNearBounds({ min: 1, max: maxAmount, reach: 3 }),
  fc.integer({ min: 1, max: 50 }),
  fc.double(),
);

type RefundOutcome =
  | { readonly payment: Payment }
  | { readonly refused: 'validation_error on amount' | 'invalid_state' };

function refundOutcome(payment: Payment, request: number): RefundOutcome {
  try {
    return { payment: refundPayment(payment, request, now) };
  } catch (error) {
    if (error instanceof InvalidFields && error.problems.every((problem) => problem.path === 'amount')) {
      return { refused: 'validation_error on amount' };
    }
    if (error instanceof RuleViolation && error.code === 'invalid_state') return { refused: 'invalid_state' };
    throw error;
  }
}

/**
 * The refund rules (docs/decisions/payments-domain-and-sandbox-simulator.md), in the order they apply: an
 * amount outside 1 … 9007199254740991 is a 400; a payment that took no money, or more than what is left, a
 * 409; otherwise the refund adds up, and the payment is refunded exactly when nothing is left.
 */
function expectedRefund(payment: Payment, request: number): RefundOutcome {
  if (!Number.isInteger(request) || request < 1 || request > maxAmount) {
    return { refused: 'validation_error on amount' };
  }
  if (payment.status !== 'completed' && payment.status !== 'captured') return { refused: 'invalid_state' };
  if (request > payment.amount - payment.amountRefunded) return { refused: 'invalid_state' };
  const amountRefunded = payment.amountRefunded + request;
  return {
    payment: {
      ...payment,
      amountRefunded,
      status: amountRefunded === payment.amount ? 'refunded' : payment.status,
      updatedAt: now,
      version: payment.version + 1,
    },
  };
}

type PayoutOutcome = ReturnType<typeof payoutAmounts> | { readonly refused: 'RangeError' };

function payoutOutcome(gross: number): PayoutOutcome {
  try {
    return payoutAmounts(gross);
  } catch (error) {
    if (error instanceof RangeError) return { refused: 'RangeError' };
    throw error;
  }
}

/**
 * Grosses whose 2.9 % is exactly half a minor unit, where rounding half up decides (29 × g ≡ 500
 * mod 1000 exactly when g ends in 500), and their neighbours.
 */
const halfCentFee = fc
  .tuple(
    integerNearBounds({ min: 0, max: Math.floor(maxAmount / 1000) - 1 }),
    fc.integer({ min: -1, max: 1 }),
  )
  .map(([thousands, offset]) => thousands * 1000 + 500 + offset);

/** The sandbox payout fee: 2.9 % of the gross rounded half up, plus 30, at most the gross. */
function expectedPayout(gross: number): PayoutOutcome {
  if (!Number.isInteger(gross) || gross < 0 || gross > maxAmount) return { refused: 'RangeError' };
  const fee = (BigInt(gross) * 290n + 5000n) / 10_000n + 30n;
  const feeAmount = fee < BigInt(gross) ? Number(fee) : gross;
  return { grossAmount: gross, feeAmount, netAmount: gross - feeAmount };
}

describe('PaymentStatus', () => {
  it('holds exactly the API reference’s payment status values', () => {
    expect(allStatuses).toEqual([
      'pending',
      'authorized',
      'captured',
      'completed',
      'voided',
      'refunded',
      'declined',
      'returned',
    ]);
  });
});

describe('newPayment', () => {
  const input = {
    paymentId: 'pmt_01',
    merchantId: 'mer_01',
    customerId: 'cust_01',
    invoiceId: null,
    priceId: 'price_01',
    amount: 2500,
    currency: 'CAD',
    paymentMethodType: 'bank_account',
    processor: 'sandbox',
    now: created,
  } as const;

  it('makes a completed payment with nothing refunded from a charge that succeeded', () => {
    const payment = newPayment({
      ...input,
      charge: { outcome: 'succeeded', processorReferenceId: 'sbx_ch_1', paymentInstrumentId: 'pmi_01' },
    });
    expect(payment).toEqual(
      paymentWith({ amount: 2500, currency: 'CAD', paymentMethodType: 'bank_account' }),
    );
  });

  it('makes a declined payment without an instrument from a declined charge', () => {
    const payment = newPayment({
      ...input,
      invoiceId: 'inv_01',
      charge: {
        outcome: 'declined',
        processorReferenceId: 'sbx_ch_2',
        declineCode: 'card_declined',
        declineMessage: 'The card was declined.',
      },
    });
    expect(payment).toMatchObject({
      status: 'declined',
      invoiceId: 'inv_01',
      processorReferenceId: 'sbx_ch_2',
      paymentInstrumentId: null,
      declineCode: 'card_declined',
      declineMessage: 'The card was declined.',
    });
  });

  it.each([0, -1, 1.5, maxAmount + 1, Number.NaN])('refuses an amount of %s as a 400 on amount', (amount) => {
    const run = () =>
      newPayment({
        ...input,
        amount,
        charge: {
          outcome: 'declined',
          processorReferenceId: 'sbx_ch_2',
          declineCode: 'card_declined',
          declineMessage: 'The card was declined.',
        },
      });
    expect(run).toThrow(InvalidFields);
    expect(() => run()).toThrow('amount: must be an integer from 1 to 9007199254740991.');
  });

  it('takes exactly the amounts from 1 to 9007199254740991 and refuses every other as a 400 on amount', () => {
    const charge = {
      outcome: 'succeeded',
      processorReferenceId: 'sbx_ch_1',
      paymentInstrumentId: 'pmi_01',
    } as const;
    assertProperty(
      fc.property(
        fc.oneof(integerNearBounds({ min: 1, max: maxAmount, reach: 3 }), fc.double()),
        (amount) => {
          const taken = Number.isInteger(amount) && amount >= 1 && amount <= maxAmount;
          const run = () => newPayment({ ...input, amount, charge }).amount;
          if (taken) expect(run()).toBe(amount);
          else expect(run).toThrow(InvalidFields);
        },
      ),
    );
  });
});

describe('refundPayment', () => {
  it('keeps a partially refunded payment completed and adds the refund to amountRefunded', () => {
    const refunded = refundPayment(paymentWith({ amountRefunded: 1000 }), 2500, now);
    expect(refunded).toMatchObject({ status: 'completed', amountRefunded: 3500, updatedAt: now });
  });

  it('keeps the payment completed while one minor unit is left', () => {
    expect(refundPayment(paymentWith(), 9999, now)).toMatchObject({
      status: 'completed',
      amountRefunded: 9999,
    });
  });

  it('marks the payment refunded only when the refund takes what is left', () => {
    const refunded = refundPayment(paymentWith({ amountRefunded: 4000 }), 6000, now);
    expect(refunded).toMatchObject({ status: 'refunded', amountRefunded: 10_000, updatedAt: now });
  });

  it('refunds a captured payment, keeping it captured while partial', () => {
    expect(refundPayment(paymentWith({ status: 'captured' }), 1, now).status).toBe('captured');
    expect(refundPayment(paymentWith({ status: 'captured' }), 10_000, now).status).toBe('refunded');
  });

  it('leaves the payment it was given unchanged', () => {
    const payment = paymentWith();
    refundPayment(payment, 100, now);
    expect(payment).toEqual(paymentWith());
  });

  it('refuses with 409 invalid_state a refund of more than what is left', () => {
    expectInvalidState(() => refundPayment(paymentWith({ amountRefunded: 9000 }), 1001, now));
  });

  it('refunds up to the integer bound without losing precision', () => {
    const payment = paymentWith({ amount: maxAmount, amountRefunded: maxAmount - 1 });
    expect(refundPayment(payment, 1, now)).toMatchObject({ amountRefunded: maxAmount, status: 'refunded' });
  });

  it.each(allStatuses.filter((status) => status !== 'completed' && status !== 'captured'))(
    'refuses with 409 invalid_state to refund a %s payment',
    (status) => expectInvalidState(() => refundPayment(paymentWith({ status }), 1, now)),
  );

  it.each([0, -5, 0.5, Number.POSITIVE_INFINITY])('refuses a refund of %s as a 400 on amount', (amount) => {
    expect(() => refundPayment(paymentWith(), amount, now)).toThrow(InvalidFields);
  });

  it('never refunds more than the amount, and is refunded exactly when fully refunded, whatever the sequence', () => {
    assertProperty(
      fc.property(
        integerNearBounds({ min: 1, max: maxAmount }),
        // A request is any number (amounts past the bound, 0, fractions), or what is left give or
        // take 2, so both the bound and what is left come up in every run.
        fc.array(fc.oneof(refundRequest, fc.record({ aroundLeft: fc.integer({ min: -2, max: 2 }) })), {
          maxLength: 30,
        }),
        (amount, steps) => {
          let payment = paymentWith({ amount });
          for (const step of steps) {
            const left = payment.amount - payment.amountRefunded;
            const request = typeof step === 'number' ? step : left + step.aroundLeft;
            const expected = expectedRefund(payment, request);
            expect(refundOutcome(payment, request)).toEqual(expected);
            if ('payment' in expected) payment = expected.payment;
          }
        },
      ),
      {
        // A run of the CI once found `left + 2` passing the bound: that is a 400 on amount.
        examples: [[9007199254740990, [{ aroundLeft: 2 }]]],
      },
    );
  });

  it('answers any refund of any payment as the rules say, in their order', () => {
    const anyPayment = integerNearBounds({ min: 1, max: maxAmount }).chain((amount) =>
      fc.record({
        amount: fc.constant(amount),
        amountRefunded: integerNearBounds({ min: 0, max: amount }),
        status: fc.constantFrom(...allStatuses),
      }),
    );
    assertProperty(
      fc.property(anyPayment, refundRequest, (fields, request) => {
        const payment = paymentWith(fields);
        expect(refundOutcome(payment, request)).toEqual(expectedRefund(payment, request));
      }),
    );
  });

  it('refuses as a 400 on amount a refund of what is left plus 2 when that passes the bound', () => {
    const payment = paymentWith({ amount: 9007199254740990 });
    expect(refundOutcome(payment, payment.amount + 2)).toEqual({ refused: 'validation_error on amount' });
    expect(refundOutcome(payment, payment.amount + 1)).toEqual({ refused: 'invalid_state' });
  });
});

describe('returnPayment', () => {
  it('returns a completed bank account payment', () => {
    const returned = returnPayment(paymentWith({ paymentMethodType: 'bank_account' }), now);
    expect(returned).toMatchObject({ status: 'returned', updatedAt: now });
  });

  it('refuses with 409 invalid_state to return a card payment', () => {
    expectInvalidState(() => returnPayment(paymentWith({ paymentMethodType: 'card' }), now));
  });

  it.each(allStatuses.filter((status) => status !== 'completed'))(
    'refuses with 409 invalid_state to return a %s bank account payment',
    (status) =>
      expectInvalidState(() =>
        returnPayment(paymentWith({ paymentMethodType: 'bank_account', status }), now),
      ),
  );

  it('makes a returned payment refuse refunds', () => {
    const returned = returnPayment(paymentWith({ paymentMethodType: 'bank_account' }), now);
    expectInvalidState(() => refundPayment(returned, 1, now));
  });
});

describe('newRefund', () => {
  it('records the refund with exactly the API reference’s fields, the payment’s status after it and its own', () => {
    const refunded = refundPayment(paymentWith({ currency: 'CAD' }), 10_000, now);
    const refund = newRefund({
      refundId: 'refund_01',
      refundedPayment: refunded,
      amount: 10_000,
      processorReferenceId: 'sbx_re_1',
      now,
    });
    expect(refund).toEqual({
      id: 'refund_01',
      paymentId: 'pmt_01',
      amount: 10_000,
      currency: 'CAD',
      processorReferenceId: 'sbx_re_1',
      refundedAt: now,
      paymentStatus: 'refunded',
      status: 'succeeded',
    });
  });
});

describe('refunds a processor confirms later', () => {
  it('holds the amount as pending, so no other refund takes it, until it is confirmed or released', () => {
    const payment = paymentWith({ amount: 1000 });
    const held = holdPendingRefund(payment, 600, now);
    expect(held).toMatchObject({
      amountRefunded: 0,
      amountRefundPending: 600,
      status: 'completed',
      version: payment.version,
    });
    expect(refundableAmount(held)).toBe(400);
    expect(() => refundPayment(held, 401, now)).toThrow(/more than the 400 left/);
    expect(() => holdPendingRefund(held, 401, now)).toThrow(/more than the 400 left/);
    const confirmed = confirmPendingRefund(holdPendingRefund(held, 400, now), 1000 - 400, now);
    expect(confirmed).toMatchObject({ amountRefunded: 600, amountRefundPending: 400, status: 'completed' });
    expect(confirmPendingRefund(confirmed, 400, now)).toMatchObject({
      amountRefunded: 1000,
      amountRefundPending: 0,
      status: 'refunded',
      version: payment.version + 2,
    });
    expect(releasePendingRefund(held, 600, now)).toMatchObject({ amountRefundPending: 0, amountRefunded: 0 });
    expect(() => releasePendingRefund(held, 601, now)).toThrow();
  });
});

describe('payoutAmounts', () => {
  it('takes 2.9% rounded half up plus 30 cents', () => {
    expect(payoutAmounts(10_000)).toEqual({ grossAmount: 10_000, feeAmount: 320, netAmount: 9680 });
    // 2.9% of 1500 is 43.5 → 44; of 1000 is 29; of 150 is 4.35 → 4.
    expect(payoutAmounts(1500).feeAmount).toBe(74);
    expect(payoutAmounts(1000).feeAmount).toBe(59);
    expect(payoutAmounts(150).feeAmount).toBe(34);
  });

  it('never takes more than the gross amount', () => {
    expect(payoutAmounts(0)).toEqual({ grossAmount: 0, feeAmount: 0, netAmount: 0 });
    expect(payoutAmounts(20)).toEqual({ grossAmount: 20, feeAmount: 20, netAmount: 0 });
    expect(payoutAmounts(31)).toEqual({ grossAmount: 31, feeAmount: 31, netAmount: 0 });
    expect(payoutAmounts(32)).toEqual({ grossAmount: 32, feeAmount: 31, netAmount: 1 });
  });

  it('splits any gross into a fee and a net that add up, the fee following the rule exactly', () => {
    assertProperty(
      fc.property(
        fc.oneof(integerNearBounds({ min: 0, max: maxAmount, reach: 3 }), halfCentFee, fc.double()),
        (gross) => {
          expect(payoutOutcome(gross)).toEqual(expectedPayout(gross));
        },
      ),
    );
  });

  it('never lowers the fee when the gross grows', () => {
    assertProperty(
      fc.property(integerNearBounds({ min: 0, max: maxAmount - 1 }), (gross) => {
        expect(payoutAmounts(gross + 1).feeAmount).toBeGreaterThanOrEqual(payoutAmounts(gross).feeAmount);
      }),
    );
  });

  it.each([-1, 0.5, maxAmount + 1])('refuses a gross amount of %s', (gross) => {
    expect(() => payoutAmounts(gross)).toThrow(RangeError);
  });
});

const payout = newPayout({
  payoutId: 'po_01',
  merchantId: 'mer_01',
  payoutAccountId: 'pacct_01',
  processor: 'sandbox',
  grossAmount: 10_000,
  currency: 'USD',
  now,
});

describe('newPayout', () => {
  it('computes the fee and net of the gross', () => {
    expect(payout).toEqual({
      payoutId: 'po_01',
      merchantId: 'mer_01',
      payoutAccountId: 'pacct_01',
      processor: 'sandbox',
      grossAmount: 10_000,
      feeAmount: 320,
      netAmount: 9680,
      currency: 'USD',
      createdAt: now,
    });
  });
});

describe('event builders', () => {
  const keysOf = (payload: object) => Object.keys(payload).sort();

  /** `event` is of `eventType`, of merchant mer_01, made at `createdAt`, with exactly the documented payload fields. */
  function expectDocumentedEvent(
    event: { eventType: string; merchantId: string; createdAt: string; payload: object },
    eventType: keyof typeof eventPayloadFields,
    createdAt: string,
  ) {
    expect(event).toMatchObject({ eventType, merchantId: 'mer_01', createdAt });
    expect(keysOf(event.payload)).toEqual(eventPayloadFields[eventType]);
  }

  it('builds payments.PaymentCreated with exactly the documented fields at the payment’s createdAt', () => {
    const event = paymentCreatedEvent(paymentWith({ priceId: null }), 'evt_01');
    expectDocumentedEvent(event, 'payments.PaymentCreated', created);
    expect(event.eventId).toBe('evt_01');
    expect(event.payload).toEqual({
      paymentId: 'pmt_01',
      paymentInstrumentId: 'pmi_01',
      priceId: null,
      processor: 'sandbox',
      customerId: 'cust_01',
      merchantId: 'mer_01',
      amount: 10_000,
      currency: 'USD',
      occurredAt: created,
    });
  });

  it('refuses to build payments.PaymentCreated for a declined payment', () => {
    expect(() =>
      paymentCreatedEvent(paymentWith({ status: 'declined', paymentInstrumentId: null }), 'evt_01'),
    ).toThrow();
  });

  it('builds payments.PaymentDeclined with exactly the documented fields', () => {
    const declined = paymentWith({
      status: 'declined',
      paymentInstrumentId: null,
      declineCode: 'insufficient_funds',
      declineMessage: 'The card has insufficient funds.',
    });
    const event = paymentDeclinedEvent(declined, 'evt_02');
    expectDocumentedEvent(event, 'payments.PaymentDeclined', created);
    expect(event.payload).toMatchObject({ declineCode: 'insufficient_funds', occurredAt: created });
  });

  it('refuses to build payments.PaymentDeclined for a payment that was not declined', () => {
    expect(() => paymentDeclinedEvent(paymentWith(), 'evt_02')).toThrow();
  });

  it('builds payments.PaymentRefunded with exactly the documented fields at the refund’s time', () => {
    const refunded = refundPayment(paymentWith(), 2500, now);
    const refund = newRefund({
      refundId: 'refund_01',
      refundedPayment: refunded,
      amount: 2500,
      processorReferenceId: 'sbx_re_1',
      now,
    });
    const event = paymentRefundedEvent(refunded, refund, 'evt_03');
    expectDocumentedEvent(event, 'payments.PaymentRefunded', now);
    expect(event.payload).toMatchObject({
      refundId: 'refund_01',
      refundedAmount: 2500,
      processorReferenceId: 'sbx_re_1',
    });
  });

  it('refuses to build payments.PaymentRefunded from another payment’s refund', () => {
    const refund = newRefund({
      refundId: 'refund_01',
      refundedPayment: refundPayment(paymentWith({ paymentId: 'pmt_other' }), 1, now),
      amount: 1,
      processorReferenceId: 'sbx_re_1',
      now,
    });
    expect(() => paymentRefundedEvent(paymentWith(), refund, 'evt_03')).toThrow();
  });

  it('builds payments.PaymentReturned with exactly the documented fields, returning what was not refunded', () => {
    const bankPayment = refundPayment(paymentWith({ paymentMethodType: 'bank_account' }), 1500, created);
    const returned = returnPayment(bankPayment, now);
    const event = paymentReturnedEvent(
      returned,
      { returnId: 'ret_01', processorReferenceId: 'sbx_rt_1' },
      'evt_04',
    );
    expectDocumentedEvent(event, 'payments.PaymentReturned', now);
    expect(event.payload).toMatchObject({ returnId: 'ret_01', returnedAmount: 8500, occurredAt: now });
  });

  it('refuses to build payments.PaymentReturned for a payment that was not returned', () => {
    expect(() =>
      paymentReturnedEvent(paymentWith(), { returnId: 'ret_01', processorReferenceId: 'sbx_rt_1' }, 'evt_04'),
    ).toThrow();
  });

  it('builds payouts.PayoutCreated with exactly the documented fields', () => {
    const event = payoutCreatedEvent(payout, 'evt_05');
    expectDocumentedEvent(event, 'payouts.PayoutCreated', now);
    expect(event.payload).toMatchObject({
      grossAmount: 10_000,
      feeAmount: 320,
      netAmount: 9680,
      occurredAt: now,
    });
  });
});
