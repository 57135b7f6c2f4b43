import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import type { SNSEvent, SQSEvent } from 'aws-lambda';
import { createRouter } from '../../functions/delivery/router';
import { newId } from '../../functions/domain/ids';
import { renderEndpointNotice } from '../../functions/email/endpoint-notice';
import { renderInvoiceEmail } from '../../functions/email/invoice-email';
import type { MailMessage } from '../../functions/email/mail-message';
import { createMailer, type SendEmail } from '../../functions/email/mailer';
import { createSesEventsHandler } from '../../functions/email/ses-events';
import { streamEvent, streamRecord } from '../../test/support/stream-records';

/**
 * The parts of the customer emails' pipeline the capacity model drives step by step
 * (`measureOperations`): an invoice event as the stream would hand it to the router again, the
 * mail queue's message as the mailer receives it, SES's answer and its bounce event.
 */

/** SES's message ids are this long: the item that keeps one is sized as in production. */
export const sesMessageId = '0100019a7f3c2b1d-5e8a4c2f-7b9d-4e3a-8c1f-2d6b9a4e7c30-000000';

/** A `SendEmail` that records each request and answers as SES does when it accepts an email. */
export function recordingSendEmail(): { sendEmail: SendEmail; requests: SendEmailCommandInput[] } {
  const requests: SendEmailCommandInput[] = [];
  return {
    requests,
    sendEmail: async (input) => {
      requests.push(input);
      return { MessageId: sesMessageId };
    },
  };
}

/** `event` (an event item of the table) as a new event of the same type and object, with an id of its own. */
export function sameEventAgain(event: Record<string, unknown>): Record<string, unknown> {
  const eventId = String(event.eventId);
  return JSON.parse(JSON.stringify(event).replaceAll(eventId, newId('evt')));
}

/** The mail queue's messages as one SQS batch, as the mailer's event source mapping hands them over. */
export function mailQueueEvent(messages: readonly MailMessage[]): SQSEvent {
  return {
    Records: messages.map((message, position) => ({
      messageId: `mail-${position}`,
      body: JSON.stringify(message),
    })),
  } as unknown as SQSEvent;
}

/**
 * SES's event-publishing record of a permanent bounce of the email `message` names, sent to
 * `recipient` with `messageId`, as the configuration set's topic delivers it to Lambda (the
 * documented format: `eventType`, `bounce`, and `mail` with the message's tags).
 */
export function sesBounceEvent(message: MailMessage, recipient: string, messageId: string): SNSEvent {
  const at = new Date().toISOString();
  const sesEvent = {
    eventType: 'Bounce',
    bounce: {
      feedbackId: '0100019a7f3c9e2a-bounce-000000',
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [
        {
          emailAddress: recipient,
          action: 'failed',
          status: '5.1.1',
          diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        },
      ],
      timestamp: at,
      reportingMTA: 'dns; a8-30.smtp-out.amazonses.com',
    },
    mail: {
      timestamp: at,
      source: 'invoices@payments.example.com',
      sendingAccountId: '123456789012',
      messageId,
      destination: [recipient],
      headersTruncated: false,
      tags: {
        'ses:configuration-set': ['merchant-payments-production-email'],
        emailId: [message.emailId],
        merchantId: [message.merchantId],
        ...('invoiceId' in message
          ? { invoiceId: [message.invoiceId] }
          : { webhookEndpointId: [message.webhookEndpointId] }),
      },
    },
  };
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        Sns: { Type: 'Notification', MessageId: newId('evt'), Message: JSON.stringify(sesEvent) },
      },
    ],
  } as unknown as SNSEvent;
}

/** Runs `act` as the named step of the pipeline, its commands measured apart from any other's. */
export type MeasuredStep = <T>(name: string, act: () => Promise<T>) => Promise<T>;

/** The names of the steps `measureEmailSteps` measures, in the order they run. */
export const EmailSteps = {
  route: 'router: invoice event → email',
  send: 'mailer: one email sent',
  bounce: 'SES events: one bounce',
} as const;

/**
 * One invoice email through its pipeline, each part a step: the router given `invoiceEvent` again
 * as a new event (so its email is new; the invoice's customer has an address, and the invoice no
 * additional ones), the real mailer sending it to a recording SES, and SES's bounce of it through
 * the SES events function. Throws when a step does not do what it is measured for.
 */
export async function measureEmailSteps(step: MeasuredStep, invoiceEvent: Record<string, unknown>) {
  const messages: MailMessage[] = [];
  const router = createRouter({
    queue: { send: async () => undefined },
    mailQueue: { send: async (message) => void messages.push(message) },
  });
  const routed = await step(EmailSteps.route, () =>
    router(streamEvent(streamRecord('INSERT', { newImage: sameEventAgain(invoiceEvent) }))),
  );
  const [message] = messages;
  if (routed.batchItemFailures.length > 0 || message === undefined || messages.length > 1) {
    throw new Error(`the router queued ${messages.length} emails, not one`);
  }
  const ses = recordingSendEmail();
  const mailer = createMailer({
    sendEmail: ses.sendEmail,
    delivery: 'ses',
    fromAddress: 'invoices@payments.example.com',
    configurationSet: 'merchant-payments-production-email',
    emailsPerMerchantPerHour: 100,
    publicBaseUrl: 'https://api.payments.example.com',
    render: renderInvoiceEmail,
    renderNotice: renderEndpointNotice,
  });
  const mailed = await step(EmailSteps.send, () => mailer(mailQueueEvent([message])));
  const recipient = ses.requests[0]?.Destination?.ToAddresses?.[0];
  if (mailed.batchItemFailures.length > 0 || recipient === undefined || ses.requests.length > 1) {
    throw new Error(`the mailer sent ${ses.requests.length} emails, not one`);
  }
  await step(EmailSteps.bounce, () =>
    createSesEventsHandler()(sesBounceEvent(message, recipient, sesMessageId)),
  );
}
