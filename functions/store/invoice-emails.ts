import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EndpointNotice } from '../domain/endpoint-notice';
import { EmailStatus, type InvoiceEmail, type SentEmailRecord } from '../domain/invoice-email';
import { documentClient, tableName } from './client';
import { type QueryPage, queryMerchantItems } from './reads';
import { dueIndexEntry, EntityType, merchantPartition, partitionOfId, SortKeyPrefix } from './table';
import { sendTransaction, TransactionConditionFailed } from './transaction';

/**
 * An email sorts under what it is about, in that one's shard (`EMAIL#<owner>#<eml>`): an invoice's
 * emails, so one Query lists them in the order their events came, and an endpoint's failing
 * notices. A merchant's suppressed addresses and its hourly email counts sit in its own partition,
 * by the hash of the address and by the hour.
 */
export const emailKeys = {
  email: ({ merchantId, ownerId, emailId }: EmailKey) => ({
    PK: partitionOfId(merchantId, ownerId),
    SK: `${SortKeyPrefix.invoiceEmail}${ownerId}#${emailId}`,
  }),
  invoiceEmail: (merchantId: string, invoiceId: string, emailId: string) =>
    emailKeys.email({ merchantId, ownerId: invoiceId, emailId }),
  emailsOfInvoicePrefix: (invoiceId: string) => `${SortKeyPrefix.invoiceEmail}${invoiceId}#`,
  suppressedAddress: (merchantId: string, address: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.suppressedEmailAddress}${addressHash(address)}`,
  }),
  emailsInHour: (merchantId: string, hour: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.emailHour}${hour}`,
  }),
} as const;

/** Which email: its merchant, what it is about (the invoice's or the endpoint's id), and its id. */
export interface EmailKey {
  readonly merchantId: string;
  readonly ownerId: string;
  readonly emailId: string;
}

export function invoiceEmailKey(email: Pick<InvoiceEmail, 'merchantId' | 'invoiceId' | 'emailId'>): EmailKey {
  return { merchantId: email.merchantId, ownerId: email.invoiceId, emailId: email.emailId };
}

export function endpointNoticeKey(
  notice: Pick<EndpointNotice, 'merchantId' | 'webhookEndpointId' | 'emailId'>,
): EmailKey {
  return { merchantId: notice.merchantId, ownerId: notice.webhookEndpointId, emailId: notice.emailId };
}

/** An address as a key: its SHA-256, lower-cased first, so the table holds no address as a key. */
export function addressHash(address: string): string {
  return createHash('sha256').update(address.toLowerCase()).digest('hex');
}

/**
 * The stored email. Its event's id is kept as `fromEventId`: an item with an `eventId` and a
 * `createdAt` is an entry of the event-deliveries index (GSI5), which holds events and deliveries only.
 * While it is queued it has an entry in the due index (GSI1), due when it was made, so the
 * reconciler queues it again should its message be lost.
 */
function emailItem(email: InvoiceEmail) {
  const { eventId, ...rest } = email;
  return {
    ...emailKeys.invoiceEmail(email.merchantId, email.invoiceId, email.emailId),
    ...(email.status === EmailStatus.queued ? dueIndexEntry(email.createdAt, email.emailId) : {}),
    entityType: EntityType.invoiceEmail,
    ...rest,
    fromEventId: eventId,
  };
}

/**
 * The emails of an event, only where none exist yet, in one transaction: a replayed event finds
 * them all there and writes nothing (all or none of an event's emails exist, as they are written
 * together). At most 100, the transaction's limit: an invoice has at most 10 additional addresses.
 */
export async function putNewEmails(emails: readonly InvoiceEmail[]): Promise<void> {
  if (emails.length === 0) return;
  try {
    await sendTransaction(
      emails.map((email) => ({
        Put: {
          TableName: tableName(),
          Item: emailItem(email),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      })),
    );
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return;
    throw error;
  }
}

/** An endpoint's failing notice, queued as an invoice email is (due at once while queued). */
function noticeItem(notice: EndpointNotice) {
  return {
    ...emailKeys.email(endpointNoticeKey(notice)),
    ...(notice.status === EmailStatus.queued ? dueIndexEntry(notice.createdAt, notice.emailId) : {}),
    entityType: EntityType.endpointNotice,
    ...notice,
  };
}

/** The notice, only where it does not exist yet: a replayed stream record writes nothing. */
export async function putNewNotice(notice: EndpointNotice): Promise<void> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: noticeItem(notice),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return;
    throw error;
  }
}

