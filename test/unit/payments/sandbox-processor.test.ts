import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTypeId } from '../../../functions/domain/ids';
import { newPayment, paymentDeclinedEvent, payoutFee } from '../../../functions/domain/payment';
import type { CardDetails, ChargeRequest } from '../../../functions/payments/payment-processor';
import {
  isReturnedLater,
  SandboxDecline,
  type SandboxDeclineCode,
  SandboxProcessor,
  SandboxTestNumbers,
} from '../../../functions/payments/sandbox-processor';
import { routeList } from '../../../functions/routes';
import { integerNearBounds } from '../../support/integer-near-bounds';
import { passesLuhn } from '../../support/log-secrets';
import { assertProperty } from '../../support/property';

const now = new Date('2026-11-15T12:00:00.000Z');
const processor = new SandboxProcessor({ now: () => now });

function card(number: string, overrides: Partial<Omit<CardDetails, 'type'>> = {}): ChargeRequest['method'] {
  const cvc = /^3[47]/.test(number) ? '1234' : '123';
  return { type: 'card', number, expMonth: 12, expYear: 2030, cvc, ...overrides };
}

function bankAccount(accountNumber: string, routingNumber = '110000000'): ChargeRequest['method'] {
  return { type: 'bank_account', routingNumber, accountNumber };
}

function charge(method: ChargeRequest['method'], idempotencyKey = 'pmt_key', at = processor) {
  return at.charge({ amount: 2500, currency: 'USD', method, idempotencyKey });
}

/** What succeeded or which decline code, the way the docs state an outcome. */
async function outcomeOf(method: ChargeRequest['method']): Promise<string> {
  const result = await charge(method);
  return result.outcome === 'succeeded' ? 'succeeded' : result.declineCode;
}

/** The documented numbers, written out here so that an edit of the table cannot change them unnoticed. */
const documentedCards = [
  ['4242424242424242', 'succeeded'],
  ['5555555555554444', 'succeeded'],
  ['378282246310005', 'succeeded'],
  ['4000000000009995', 'insufficient_funds'],
  ['4000000000000002', 'card_declined'],
  ['4000000000000036', 'do_not_honor'],
  ['4000000000000069', 'expired_card'],
  ['4000000000000127', 'incorrect_cvc'],
] as const;

const documentedBankAccounts = [
  ['000123456789', 'succeeded', false],
  ['000111111113', 'account_closed', false],
  ['000222222227', 'succeeded', true],
] as const;

describe('SandboxProcessor test numbers', () => {
  it('names itself sandbox, the processor of its payments', () => {
    expect(processor.name).toBe('sandbox');
  });

  it('publishes exactly the documented cards and bank accounts', () => {
    expect(SandboxTestNumbers.cards.map((row) => [row.number, row.outcome])).toEqual(documentedCards);
    expect(
      SandboxTestNumbers.bankAccounts.map((row) => [row.accountNumber, row.outcome, row.returnedLater]),
    ).toEqual(documentedBankAccounts);
    expect(SandboxTestNumbers.bankAccounts.every((row) => row.routingNumber === '110000000')).toBe(true);
  });

  it.each(documentedCards)('gives card %s the outcome %s', async (number, outcome) => {
    expect(await outcomeOf(card(number))).toBe(outcome);
  });

  it.each(documentedBankAccounts)('gives bank account %s the outcome %s', async (accountNumber, outcome) => {
    expect(await outcomeOf(bankAccount(accountNumber))).toBe(outcome);
  });

  it.each(documentedBankAccounts)(
    'says whether bank account %s is returned later (%s, %s)',
    (accountNumber, _outcome, returnedLater) => {
      expect(isReturnedLater(accountNumber)).toBe(returnedLater);
    },
  );

  it('says an account that is not a test account is not returned later', () => {
    expect(isReturnedLater('000999999999')).toBe(false);
    expect(isReturnedLater('')).toBe(false);
  });

  it('succeeds with a sandbox charge reference and a pmi_ payment instrument', async () => {
    const result = await charge(card('4242424242424242'));
    if (result.outcome !== 'succeeded') throw new Error('expected success');
    expect(result.processorReferenceId).toMatch(/^sbx_ch_[0-9a-f]{24}$/);
    expect(isTypeId(result.paymentInstrumentId, 'pmi')).toBe(true);
  });

  it('declines with the code’s documented message and a charge reference', async () => {
    const result = await charge(card('4000000000009995'));
    expect(result).toEqual({
      outcome: 'declined',
      processorReferenceId: expect.stringMatching(/^sbx_ch_[0-9a-f]{24}$/),
      declineCode: 'insufficient_funds',
      declineMessage: SandboxDecline.insufficient_funds,
    });
  });

  it('gives answers the domain takes as they are', async () => {
    const declined = await charge(card('4000000000000002'), 'pmt_declined');
    const payment = newPayment({
      paymentId: 'pmt_declined',
      merchantId: 'mer_01',
      customerId: 'cust_01',
      invoiceId: null,
      priceId: null,
      amount: 2500,
      currency: 'USD',
      paymentMethodType: 'card',
      processor: processor.name,
      charge: declined,
      now: now.toISOString(),
    });
    if (declined.outcome !== 'declined') throw new Error('expected a decline');
    expect(paymentDeclinedEvent(payment, 'evt_01').payload).toMatchObject({
      processor: 'sandbox',
      declineCode: 'card_declined',
      declineMessage: SandboxDecline.card_declined,
    });
  });
});

