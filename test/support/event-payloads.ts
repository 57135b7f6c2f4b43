import { newId } from '../../functions/domain/ids';
import {
  applyPayment,
  type DomainEvent,
  type Invoice,
  invoicePaidEvent,
  invoiceSentEvent,
  issueWithEvents,
  newInvoice,
  priceLineItems,
  resendInvoice,
} from '../../functions/domain/invoice';
import type { Currency } from '../../functions/domain/money';
import {
  type ChargeOutcome,
  newPayment,
  newPayout,
  newRefund,
  type Payment,
  paymentCreatedEvent,
  paymentDeclinedEvent,
  paymentRefundedEvent,
  paymentReturnedEvent,
  payoutCreatedEvent,
  refundPayment,
  returnPayment,
} from '../../functions/domain/payment';
import { testDeliveryOf } from '../../functions/domain/test-delivery';
import { subscribableEventTypes } from '../../functions/domain/webhook-endpoint';
import { deliveryBody } from '../../functions/domain/webhook-signature';

/**
 * Events as the domain builds them (functions/domain/invoice.ts, functions/domain/payment.ts) from
 * realistic inputs: the sandbox's and Stripe's charges, a payment for a price and one for an
 * invoice (priceId null), partial and full refunds, a return after a refund, payouts of 0 and more,
 * an invoice of total 0 paid as it is issued, a resend and a payment that completes an invoice.
 * Each is named by what it shows, for the tests that check its `data` against the event schemas.
 */

const merchantId = newId('mer');
const customerId = newId('cust');
const productId = newId('prod');
const priceId = newId('price');
const freePriceId = newId('price');
const at = (minute: number) => `2026-03-01T12:${String(minute).padStart(2, '0')}:00.000Z`;

const sandboxCharge = (): ChargeOutcome => ({
  outcome: 'succeeded',
  processorReferenceId: 'ch_sbx_8f3a2c1d',
  paymentInstrumentId: newId('pmi'),
});

function paymentOf(input: {
  invoiceId?: string;
  priceId?: string;
  amount?: number;
  currency?: Currency;
  method?: Payment['paymentMethodType'];
  processor?: string;
  charge?: ChargeOutcome;
}): Payment {
  return newPayment({
    paymentId: newId('pmt'),
    merchantId,
    customerId,
    invoiceId: input.invoiceId ?? null,
    priceId: input.priceId ?? null,
    amount: input.amount ?? 2500,
    currency: input.currency ?? 'USD',
    paymentMethodType: input.method ?? 'card',
    processor: input.processor ?? 'sandbox',
    charge: input.charge ?? sandboxCharge(),
    now: at(0),
  });
}

function refundedOf(payment: Payment, amount: number, minute: number): DomainEvent {
  const refunded = refundPayment(payment, amount, at(minute));
  const refund = newRefund({
    refundId: newId('refund'),
    refundedPayment: refunded,
    amount,
    processorReferenceId: 're_3Qx7b2',
    now: at(minute),
  });
  return paymentRefundedEvent(refunded, refund, newId('evt'));
}

function paymentEvents(): Record<string, DomainEvent> {
  const forPrice = paymentOf({ priceId });
  const stripe = paymentOf({
    invoiceId: newId('inv'),
    amount: 125_000,
    currency: 'CAD',
    processor: 'stripe',
    charge: { outcome: 'succeeded', processorReferenceId: 'pi_3Qx7', paymentInstrumentId: 'pm_1Qx7' },
  });
  const declined = paymentOf({
    charge: {
      outcome: 'declined',
      processorReferenceId: 'ch_sbx_decl',
      declineCode: 'insufficient_funds',
      declineMessage: 'The card has insufficient funds.',
    },
  });
  const bank = paymentOf({ method: 'bank_account', amount: 9000 });
  const partlyRefundedBank = refundPayment(bank, 4000, at(5));
  return {
    'a sandbox payment for a price': paymentCreatedEvent(forPrice, newId('evt')),
    'a Stripe payment of an invoice (priceId null)': paymentCreatedEvent(stripe, newId('evt')),
    'a declined payment': paymentDeclinedEvent(declined, newId('evt')),
    'a partial refund': refundedOf(forPrice, 1000, 3),
    'a full refund': refundedOf(stripe, 125_000, 4),
    'a return of a bank payment': paymentReturnedEvent(
      returnPayment(bank, at(6)),
      { returnId: newId('ret'), processorReferenceId: 'ch_sbx_ret' },
      newId('evt'),
    ),
    'a return after a partial refund': paymentReturnedEvent(
      returnPayment(partlyRefundedBank, at(7)),
      { returnId: newId('ret'), processorReferenceId: 'ch_sbx_ret2' },
      newId('evt'),
    ),
  };
}

