import type { SNSEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { EmailStatus } from '../domain/invoice-email';
import { isoTimestamp } from '../domain/time';
import { logger } from '../observability/logger';
import { recordProviderOutcome, suppressAddress } from '../store/invoice-emails';

/**
 * What the mailer's tags put on every message (`emailId`, `merchantId`, and `invoiceId` or, on a
 * failing endpoint's notice, `webhookEndpointId`), as SES's event publishing hands them back: each
 * tag a list of its values.
 */
const Tags = z.union([
  z.object({
    emailId: z.tuple([z.string()]),
    merchantId: z.tuple([z.string()]),
    invoiceId: z.tuple([z.string()]),
  }),
  z.object({
    emailId: z.tuple([z.string()]),
    merchantId: z.tuple([z.string()]),
    webhookEndpointId: z.tuple([z.string()]),
  }),
]);

/** The parts of an SES event-publishing record the service reads (Bounce, Complaint, Delivery, Reject). */
const SesEvent = z.object({
  eventType: z.string(),
  mail: z.object({ messageId: z.string(), tags: Tags }),
  bounce: z.optional(
    z.object({
      bounceType: z.string(),
      bounceSubType: z.optional(z.string()),
      bouncedRecipients: z.array(z.object({ emailAddress: z.string() })),
    }),
  ),
  complaint: z.optional(z.object({ complainedRecipients: z.array(z.object({ emailAddress: z.string() })) })),
});

type SesEvent = z.output<typeof SesEvent>;

/** Only a bounce SES calls permanent says the address will never take mail; a transient one is tried again by SES. */
const permanentBounce = 'Permanent';

/**
 * SES's events about the emails the mailer sent, through the configuration set's topic
 * (docs/emails.md): a delivery marks the email `delivered`; a permanent bounce or a complaint marks
 * it `bounced` or `complained` and puts the address on the merchant's suppression list, so its next
 * email there is `suppressed`; a rejection marks it `failed`. Each is safe to receive twice and in
 * any order. A record that is no such event is logged and skipped; one that fails to be recorded
 * fails the invocation, which Lambda tries again and then sends to the failures queue.
 */
export function createSesEventsHandler(deps: { now?: () => Date } = {}) {
  const now = deps.now ?? (() => new Date());
  return async (event: SNSEvent): Promise<void> => {
    for (const record of event.Records) {
      const parsed = SesEvent.safeParse(safeJson(record.Sns.Message));
      if (!parsed.success) {
        logger.warn('SES event skipped: not an event of a tagged email', {
          snsMessageId: record.Sns.MessageId,
        });
        continue;
      }
      await recordEvent(parsed.data, isoTimestamp(now()));
    }
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function recordEvent(event: SesEvent, at: string): Promise<void> {
  const { tags } = event.mail;
  const key = {
    emailId: tags.emailId[0],
    merchantId: tags.merchantId[0],
    ownerId: 'invoiceId' in tags ? tags.invoiceId[0] : tags.webhookEndpointId[0],
  };
  const sentOrDelivered = [EmailStatus.sent, EmailStatus.delivered];
  let recorded = false;
  if (event.eventType === 'Delivery') {
    recorded = await recordProviderOutcome(
      key,
      { status: EmailStatus.delivered, statusReason: undefined, at },
      [EmailStatus.sent],
    );
  } else if (event.eventType === 'Bounce' && event.bounce?.bounceType === permanentBounce) {
    const reason = `bounced (${event.bounce.bounceSubType ?? 'permanent'})`;
    for (const { emailAddress } of event.bounce.bouncedRecipients) {
      await suppressAddress(key.merchantId, emailAddress, reason, at);
    }
    recorded = await recordProviderOutcome(
      key,
      { status: EmailStatus.bounced, statusReason: reason, at },
      sentOrDelivered,
    );
  } else if (event.eventType === 'Complaint') {
    const reason = 'the recipient marked it as spam';
    for (const { emailAddress } of event.complaint?.complainedRecipients ?? []) {
      await suppressAddress(key.merchantId, emailAddress, reason, at);
    }
    recorded = await recordProviderOutcome(
      key,
      { status: EmailStatus.complained, statusReason: reason, at },
      [...sentOrDelivered, EmailStatus.bounced],
    );
  } else if (event.eventType === 'Reject') {
    recorded = await recordProviderOutcome(
      key,
      { status: EmailStatus.failed, statusReason: 'SES rejected it', at },
      [EmailStatus.sent],
    );
  }
  logger.info('SES event', {
    eventType: event.eventType,
    ...key,
    providerMessageId: event.mail.messageId,
    recorded,
  });
}
