import type { PaymentMethodDetails as ProcessorMethod } from '../../payments/payment-processor';
import type { PaymentMethodDetails } from '../payment-schemas';

/** What the processor gets: digits only, as a payer may type `4242 4242-4242 4242`. */
export function processorMethod(method: PaymentMethodDetails): ProcessorMethod {
  const digits = (value: string) => value.replace(/[\s-]/g, '');
  return method.type === 'card'
    ? {
        type: 'card',
        number: digits(method.number),
        expMonth: method.expMonth,
        expYear: method.expYear,
        cvc: method.cvc,
      }
    : {
        type: 'bank_account',
        routingNumber: digits(method.routingNumber),
        accountNumber: digits(method.accountNumber),
      };
}
