import { newId } from '../../functions/domain/ids';
import { type ChargeOutcome, newPayment, type Payment } from '../../functions/domain/payment';

/** What the sandbox simulator answers for a card charge, for payments seeded through the store. */
export function sandboxCharge(declined: boolean): ChargeOutcome {
  return declined
    ? {
        outcome: 'declined',
        processorReferenceId: 'sbx_ch_declined',
        declineCode: 'card_declined',
        declineMessage: 'The card was declined.',
      }
    : { outcome: 'succeeded', processorReferenceId: 'sbx_ch_1', paymentInstrumentId: newId('pmi') };
}

/** A sandbox card payment of 10.00 USD by `customerId`, taken or declined, not linked to an invoice. */
export function sandboxCardPayment(
  merchantId: string,
  customerId: string,
  declined: boolean,
  now = new Date().toISOString(),
): Payment {
  return newPayment({
    paymentId: newId('pmt'),
    merchantId,
    customerId,
    invoiceId: null,
    priceId: null,
    amount: 1000,
    currency: 'USD',
    paymentMethodType: 'card',
    processor: 'sandbox',
    charge: sandboxCharge(declined),
    now,
  });
}