export function toEndpointNotice(item: Record<string, unknown>): EndpointNotice {
  return {
    ...toSentEmailRecord(item),
    webhookEndpointId: String(item.webhookEndpointId),
    url: String(item.url),
    failingSince: String(item.failingSince),
    after: item.after as EndpointNotice['after'],
    lastError: String(item.lastError),
    lastAttemptAt: String(item.lastAttemptAt),
  };
}

/** What every stored email records of itself. */
function toSentEmailRecord(item: Record<string, unknown>): SentEmailRecord {
  const nullable = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : null);
  return {
    emailId: String(item.emailId),
    merchantId: String(item.merchantId),
    recipient: String(item.recipient),
    status: item.status as EmailStatus,
    attemptCount: Number(item.attemptCount ?? 0),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    sentAt: nullable('sentAt'),
    providerMessageId: nullable('providerMessageId'),
    statusReason: nullable('statusReason'),
  };
}

/** Any email as stored (an invoice's or a notice), read consistently. */
export async function getEmailItem(key: EmailKey): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: emailKeys.email(key), ConsistentRead: true }),
  );
  return Item;
}

export async function getEmail(
  merchantId: string,
  invoiceId: string,
  emailId: string,
): Promise<StoredEmail | undefined> {
  const item = await getEmailItem({ merchantId, ownerId: invoiceId, emailId });
  return item === undefined ? undefined : toStoredEmail(item);
}

/** An email as stored: the record, the mailer's hold on it, and what a capturing stage rendered. */
export interface StoredEmail {
  readonly email: InvoiceEmail;
  /** Until when a mailer holds it (ISO 8601), while one does. */
  readonly leaseUntil: string | undefined;
  readonly rendered: RenderedContent | undefined;
}

export interface RenderedContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export function toEmail(item: Record<string, unknown>): InvoiceEmail {
  return {
    ...toSentEmailRecord(item),
    invoiceId: String(item.invoiceId),
    eventId: String(item.fromEventId),
    kind: item.kind as InvoiceEmail['kind'],
    recipientRole: item.recipientRole as InvoiceEmail['recipientRole'],
  };
}

function toStoredEmail(item: Record<string, unknown>): StoredEmail {
  const rendered = item.rendered as RenderedContent | undefined;
  return {
    email: toEmail(item),
    leaseUntil: typeof item.leaseUntil === 'string' ? item.leaseUntil : undefined,
    rendered,
  };
}

/**
 * Takes a queued email for one send: counts the attempt and holds it until `leaseUntil`, only
 * while it is queued and no mailer holds it (or one's hold ran out). A duplicate queue message, or
 * a second mailer, finds it held or done and leaves it. Returns the item as taken, or undefined.
 */