describe('SandboxProcessor card checks', () => {
  it('declines a past expiry date as expired_card, even on a card that succeeds', async () => {
    expect(await outcomeOf(card('4242424242424242', { expMonth: 10, expYear: 2026 }))).toBe('expired_card');
    expect(await outcomeOf(card('4242424242424242', { expMonth: 1, expYear: 2020 }))).toBe('expired_card');
  });

  it('keeps a card valid through the last moment of its expiry month, UTC', async () => {
    const endOfMonth = new SandboxProcessor({ now: () => new Date('2026-11-30T23:59:59.999Z') });
    const nextMonth = new SandboxProcessor({ now: () => new Date('2026-12-01T00:00:00.000Z') });
    const november = card('4242424242424242', { expMonth: 11, expYear: 2026 });
    expect((await charge(november, 'k', endOfMonth)).outcome).toBe('succeeded');
    expect(await charge(november, 'k', nextMonth)).toMatchObject({ declineCode: 'expired_card' });
  });

  it.each([
    { expMonth: 0, expYear: 2030 },
    { expMonth: 13, expYear: 2030 },
    { expMonth: 1.5, expYear: 2030 },
    { expMonth: 12, expYear: 30 },
    { expMonth: 12, expYear: 20301 },
    { expMonth: Number.NaN, expYear: 2030 },
  ])('declines an expiry of $expMonth/$expYear as invalid_expiry', async (expiry) => {
    expect(await outcomeOf(card('4242424242424242', expiry))).toBe('invalid_expiry');
  });

  it.each([
    ['4242424242424242', '12'],
    ['4242424242424242', '1234'],
    ['4242424242424242', '12a'],
    ['378282246310005', '123'],
  ])('declines card %s with security code %s as invalid_cvc', async (number, cvc) => {
    expect(await outcomeOf(card(number, { cvc }))).toBe('invalid_cvc');
  });

  it.each([
    '4242424242424241',
    '4242 4242 4242 4242',
    '4242-4242-4242-4242',
    '42424242424',
    '42424242424242424242',
    '',
    '٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢',
  ])('declines card number %j as invalid_number', async (number) => {
    expect(await outcomeOf(card(number))).toBe('invalid_number');
  });

  it('declines a card number with any one digit changed as invalid_number (Luhn)', async () => {
    await assertProperty(
      fc.asyncProperty(
        fc.constantFrom(...SandboxTestNumbers.cards.map((row) => row.number)),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        async (number, position, shift) => {
          const index = position % number.length;
          const digit = (Number(number[index]) + shift) % 10;
          const changed = `${number.slice(0, index)}${digit}${number.slice(index + 1)}`;
          expect(await outcomeOf(card(changed))).toBe('invalid_number');
        },
      ),
    );
  });

  it('accepts exactly one of the ten last digits of any 12 to 19 digit number (Luhn)', async () => {
    await assertProperty(
      fc.asyncProperty(digits(integerNearBounds({ min: 11, max: 18 })), async (prefix) => {
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, digit) => outcomeOf(card(`${prefix}${digit}`, { cvc: '1234' }))),
        );
        // A 4-digit code is refused for every card but American Express, after the Luhn check.
        expect(outcomes.filter((outcome) => outcome !== 'invalid_number')).toHaveLength(1);
      }),
    );
  });

  it('declines a well-formed card that is not a test card as test_mode_live_card', async () => {
    expect(await outcomeOf(card('4000000000000044'))).toBe('test_mode_live_card');
    expect(await outcomeOf(card('4111111111111111'))).toBe('test_mode_live_card');
  });

  it('answers any card details exactly as the checks say, in their order', async () => {
    await assertProperty(
      fc.asyncProperty(cardNumber, expMonth, expYear, securityCode, async (number, month, year, code) => {
        const method = card(number, {
          expMonth: month,
          expYear: year,
          ...(code === undefined ? {} : { cvc: code }),
        });
        if (method.type !== 'card') throw new Error('expected a card');
        const result = await charge(method);
        const expected = expectedCardOutcome(method, now);
        if (expected === 'succeeded') expect(result.outcome).toBe('succeeded');
        else
          expect(result).toMatchObject({
            outcome: 'declined',
            declineCode: expected,
            declineMessage: SandboxDecline[expected],
          });
      }),
      {
        // Every limit once in each run: lengths 11, 12, 19, 20; years 999, 1000, 9999, 10000;
        // months 0, 1, 12, 13; American Express by 34 as well as 37.
        examples: [
          ['42424242420', 12, 2030, undefined],
          ['424242424242', 12, 2030, undefined],
          ['4242424242424242428', 12, 2030, undefined],
          ['42424242424242424242', 12, 2030, undefined],
          ['4242424242424242', 12, 999, undefined],
          ['4242424242424242', 1, 1000, undefined],
          ['4242424242424242', 12, 9999, undefined],
          ['4242424242424242', 1, 10000, undefined],
          ['4242424242424242', 0, 2030, undefined],
          ['4242424242424242', 1, 2030, undefined],
          ['4242424242424242', 13, 2030, undefined],
          ['340000000000009', 12, 2030, undefined],
          ['340000000000009', 12, 2030, '123'],
          ['378282246310005', 12, 2030, '123'],
        ],
      },
    );
  });

  it('keeps any valid card through the last millisecond of its expiry month, UTC, and no longer', async () => {
    await assertProperty(
      fc.asyncProperty(
        integerNearBounds({ min: 1, max: 12 }),
        integerNearBounds({ min: 1000, max: 9999 }),
        fc.integer({ min: -1, max: 0 }),
        async (month, year, offset) => {
          // Date.UTC counts months from 0: (year, month) is the first moment of the next month.
          const at = new Date(Date.UTC(year, month, 1) + offset);
          const clock = new SandboxProcessor({ now: () => at });
          const result = await charge(
            card('4242424242424242', { expMonth: month, expYear: year }),
            'k',
            clock,
          );
          expect(result.outcome === 'succeeded' ? 'succeeded' : result.declineCode).toBe(
            offset < 0 ? 'succeeded' : 'expired_card',
          );
        },
      ),
    );
  });
});

