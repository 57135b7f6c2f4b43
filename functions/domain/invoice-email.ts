import { idDerivedFromEvent } from './ids';
import { EventType } from './invoice';

/**
 * The emails an invoice's events send its customer and its additional addresses (docs/emails.md):
 * the invoice when it is issued and when it is sent again, and a receipt when it is paid in full.
 */
export const EmailKind = { issued: 'issued', resent: 'resent', paid: 'paid' } as const;
export type EmailKind = (typeof EmailKind)[keyof typeof EmailKind];

/**
 * Where an email stands. `queued` until the mailer takes it; then `sent` (SES accepted it),
 * `captured` (a stage that never sends rendered and kept it), or why it was not sent:
 * `suppressed` (the address bounced or complained before), `rate_limited` (the merchant's hourly
 * ceiling), `failed` (SES refused it, or kept failing). SES's later word moves a sent email to
 * `delivered`, `bounced` or `complained`.
 */
export const EmailStatus = {
  queued: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  bounced: 'bounced',
  complained: 'complained',
  suppressed: 'suppressed',
  rateLimited: 'rate_limited',
  failed: 'failed',
  captured: 'captured',
} as const;
export type EmailStatus = (typeof EmailStatus)[keyof typeof EmailStatus];

/** Who an email is for: the invoice's customer, or one of its `additionalNotificationEmails`. */
export type EmailRecipientRole = 'customer' | 'additional';

/** What every email the mailer sends records of itself, an invoice's or an endpoint's notice. */
export interface SentEmailRecord {
  readonly emailId: string;
  readonly merchantId: string;
  readonly recipient: string;
  readonly status: EmailStatus;
  /** Times the mailer took it to send. */
  readonly attemptCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** When SES accepted it (`sent`) or the stage kept it (`captured`). */
  readonly sentAt: string | null;
  /** SES's message id, once it accepted the email. */
  readonly providerMessageId: string | null;
  /** Why it is `failed`, `suppressed`, `rate_limited`, `bounced` or `complained`, in a few words. */
  readonly statusReason: string | null;
}

export interface InvoiceEmail extends SentEmailRecord {
  readonly invoiceId: string;
  /** The event that asked for it. */
  readonly eventId: string;
  readonly kind: EmailKind;
  readonly recipientRole: EmailRecipientRole;
}

/** A queued email's record before the mailer first takes it. */
export function newlyQueued(now: string) {
  return {
    status: EmailStatus.queued,
    attemptCount: 0,
    createdAt: now,
    updatedAt: now,
    sentAt: null,
    providerMessageId: null,
    statusReason: null,
  } as const;
}

/** The kind of email an event sends, if any. */
export function emailKindOf(event: {
  eventType: string;
  payload: Readonly<Record<string, unknown>>;
}): EmailKind | undefined {
  if (event.eventType === EventType.invoiceSent) {
    return event.payload.resend === true ? EmailKind.resent : EmailKind.issued;
  }
  if (event.eventType === EventType.invoicePaid) return EmailKind.paid;
  return undefined;
}

/**
 * The addresses an invoice's email goes to: the customer's (when it has one), then each additional
 * address, each once. Addresses are compared without regard to case, as mailboxes are in practice:
 * one person listed twice gets one email.
 */
export function emailRecipients(
  customerEmail: string | undefined,
  additional: readonly string[],
): { recipient: string; recipientRole: EmailRecipientRole }[] {
  const seen = new Set<string>();
  const recipients: { recipient: string; recipientRole: EmailRecipientRole }[] = [];
  const add = (recipient: string, recipientRole: EmailRecipientRole) => {
    const key = recipient.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    recipients.push({ recipient, recipientRole });
  };
  if (customerEmail !== undefined && customerEmail !== '') add(customerEmail, 'customer');
  for (const address of additional) add(address, 'additional');
  return recipients;
}

/** The one email of an event to an address: derived, so a replayed event makes no second one. */
export function emailIdFor(eventId: string, recipient: string): string {
  return idDerivedFromEvent('eml', eventId, recipient.toLowerCase());
}

export function newInvoiceEmail(input: {
  merchantId: string;
  invoiceId: string;
  eventId: string;
  kind: EmailKind;
  recipient: string;
  recipientRole: EmailRecipientRole;
  now: string;
}): InvoiceEmail {
  return {
    emailId: emailIdFor(input.eventId, input.recipient),
    merchantId: input.merchantId,
    invoiceId: input.invoiceId,
    eventId: input.eventId,
    kind: input.kind,
    recipient: input.recipient,
    recipientRole: input.recipientRole,
    ...newlyQueued(input.now),
  };
}
