import * as z from 'zod/mini';
import { type SendsSqsMessages, sqsJsonQueue } from '../delivery/sqs-delivery-queue';
import type { EndpointNotice } from '../domain/endpoint-notice';
import type { InvoiceEmail } from '../domain/invoice-email';
import type { EmailKey } from '../store/invoice-emails';
import { text } from '../validation/text';

/**
 * The mail queue's message: which email to send, an invoice's or an endpoint's failing notice. The
 * mailer sends an email only while it is queued and no mailer holds it, so a duplicate or stale
 * message does nothing; one without these fields is malformed and goes to the dead-letter queue.
 */
export const MailMessage = z.union([
  z.strictObject({ merchantId: text({ min: 1 }), invoiceId: text({ min: 1 }), emailId: text({ min: 1 }) }),
  z.strictObject({
    merchantId: text({ min: 1 }),
    webhookEndpointId: text({ min: 1 }),
    emailId: text({ min: 1 }),
  }),
]);

export type MailMessage = z.output<typeof MailMessage>;

export function mailMessageOf(email: InvoiceEmail): MailMessage {
  return { merchantId: email.merchantId, invoiceId: email.invoiceId, emailId: email.emailId };
}

export function noticeMessageOf(notice: EndpointNotice): MailMessage {
  return {
    merchantId: notice.merchantId,
    webhookEndpointId: notice.webhookEndpointId,
    emailId: notice.emailId,
  };
}

/** The stored email a message names. */
export function emailKeyOf(message: MailMessage): EmailKey {
  const ownerId = 'invoiceId' in message ? message.invoiceId : message.webhookEndpointId;
  return { merchantId: message.merchantId, ownerId, emailId: message.emailId };
}

/** What the router, the reconciler and the mailer need of the mail queue. */
export interface MailQueue {
  /** `delaySeconds` undefined: at once. */
  send(message: MailMessage, delaySeconds?: number): Promise<void>;
}

export function sqsMailQueue(client: SendsSqsMessages, queueUrl: string): MailQueue {
  return sqsJsonQueue<MailMessage>(client, queueUrl);
}
