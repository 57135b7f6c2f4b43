import type { InvoiceEmail } from '../../domain/invoice-email';

/** An email as the API shows it: who it went to and what became of it, never its body. */
export function invoiceEmailView(email: InvoiceEmail) {
  return {
    emailId: email.emailId,
    invoiceId: email.invoiceId,
    kind: email.kind,
    recipient: email.recipient,
    recipientRole: email.recipientRole,
    status: email.status,
    statusReason: email.statusReason,
    attemptCount: email.attemptCount,
    providerMessageId: email.providerMessageId,
    createdAt: email.createdAt,
    updatedAt: email.updatedAt,
    sentAt: email.sentAt,
  };
}