export async function takeEmail(
  key: EmailKey,
  now: string,
  leaseUntil: string,
): Promise<Record<string, unknown> | undefined> {
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: emailKeys.email(key),
        UpdateExpression: 'SET attemptCount = attemptCount + :one, leaseUntil = :until, updatedAt = :now',
        ConditionExpression: '#status = :queued AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':until': leaseUntil,
          ':now': now,
          ':queued': EmailStatus.queued,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/** What an email ends as (or, for `queued`, goes back to waiting with). */
export interface EmailOutcome {
  readonly status: EmailStatus;
  readonly at: string;
  readonly providerMessageId?: string | undefined;
  readonly statusReason?: string | undefined;
  readonly rendered?: RenderedContent | undefined;
}

/**
 * Records what became of the email the mailer holds, and lets go of it: only while its hold is the
 * one `leaseUntil` names, so a mailer whose hold ran out records nothing over another's.
 */
export async function settleEmail(key: EmailKey, leaseUntil: string, outcome: EmailOutcome) {
  const sent = outcome.status === EmailStatus.sent || outcome.status === EmailStatus.captured;
  const sets: Record<string, unknown> = {
    status: outcome.status,
    updatedAt: outcome.at,
    ...(sent ? { sentAt: outcome.at } : {}),
    ...(outcome.providerMessageId === undefined ? {} : { providerMessageId: outcome.providerMessageId }),
    ...(outcome.statusReason === undefined ? {} : { statusReason: outcome.statusReason }),
    ...(outcome.rendered === undefined ? {} : { rendered: outcome.rendered }),
  };
  const entries = Object.entries(sets);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: emailKeys.email(key),
        // An email no longer queued leaves the due index; one queued again keeps its entry.
        UpdateExpression: `SET ${entries.map((_, position) => `#set${position} = :set${position}`).join(', ')} REMOVE leaseUntil${outcome.status === EmailStatus.queued ? '' : ', GSI1PK, GSI1SK'}`,
        ConditionExpression: 'leaseUntil = :held',
        ExpressionAttributeNames: Object.fromEntries(
          entries.map(([name], position) => [`#set${position}`, name]),
        ),
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([, value], position) => [`:set${position}`, value])),
          ':held': leaseUntil,
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** One page of an invoice's emails, in the order their events came. */
export function queryEmailsOfInvoice(
  merchantId: string,
  invoiceId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<QueryPage> {
  return queryMerchantItems(
    tableName(),
    partitionOfId(merchantId, invoiceId),
    emailKeys.emailsOfInvoicePrefix(invoiceId),
    { limit, startKey },
  );
}

/** True when the merchant's mail to this address bounced or was complained of before. */
export async function isSuppressed(merchantId: string, address: string): Promise<boolean> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: emailKeys.suppressedAddress(merchantId, address) }),
  );
  return Item !== undefined;
}

/**
 * SES's later word on a sent email (delivered, bounced, complained of, rejected), only while the
 * email is in one of `from`: SES's events come in any order and more than once, and a bounce or a
 * complaint outranks a delivery. False when there is no such email or it had moved on.
 */
export async function recordProviderOutcome(
  key: EmailKey,
  outcome: { status: EmailStatus; statusReason: string | undefined; at: string },
  from: readonly EmailStatus[],
): Promise<boolean> {
  const allowed = from.map((_, position) => `:from${position}`);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: emailKeys.email(key),
        UpdateExpression: `SET #status = :status, updatedAt = :at${outcome.statusReason === undefined ? '' : ', statusReason = :reason'}`,
        ConditionExpression: `attribute_exists(PK) AND #status IN (${allowed.join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':at': outcome.at,
          ...(outcome.statusReason === undefined ? {} : { ':reason': outcome.statusReason }),
          ...Object.fromEntries(from.map((status, position) => [`:from${position}`, status])),
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/**
 * Adds an address to the merchant's suppression list: its later emails to it are recorded
 * `suppressed` and not sent. The item keeps the address's hash, why and when, never the address.
 */
export async function suppressAddress(merchantId: string, address: string, reason: string, at: string) {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...emailKeys.suppressedAddress(merchantId, address),
        entityType: EntityType.suppressedEmailAddress,
        merchantId,
        reason,
        suppressedAt: at,
      },
    }),
  );
}

/** Counts are kept two hours, past the hour they count. */
const hourCountSeconds = 2 * 60 * 60;

/**
 * Counts one email against the merchant's hourly ceiling, only while the hour's count is under it.
 * False when the ceiling is reached: the email is not sent.
 */
export async function takeHourlySend(merchantId: string, now: Date, ceiling: number): Promise<boolean> {
  const hour = now.toISOString().slice(0, 13);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: emailKeys.emailsInHour(merchantId, hour),
        UpdateExpression: 'ADD #count :one SET entityType = :type, #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :ceiling',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':ceiling': ceiling,
          ':type': EntityType.emailHourCount,
          ':ttl': Math.floor(now.getTime() / 1000) + hourCountSeconds,
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