describe('SandboxProcessor bank account checks', () => {
  it.each(['11000000', '1100000000', '123456789', '11000000a'])(
    'declines routing number %s as invalid_routing_number',
    async (routingNumber) => {
      expect(await outcomeOf(bankAccount('000123456789', routingNumber))).toBe('invalid_routing_number');
    },
  );

  it.each(['123', '123456789012345678', '0001234567a9', ''])(
    'declines account number %j as invalid_account_number',
    async (accountNumber) => {
      expect(await outcomeOf(bankAccount(accountNumber))).toBe('invalid_account_number');
    },
  );

  it('declines a valid routing number of another bank as test_mode_live_account', async () => {
    expect(await outcomeOf(bankAccount('000123456789', '021000021'))).toBe('test_mode_live_account');
  });

  it('declines an account of the sandbox bank that is not a test account as test_mode_live_account', async () => {
    expect(await outcomeOf(bankAccount('000999999999'))).toBe('test_mode_live_account');
  });

  it('answers any bank details exactly as the checks say, in their order', async () => {
    await assertProperty(
      fc.asyncProperty(routingNumber, accountNumber, async (routing, account) => {
        const method = bankAccount(account, routing);
        expect(await outcomeOf(method)).toBe(expectedBankOutcome(routing, account));
      }),
      {
        // Account numbers of 3, 4, 17 and 18 digits; routing numbers of 8 and 10 digits, and one
        // digit off the sandbox's.
        examples: [
          ['110000000', '123'],
          ['110000000', '1234'],
          ['110000000', '12345678901234567'],
          ['110000000', '123456789012345678'],
          ['11000000', '000123456789'],
          ['1100000000', '000123456789'],
          ['110000001', '000123456789'],
          ['021000021', '000123456789'],
        ],
      },
    );
  });
});

