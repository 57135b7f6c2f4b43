import { newId } from '../../functions/domain/ids';
import type { ChargeOutcome } from '../../functions/domain/payment';

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
