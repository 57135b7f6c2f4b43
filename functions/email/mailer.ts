import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { EmailStatus, type InvoiceEmail } from '../domain/invoice-email';
import { isoTimestamp } from '../domain/time';
import { logger } from '../observability/logger';
import {
  type EmailOutcome,
  getEmail,
  isSuppressed,
  settleEmail,
  takeEmail,
  takeHourlySend,
} from '../store/invoice-emails';
import { getStoredInvoice } from '../store/invoices';
import { getMerchant } from '../store/merchants';
import type { InvoiceEmailInput, RenderedEmail } from './invoice-email';
import { MailMessage } from './mail-message';

/** The one SES call the mailer makes: `SendEmail` of `@aws-sdk/client-sesv2`. */
export type SendEmail = (input: SendEmailCommandInput) => Promise<{ MessageId?: string | undefined }>;

export interface MailerDeps {
  readonly sendEmail: SendEmail;
  /** `capture`: render and keep each email, never send (a deployed sandbox). */
  readonly delivery: 'ses' | 'capture';
  readonly fromAddress: string;
  readonly configurationSet?: string | undefined;
  readonly emailsPerMerchantPerHour: number;
  /** The API's public base URL: the pay link is `<base>/pay#<slug>`. */
  readonly publicBaseUrl: string;
  readonly render: (input: InvoiceEmailInput) => RenderedEmail;
  readonly now?: () => Date;
}

/** How long a mailer holds an email it is sending: longer than the SDK's retries of one send. */
const leaseMs = 60_000;

/** Sends a mailer gives an email before it records it `failed`. */
export const maxSendAttempts = 3;

/**
 * The mail queue's consumer (docs/emails.md): for each message, the email it names, only while it
 * is queued and no other mailer holds it. It is then suppressed, over the merchant's hourly
 * ceiling, captured (a stage that never sends) or sent through SES, and recorded. The SDK retries
 * throttling and transient answers with backoff; an email still unsent goes back to the queue
 * (the message is reported failed and comes again) until `maxSendAttempts`, then it is `failed`
 * with the reason. A crash after SES accepted an email and before it was recorded sends it again
 * once the hold runs out: a duplicate rather than a lost email.
 */