describe('SandboxProcessor determinism', () => {
  it('answers the same idempotency key with the same result and ids, in another instance too', async () => {
    const other = new SandboxProcessor({ now: () => now });
    const first = await charge(card('4242424242424242'), 'pmt_same');
    expect(await charge(card('4242424242424242'), 'pmt_same')).toEqual(first);
    expect(await charge(card('4242424242424242'), 'pmt_same', other)).toEqual(first);
    expect(await charge(bankAccount('000111111113'), 'pmt_same2')).toEqual(
      await charge(bankAccount('000111111113'), 'pmt_same2', other),
    );
  });

  it('gives different idempotency keys different ids', async () => {
    await assertProperty(
      fc.asyncProperty(fc.string(), fc.string(), async (a, b) => {
        fc.pre(a !== b);
        const [first, second] = await Promise.all([
          charge(card('4242424242424242'), a),
          charge(card('4242424242424242'), b),
        ]);
        if (first.outcome !== 'succeeded' || second.outcome !== 'succeeded')
          throw new Error('expected success');
        expect(first.processorReferenceId).not.toBe(second.processorReferenceId);
        expect(first.paymentInstrumentId).not.toBe(second.paymentInstrumentId);
      }),
    );
  });

  it('refunds a sandbox charge with a reference derived from the refund’s idempotency key', async () => {
    const charged = await charge(card('4242424242424242'), 'pmt_refunded');
    const refund = (idempotencyKey: string) =>
      processor.refund({
        processorReferenceId: charged.processorReferenceId,
        amount: 100,
        currency: 'USD',
        idempotencyKey,
      });
    const first = await refund('refund_1');
    expect(first.processorReferenceId).toMatch(/^sbx_re_[0-9a-f]{24}$/);
    expect(await refund('refund_1')).toEqual(first);
    expect((await refund('refund_2')).processorReferenceId).not.toBe(first.processorReferenceId);
  });

  it('refuses to refund a charge that is not the sandbox’s', async () => {
    await expect(
      processor.refund({
        processorReferenceId: 'ch_live_1',
        amount: 100,
        currency: 'USD',
        idempotencyKey: 'k',
      }),
    ).rejects.toThrow(RangeError);
  });

  it('gives a return of a sandbox charge a reference derived from its idempotency key', async () => {
    const charged = await charge(bankAccount('000222222227'), 'pmt_returned');
    const first = processor.returnReference({
      processorReferenceId: charged.processorReferenceId,
      idempotencyKey: 'ret_1',
    });
    expect(first.processorReferenceId).toMatch(/^sbx_rt_[0-9a-f]{24}$/);
    expect(
      processor.returnReference({
        processorReferenceId: charged.processorReferenceId,
        idempotencyKey: 'ret_1',
      }),
    ).toEqual(first);
    expect(() =>
      processor.returnReference({ processorReferenceId: 'ch_live_1', idempotencyKey: 'ret_1' }),
    ).toThrow(RangeError);
  });

  it.each([0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1])(
    'refuses an amount of %s as a bug, not a decline',
    async (amount) => {
      const method = card('4242424242424242');
      await expect(
        processor.charge({ amount, currency: 'USD', method, idempotencyKey: 'k' }),
      ).rejects.toThrow(RangeError);
      await expect(
        processor.refund({ processorReferenceId: 'sbx_ch_1', amount, currency: 'USD', idempotencyKey: 'k' }),
      ).rejects.toThrow(RangeError);
    },
  );

  it('charges and refunds exactly the amounts from 1 to 9007199254740991', async () => {
    await assertProperty(
      fc.asyncProperty(
        fc.oneof(integerNearBounds({ min: 1, max: Number.MAX_SAFE_INTEGER, reach: 3 }), fc.double()),
        async (amount) => {
          const method = card('4242424242424242');
          const charged = processor.charge({ amount, currency: 'USD', method, idempotencyKey: 'k' });
          const refunded = processor.refund({
            processorReferenceId: 'sbx_ch_1',
            amount,
            currency: 'USD',
            idempotencyKey: 'k',
          });
          if (Number.isInteger(amount) && amount >= 1 && amount <= Number.MAX_SAFE_INTEGER) {
            expect((await charged).outcome).toBe('succeeded');
            expect((await refunded).processorReferenceId).toMatch(/^sbx_re_/);
          } else {
            await expect(charged).rejects.toThrow(RangeError);
            await expect(refunded).rejects.toThrow(RangeError);
          }
        },
      ),
    );
  });
});