function payoutEvents(): Record<string, DomainEvent> {
  const payout = (grossAmount: number, payoutAccountId: string, processor: string) =>
    payoutCreatedEvent(
      newPayout({
        payoutId: newId('po'),
        merchantId,
        payoutAccountId,
        processor,
        grossAmount,
        currency: 'USD',
        now: at(8),
      }),
      newId('evt'),
    );
  return {
    'a sandbox payout': payout(10_000, newId('pacct'), 'sandbox'),
    'a payout of 0': payout(0, newId('pacct'), 'sandbox'),
    'a Stripe payout to a bank account': payout(52_000, 'ba_1Qx7', 'stripe'),
  };
}

function draftInvoice(unitPriceId: string, quantity: number): Invoice {
  const catalog = {
    product: (id: string) => (id === productId ? { name: 'Tea', active: true } : undefined),
    price: (id: string) =>
      id === priceId || id === freePriceId
        ? { productId, unitAmount: id === priceId ? 1250 : 0, currency: 'USD' as const }
        : undefined,
  };
  return newInvoice({
    invoiceId: newId('inv'),
    sequence: 42,
    invoiceUrlSlug: 'slug-of-the-test-invoice',
    idempotencyKey: 'create-invoice-42',
    merchantId,
    customerId,
    currency: 'USD',
    lineItems: priceLineItems(
      [{ kind: 'product_charge', productId, priceId: unitPriceId, quantity }],
      'USD',
      catalog,
    ),
    acceptedPaymentMethods: ['card'],
    additionalNotificationEmails: [],
    now: at(10),
  });
}

function invoiceEvents(): Record<string, DomainEvent> {
  const evt = () => newId('evt');
  const issued = issueWithEvents(draftInvoice(priceId, 2), at(11), evt);
  const [free, freePaid] = issueWithEvents(draftInvoice(freePriceId, 1), at(11), evt).events;
  const paid = applyPayment(issued.next, issued.next.amountRemaining.amount, at(13));
  if (free === undefined || freePaid === undefined) throw new Error('an invoice of total 0 sends two events');
  return {
    'an issued invoice': issued.events[0] as DomainEvent,
    'a resent invoice': invoiceSentEvent(resendInvoice(issued.next, at(12)), true, evt(), at(12)),
    'the InvoiceSent of an invoice of total 0': free,
    'the InvoicePaid of an invoice of total 0 (amount 0)': freePaid,
    'an invoice paid in full': invoicePaidEvent(paid, evt()),
  };
}

/** Every built event, by what it shows. */
export function builtEvents(): Record<string, DomainEvent> {
  return { ...paymentEvents(), ...payoutEvents(), ...invoiceEvents() };
}

/** A delivery body as the dispatcher sends it (`deliveryBody`), read back as a receiver parses it. */
export function deliveredBodyOf(event: Pick<DomainEvent, 'eventType' | 'payload'>): unknown {
  return JSON.parse(
    deliveryBody({
      deliveryId: newId('whkdel'),
      eventType: event.eventType,
      createdAt: at(30),
      data: event.payload,
    }),
  );
}

/** One test delivery (`POST …/test`) of each subscribable type: its event type and body. */
export function testDeliveryBodies(): { readonly type: string; readonly body: unknown }[] {
  return subscribableEventTypes.map((eventType) => {
    const delivery = testDeliveryOf({ webhookEndpointId: newId('whk'), merchantId, eventType, now: at(40) });
    return {
      type: eventType,
      body: JSON.parse(
        deliveryBody({
          deliveryId: delivery.webhookDeliveryId,
          eventType: delivery.eventType,
          createdAt: delivery.createdAt,
          data: delivery.data,
        }),
      ),
    };
  });
}