export function createMailer(deps: MailerDeps) {
  const now = deps.now ?? (() => new Date());
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: { itemIdentifier: string }[] = [];
    for (const record of event.Records) {
      try {
        const message = MailMessage.parse(JSON.parse(record.body));
        await mailOne(message, deps, now);
      } catch (error) {
        logger.error('email not sent', { messageId: record.messageId, errorName: (error as Error).name });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}

class SendAgainLater extends Error {
  override name = 'SendAgainLater';
}

async function mailOne(message: MailMessage, deps: MailerDeps, now: () => Date): Promise<void> {
  const stored = await getEmail(message.merchantId, message.invoiceId, message.emailId);
  if (stored === undefined || stored.email.status !== EmailStatus.queued) return;
  const takenAt = now();
  const leaseUntil = isoTimestamp(new Date(takenAt.getTime() + leaseMs));
  const email = await takeEmail(stored.email, isoTimestamp(takenAt), leaseUntil);
  if (email === undefined) return;
  const outcome = await outcomeOf(email, deps, takenAt);
  const settled = await settleEmail(email, leaseUntil, { ...outcome, at: isoTimestamp(now()) });
  logger.info('email settled', {
    emailId: email.emailId,
    invoiceId: email.invoiceId,
    merchantId: email.merchantId,
    kind: email.kind,
    status: outcome.status,
    attempt: email.attemptCount,
    recorded: settled,
  });
  if (outcome.status === EmailStatus.queued) throw new SendAgainLater(outcome.statusReason);
}

async function outcomeOf(
  email: InvoiceEmail,
  deps: MailerDeps,
  takenAt: Date,
): Promise<Omit<EmailOutcome, 'at'>> {
  if (await isSuppressed(email.merchantId, email.recipient)) {
    return { status: EmailStatus.suppressed, statusReason: 'the address bounced or complained before' };
  }
  const [stored, merchant] = await Promise.all([
    getStoredInvoice(email.merchantId, email.invoiceId),
    getMerchant(email.merchantId),
  ]);
  if (stored === undefined) return { status: EmailStatus.failed, statusReason: 'the invoice is gone' };
  if (!(await takeHourlySend(email.merchantId, takenAt, deps.emailsPerMerchantPerHour))) {
    return {
      status: EmailStatus.rateLimited,
      statusReason: `the merchant sent ${deps.emailsPerMerchantPerHour} emails this hour`,
    };
  }
  const merchantName = stored.merchantName ?? merchant?.name ?? '';
  const rendered = deps.render({
    kind: email.kind,
    invoice: stored.invoice,
    merchantName,
    payUrl: `${deps.publicBaseUrl}/pay#${stored.invoice.invoiceUrlSlug}`,
    ...(stored.invoice.paidAt === undefined ? {} : { payment: { paidAt: stored.invoice.paidAt } }),
  });
  if (deps.delivery === 'capture') return { status: EmailStatus.captured, rendered };
  try {
    const from = { merchantName, replyTo: merchant?.supportEmail };
    const { MessageId } = await deps.sendEmail(sendEmailInput(email, rendered, from, deps));
    return { status: EmailStatus.sent, providerMessageId: MessageId };
  } catch (error) {
    const reason = `SES answered ${(error as Error).name}`;
    if (isTransient(error) && email.attemptCount < maxSendAttempts) {
      return { status: EmailStatus.queued, statusReason: reason };
    }
    return { status: EmailStatus.failed, statusReason: reason };
  }
}

/**
 * The SES request: from the stage's verified address under the merchant's name, replies to the
 * merchant's support address when it has one, to one recipient, through the stage's configuration
 * set (bounces and complaints come back through it), tagged with the email's ids so SES's events
 * find it.
 */
function sendEmailInput(
  email: InvoiceEmail,
  rendered: RenderedEmail,
  from: { merchantName: string; replyTo: string | undefined },
  deps: MailerDeps,
): SendEmailCommandInput {
  const content = (data: string) => ({ Data: data, Charset: 'UTF-8' });
  const { merchantName, replyTo } = from;
  return {
    FromEmailAddress:
      merchantName === '' ? deps.fromAddress : `${quotedName(merchantName)} <${deps.fromAddress}>`,
    ...(replyTo === undefined ? {} : { ReplyToAddresses: [replyTo] }),
    Destination: { ToAddresses: [email.recipient] },
    Content: {
      Simple: {
        Subject: content(rendered.subject),
        Body: { Text: content(rendered.text), Html: content(rendered.html) },
      },
    },
    ...(deps.configurationSet === undefined ? {} : { ConfigurationSetName: deps.configurationSet }),
    EmailTags: [
      { Name: 'emailId', Value: email.emailId },
      { Name: 'merchantId', Value: email.merchantId },
      { Name: 'invoiceId', Value: email.invoiceId },
    ],
  };
}

/** A display name as RFC 5322 allows it: quoted, its quotes and backslashes escaped, on one line. */
function quotedName(name: string): string {
  return `"${name.replace(/[\r\n]+/g, ' ').replace(/(["\\])/g, '\\$1')}"`;
}

/** SES's answers worth asking again: throttling, its own failures, the network. */
function isTransient(error: unknown): boolean {
  const { name, $metadata, $retryable } = error as {
    name?: string;
    $metadata?: { httpStatusCode?: number };
    $retryable?: unknown;
  };
  if ($retryable !== undefined) return true;
  if (name === 'TooManyRequestsException' || name === 'LimitExceededException') return true;
  const status = $metadata?.httpStatusCode;
  return status === undefined || status >= 500;
}
