import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { EndpointNotice } from '../domain/endpoint-notice';
import { EmailKind, EmailStatus, type InvoiceEmail } from '../domain/invoice-email';
import { isoTimestamp } from '../domain/time';
import { logger } from '../observability/logger';
import {
  type EmailOutcome,
  getEmailItem,
  isSuppressed,
  settleEmail,
  takeEmail,
  takeHourlySend,
  toEmail,
  toEndpointNotice,
} from '../store/invoice-emails';
import { getStoredInvoice } from '../store/invoices';
import { getMerchant } from '../store/merchants';
import type { InvoiceEmailInput, RenderedEmail } from './invoice-email';
import { emailKeyOf, MailMessage } from './mail-message';

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
  readonly renderNotice: (notice: EndpointNotice, merchantName: string) => RenderedEmail;
  readonly now?: () => Date;
}

/** How long a mailer holds an email it is sending: longer than the SDK's retries of one send. */
const leaseMs = 60_000;

/** Sends a mailer gives an email before it records it `failed`. */
export const maxSendAttempts = 3;

/**
 * The mail queue's consumer (docs/emails.md): takes the email each message names, then suppresses,
 * captures or sends it and records the outcome (docs/decisions/invoice-emails.md).
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
  const key = emailKeyOf(message);
  const stored = await getEmailItem(key);
  if (stored === undefined || stored.status !== EmailStatus.queued) return;
  const takenAt = now();
  const leaseUntil = isoTimestamp(new Date(takenAt.getTime() + leaseMs));
  const taken = await takeEmail(key, isoTimestamp(takenAt), leaseUntil);
  if (taken === undefined) return;
  const { outcome, fields } =
    'invoiceId' in message
      ? await invoiceEmailOutcome(toEmail(taken), deps, takenAt)
      : await noticeOutcome(toEndpointNotice(taken), deps);
  const settled = await settleEmail(key, leaseUntil, { ...outcome, at: isoTimestamp(now()) });
  logger.info('email settled', {
    emailId: key.emailId,
    merchantId: key.merchantId,
    ...fields,
    status: outcome.status,
    attempt: Number(taken.attemptCount),
    recorded: settled,
  });
  if (outcome.status === EmailStatus.queued) throw new SendAgainLater(outcome.statusReason);
}

type Outcome = Omit<EmailOutcome, 'at'>;

/** What became of an email, and the ids its log line names beside the email's. */
interface Mailing {
  readonly outcome: Outcome;
  readonly fields: Record<string, string>;
}

const suppressedOutcome: Outcome = {
  status: EmailStatus.suppressed,
  statusReason: 'the address bounced or complained before',
};

async function invoiceEmailOutcome(email: InvoiceEmail, deps: MailerDeps, takenAt: Date): Promise<Mailing> {
  return {
    outcome: await outcomeOf(email, deps, takenAt),
    fields: { invoiceId: email.invoiceId, kind: email.kind },
  };
}

/**
 * A failing endpoint's notice: to the merchant's own address, so outside the hourly ceiling (at most
 * two per failing run of each of its endpoints), from the service's address alone.
 */
async function noticeOutcome(notice: EndpointNotice, deps: MailerDeps): Promise<Mailing> {
  const fields = { endpointId: notice.webhookEndpointId, kind: `endpoint_failing_${notice.after}` };
  if (await isSuppressed(notice.merchantId, notice.recipient)) return { outcome: suppressedOutcome, fields };
  const merchant = await getMerchant(notice.merchantId);
  const rendered = deps.renderNotice(notice, merchant?.name ?? '');
  const outcome = await sendOrCapture(rendered, notice, { merchantName: '', replyTo: undefined }, deps, {
    webhookEndpointId: notice.webhookEndpointId,
  });
  return { outcome, fields };
}

async function outcomeOf(email: InvoiceEmail, deps: MailerDeps, takenAt: Date): Promise<Outcome> {
  if (await isSuppressed(email.merchantId, email.recipient)) return suppressedOutcome;
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
    ...(email.kind === EmailKind.paid
      ? {
          // The payment that paid the invoice in full, as the invoice keeps it.
          payment: {
            paidAt: stored.invoice.paidAt,
            methodKind: stored.paidWith?.methodKind,
            reference: stored.paidWith?.reference,
          },
        }
      : {}),
  });
  const from = { merchantName, replyTo: merchant?.supportEmail };
  return sendOrCapture(rendered, email, from, deps, { invoiceId: email.invoiceId });
}

/** What an email needs to go: where, which of its sends this is, and the ids it is tagged with. */
interface Sendable {
  readonly emailId: string;
  readonly merchantId: string;
  readonly recipient: string;
  readonly attemptCount: number;
}

/** Keeps the rendered email on a stage that never sends; else sends it, and says what SES answered. */
async function sendOrCapture(
  rendered: RenderedEmail,
  email: Sendable,
  from: { merchantName: string; replyTo: string | undefined },
  deps: MailerDeps,
  ownerTag: Record<string, string>,
): Promise<Outcome> {
  if (deps.delivery === 'capture') return { status: EmailStatus.captured, rendered };
  try {
    const { MessageId } = await deps.sendEmail(sendEmailInput(email, rendered, from, deps, ownerTag));
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
 * set (bounces and complaints come back through it), tagged with the email's ids (and its invoice's
 * or endpoint's) so SES's events find it.
 */
function sendEmailInput(
  email: Sendable,
  rendered: RenderedEmail,
  from: { merchantName: string; replyTo: string | undefined },
  deps: MailerDeps,
  ownerTag: Record<string, string>,
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
      ...Object.entries(ownerTag).map(([Name, Value]) => ({ Name, Value })),
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
