import type { Customer } from '../domain/customer';
import type { Invoice } from '../domain/invoice';
import { emailKindOf, emailRecipients, type InvoiceEmail, newInvoiceEmail } from '../domain/invoice-email';
import { isoTimestamp } from '../domain/time';
import { customerKeys, toCustomer } from '../store/customers';
import { putNewEmails } from '../store/invoice-emails';
import { invoiceKeys, toInvoice } from '../store/invoices';
import { batchGet } from '../store/reads';
import { type MailQueue, mailMessageOf } from './mail-message';

/** An event as the router reads it off the stream: what an email needs of it. */
export interface EmailingEvent {
  readonly eventId: string;
  readonly eventType: string;
  readonly merchantId: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * The emails an invoice event sends (docs/emails.md): one to the invoice's customer when it has an
 * email, and one to each additional address, each address once. They are written only where none
 * exist yet and then queued, every one of them: a replayed event writes nothing but queues its
 * emails again, which the mailer sends only while they are queued, so a crash between the write and
 * the queue loses none. Reads the invoice and the customer in one `BatchGetItem`. Returns the ids.
 */
export async function sendEmailsOf(event: EmailingEvent, queue: MailQueue, now: Date): Promise<string[]> {
  const kind = emailKindOf(event);
  const invoiceId = event.payload.invoiceId;
  const customerId = event.payload.customerId;
  if (kind === undefined || typeof invoiceId !== 'string' || typeof customerId !== 'string') return [];
  const { invoice, customer } = await invoiceAndCustomer(event.merchantId, invoiceId, customerId);
  if (invoice === undefined) return [];
  const createdAt = isoTimestamp(now);
  const emails: InvoiceEmail[] = emailRecipients(customer?.email, invoice.additionalNotificationEmails).map(
    ({ recipient, recipientRole }) =>
      newInvoiceEmail({
        merchantId: event.merchantId,
        invoiceId,
        eventId: event.eventId,
        kind,
        recipient,
        recipientRole,
        now: createdAt,
      }),
  );
  await putNewEmails(emails);
  for (const email of emails) await queue.send(mailMessageOf(email));
  return emails.map((email) => email.emailId);
}

async function invoiceAndCustomer(
  merchantId: string,
  invoiceId: string,
  customerId: string,
): Promise<{ invoice: Invoice | undefined; customer: Customer | undefined }> {
  const invoiceKey = invoiceKeys.invoice(merchantId, invoiceId);
  const customerKey = customerKeys.customer(merchantId, customerId);
  const items = await batchGet([invoiceKey, customerKey]);
  const find = (key: { PK: string; SK: string }) =>
    items.find((item) => item.PK === key.PK && item.SK === key.SK);
  const invoiceItem = find(invoiceKey);
  const customerItem = find(customerKey);
  return {
    invoice: invoiceItem === undefined ? undefined : toInvoice(invoiceItem),
    customer: customerItem === undefined ? undefined : toCustomer(customerItem),
  };
}