describe('docs/sandbox-testing.md', () => {
  const guide = readFileSync(new URL('../../../docs/sandbox-testing.md', import.meta.url), 'utf8');

  /** The table lines right after the `<!-- name: … -->` marker, up to the blank line. */
  function tableAfter(name: string): string[] {
    const start = guide.indexOf(`<!-- ${name}: `);
    expect(start).toBeGreaterThanOrEqual(0);
    const lines = guide.slice(start).split('\n').slice(1);
    return lines.slice(0, lines.indexOf(''));
  }

  const outcome = (result: string) => (result === 'succeeded' ? 'Succeeds' : `Declined: \`${result}\``);

  it('lists exactly the test cards of SandboxTestNumbers, with their outcomes', () => {
    expect(tableAfter('cards')).toEqual([
      '| Card number | Brand | Outcome |',
      '|---|---|---|',
      ...SandboxTestNumbers.cards.map(
        (row) => `| \`${row.number}\` | ${row.brand} | ${outcome(row.outcome)} |`,
      ),
    ]);
  });

  it('lists exactly the test bank accounts of SandboxTestNumbers, with their outcomes', () => {
    expect(tableAfter('bank accounts')).toEqual([
      '| Routing number | Account number | Outcome |',
      '|---|---|---|',
      ...SandboxTestNumbers.bankAccounts.map(
        (row) =>
          `| \`${row.routingNumber}\` | \`${row.accountNumber}\` | ${outcome(row.outcome)}${row.returnedLater ? ', then returned later' : ''} |`,
      ),
    ]);
  });

  it('lists every decline code with its exact message', () => {
    expect(tableAfter('declines')).toEqual([
      '| declineCode | declineMessage |',
      '|---|---|',
      ...Object.entries(SandboxDecline).map(([code, message]) => `| \`${code}\` | ${message} |`),
    ]);
  });

  it('names every sandbox route of the route table', () => {
    const sandboxRoutes = routeList.filter((route) => route.path.startsWith('/sandbox/'));
    expect(sandboxRoutes).toHaveLength(4);
    for (const route of sandboxRoutes) expect(guide).toContain(`\`${route.method} ${route.path}\``);
  });

  it('states the payout fee rule of payoutFee', () => {
    const prose = guide.replace(/\s+/g, ' ');
    expect(prose).toContain(
      `${payoutFee.basisPoints / 100}% of the gross amount, rounded half up to the cent, plus ${payoutFee.fixedAmount} cents`,
    );
  });
});

/** Digit strings whose length the given arbitrary picks. */
function digits(length: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return length.chain((size) =>
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: size, maxLength: size }),
  );
}

/** `prefix` completed with the one last digit that passes Luhn. */
function withLuhnDigit(prefix: string): string {
  const digit = [...'0123456789'].find((candidate) => passesLuhn(prefix + candidate)) ?? '0';
  return prefix + digit;
}

const testCardNumbers = SandboxTestNumbers.cards.map((row) => row.number);

/**
 * Mostly details that pass the check at hand, so every later check is reached too: test cards and
 * well-formed cards of about 12 to 19 digits, American Express (34, 37) among them; then any
 * digits, the forms a payer types that the API leaves to the processor (spaces, dashes, other
 * scripts' digits), any text.
 */
