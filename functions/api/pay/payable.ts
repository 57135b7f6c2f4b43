import { InvalidFields, RuleViolation } from '../../domain/errors';
import { applyPayment, type PayerInvoice, type PaymentMethodType } from '../../domain/invoice';
import { ValidationMessage } from '../../http/validation-messages';

/**
 * What a payer may pay, on either stage's way of paying: 400 for a payment method the invoice does
 * not take (`field` names it, the card form's by default), 409 for a paid or void invoice or for an amount that is not exactly
 * what remains (the invoice changed since the payer saw it).
 */
export function checkPayable(
  invoice: PayerInvoice,
  amount: number,
  methodType: PaymentMethodType,
  at: string,
  field = 'paymentMethod.type',
): void {
  if (!invoice.acceptedPaymentMethods.includes(methodType)) {
    throw new InvalidFields([
      { path: field, message: ValidationMessage.oneOf(invoice.acceptedPaymentMethods) },
    ]);
  }
  applyPayment(invoice, amount, at);
  if (amount !== invoice.amountRemaining.amount) {
    throw new RuleViolation(
      'invalid_state',
      'The amount due has changed since the invoice was shown; reload it and pay the amount remaining.',
    );
  }
}
