import { describe, expect, it } from 'vitest';
import { eventObjectOf } from '../../../functions/domain/event-object';
import {
  applyPayment,
  EventType,
  invoicePaidEvent,
  invoiceSentEvent,
  issueInvoice,
  resendInvoice,
} from '../../../functions/domain/invoice';
import {
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
} from '../../../functions/domain/payment';
import { invoiceIn } from '../../support/domain-invoice';

const now = '2026-11-22T12:00:00.000Z';

const draft = invoiceIn('draft', 1000, 0, { currentRevisionNumber: 1, createdAt: now, updatedAt: now });

function payment(paymentMethodType: Payment['paymentMethodType'] = 'bank_account'): Payment {
  return newPayment({
    paymentId: 'pmt_1',
    merchantId: 'mer_1',
    customerId: 'cust_1',
    invoiceId: null,
    priceId: null,
    amount: 1000,
    currency: 'USD',
    paymentMethodType,
    processor: 'sandbox',
    charge: { outcome: 'succeeded', processorReferenceId: 'sbx_1', paymentInstrumentId: 'pmi_1' },
    now,
  });
}

describe('invoice events', () => {
  it('carry the invoice and its currentRevisionNumber after the change, beside the payload', () => {
    const issued = issueInvoice(draft, now);
    const sent = invoiceSentEvent(issued, false, 'evt_1', now);
    expect(sent).toMatchObject({ objectId: 'inv_1', objectVersion: 2 });
    const resent = invoiceSentEvent(resendInvoice(issued, now), true, 'evt_2', now);
    expect(resent).toMatchObject({ objectId: 'inv_1', objectVersion: 3 });
    const paid = invoicePaidEvent(applyPayment(issued, 1000, now), 'evt_3');
    expect(paid).toMatchObject({ objectId: 'inv_1', objectVersion: 3 });
    for (const event of [sent, resent, paid]) {
      expect(event.payload).not.toHaveProperty('objectId');
      expect(event.payload).not.toHaveProperty('objectVersion');
    }
  });
});

describe('payment events', () => {
  it('carry a version that starts at 1 and grows by one with each change of the payment', () => {
    const created = payment();
    expect(paymentCreatedEvent(created, 'evt_1')).toMatchObject({ objectId: 'pmt_1', objectVersion: 1 });
    const partly = refundPayment(created, 300, now);
    const refund = newRefund({
      refundId: 'refund_1',
      refundedPayment: partly,
      amount: 300,
      processorReferenceId: 'sbx_r1',
      now,
    });
    expect(paymentRefundedEvent(partly, refund, 'evt_2')).toMatchObject({ objectVersion: 2 });
    const returned = returnPayment(partly, now);
    expect(
      paymentReturnedEvent(returned, { returnId: 'ret_1', processorReferenceId: 'sbx_ret' }, 'evt_3'),
    ).toMatchObject({ objectId: 'pmt_1', objectVersion: 3 });
  });

  it('gives a declined payment’s event version 1', () => {
    const declined = newPayment({
      ...payment(),
      priceId: null,
      charge: { outcome: 'declined', processorReferenceId: 'sbx_2', declineCode: 'd', declineMessage: 'm' },
      now,
    });
    expect(paymentDeclinedEvent(declined, 'evt_1')).toMatchObject({ objectId: 'pmt_1', objectVersion: 1 });
  });
});

describe('payout events', () => {
  it('are always of version 1: a payout never changes', () => {
    const payout = newPayout({
      payoutId: 'po_1',
      merchantId: 'mer_1',
      payoutAccountId: 'pacct_1',
      processor: 'sandbox',
      grossAmount: 1000,
      currency: 'USD',
      now,
    });
    expect(payoutCreatedEvent(payout, 'evt_1')).toMatchObject({ objectId: 'po_1', objectVersion: 1 });
  });
});

describe('eventObjectOf', () => {
  it('reads the object written beside the payload', () => {
    const item = {
      eventType: EventType.invoicePaid,
      payload: { invoiceId: 'inv_1' },
      objectId: 'inv_1',
      objectVersion: 4,
    };
    expect(eventObjectOf(item)).toEqual({ objectId: 'inv_1', objectVersion: 4 });
  });

  it.each([
    [EventType.invoiceSent, { invoiceId: 'inv_1', customerId: 'cust_1' }, 'inv_1'],
    [EventType.paymentCreated, { paymentId: 'pmt_1', priceId: 'price_1' }, 'pmt_1'],
    [EventType.paymentRefunded, { refundId: 'refund_1', paymentId: 'pmt_1' }, 'pmt_1'],
    [EventType.payoutCreated, { payoutId: 'po_1', payoutAccountId: 'pacct_1' }, 'po_1'],
  ])(
    'falls back, for a %s written before objects were kept, to the payload’s id and no version',
    (eventType, payload, objectId) => {
      expect(eventObjectOf({ eventType, payload })).toEqual({ objectId, objectVersion: null });
    },
  );
});