const cardNumber = fc.oneof(
  { arbitrary: fc.constantFrom(...testCardNumbers), weight: 6 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom('34', '37', '4', '5', ''), digits(integerNearBounds({ min: 8, max: 17 })))
      .map(([brand, rest]) => withLuhnDigit(brand + rest)),
    weight: 6,
  },
  { arbitrary: digits(fc.integer({ min: 0, max: 22 })), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      '4242 4242 4242 4242',
      '4242-4242-4242-4242',
      '٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢',
      ' 4242424242424242',
    ),
    weight: 1,
  },
  { arbitrary: fc.string(), weight: 1 },
);
const expMonth = fc.oneof(
  { arbitrary: integerNearBounds({ min: 1, max: 12 }), weight: 6 },
  { arbitrary: fc.constantFrom(0, 13, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0), weight: 1 },
  { arbitrary: fc.oneof(fc.integer(), fc.double()), weight: 1 },
);
/** Years around the sandbox clock's (2026) most often, so expired and unexpired both come up. */
const expYear = fc.oneof(
  { arbitrary: fc.integer({ min: 2025, max: 2028 }), weight: 4 },
  { arbitrary: integerNearBounds({ min: 1000, max: 9999, reach: 3 }), weight: 3 },
  { arbitrary: fc.oneof(fc.integer(), fc.double()), weight: 1 },
);
/** Mostly none, for the code that fits the card (`card` picks 3 or 4 digits); else any. */
const securityCode = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 6 },
  { arbitrary: digits(fc.integer({ min: 0, max: 5 })), weight: 1 },
  { arbitrary: fc.constantFrom('12a', '٣٣٣', ' 123', '1234 '), weight: 1 },
  { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
);

/**
 * The card checks of docs/sandbox-testing.md, in their order: 12–19 digits passing Luhn; month
 * 1–12 and a four-digit year; 4 digits of security code for American Express (34, 37), else 3;
 * valid through the end of the expiry month, UTC; then the test card's outcome, or not a test card.
 */
function expectedCardOutcome(
  details: { number: string; expMonth: number; expYear: number; cvc: string },
  at: Date,
): 'succeeded' | SandboxDeclineCode {
  if (!/^[0-9]{12,19}$/.test(details.number) || !passesLuhn(details.number)) return 'invalid_number';
  const { expMonth: month, expYear: year } = details;
  if (
    !(
      Number.isInteger(month) &&
      month >= 1 &&
      month <= 12 &&
      Number.isInteger(year) &&
      year >= 1000 &&
      year <= 9999
    )
  ) {
    return 'invalid_expiry';
  }
  const amex = details.number.startsWith('34') || details.number.startsWith('37');
  if (!(amex ? /^[0-9]{4}$/ : /^[0-9]{3}$/).test(details.cvc)) return 'invalid_cvc';
  const endOfMonth = month === 12 ? Date.UTC(year + 1, 0, 1) : Date.UTC(year, month, 1);
  if (at.getTime() >= endOfMonth) return 'expired_card';
  return (
    SandboxTestNumbers.cards.find((row) => row.number === details.number)?.outcome ?? 'test_mode_live_card'
  );
}

/** ABA routing numbers: digits weighted 3, 7, 1, 3, 7, 1, 3, 7, 1 add up to a multiple of 10. */
function passesAba(routing: string): boolean {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return (
    [...routing].reduce((sum, digit, index) => sum + Number(digit) * (weights[index] ?? 0), 0) % 10 === 0
  );
}

/** Routing numbers: mostly the sandbox's; another bank's; any valid one; near misses; any text. */
const routingNumber = fc.oneof(
  { arbitrary: fc.constant('110000000'), weight: 6 },
  {
    arbitrary: fc.oneof(
      fc.constant('021000021'),
      digits(fc.constant(8)).map(
        (prefix) => [...'0123456789'].map((last) => prefix + last).find(passesAba) ?? prefix,
      ),
    ),
    weight: 2,
  },
  { arbitrary: digits(integerNearBounds({ min: 8, max: 10 })), weight: 1 },
  { arbitrary: fc.string({ maxLength: 10 }), weight: 1 },
);
/** Account numbers: mostly the test accounts; 3 to 18 digits (4 and 17 are the limits); any text. */
const accountNumber = fc.oneof(
  {
    arbitrary: fc.constantFrom(...SandboxTestNumbers.bankAccounts.map((row) => row.accountNumber)),
    weight: 4,
  },
  { arbitrary: digits(integerNearBounds({ min: 4, max: 17, reach: 1 })), weight: 3 },
  { arbitrary: fc.string({ maxLength: 18 }), weight: 1 },
);

/** The bank checks, in their order: a valid ABA routing number, 4–17 digits, the sandbox's bank, a test account. */
function expectedBankOutcome(routing: string, account: string): string {
  if (!/^[0-9]{9}$/.test(routing) || !passesAba(routing)) return 'invalid_routing_number';
  if (!/^[0-9]{4,17}$/.test(account)) return 'invalid_account_number';
  if (routing !== '110000000') return 'test_mode_live_account';
  return (
    SandboxTestNumbers.bankAccounts.find((row) => row.accountNumber === account)?.outcome ??
    'test_mode_live_account'
  );
}
