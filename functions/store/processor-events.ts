import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ProcessorAccountState } from '../domain/processor-account';
import type { ProcessorEventOutcome, StripeEventFields } from '../domain/processor-event';
import { processorEventRetentionDays } from '../domain/processor-event';
import { documentClient, tableName } from './client';
import { processorAccountKeys } from './processor-accounts';
import { EntityType } from './table';

export const processorEventKeys = {
  /** One per processor event, by the processor's own id: what makes a repeat a repeat. */
  processorEvent: (processor: string, eventId: string) => ({
    PK: `PROCESSOR_EVENT#${processor}#${eventId}`,
    SK: 'PROCESSOR_EVENT',
  }),
  /**
   * What a processor's object became here, one per object: a Stripe PaymentIntent `pi_…` its
   * payment, a refund `re_…` its refund, a payout `po_…` its payout, a connected account `acct_…`
   * its merchant.
   */
  processorObject: (processor: string, objectId: string) => ({
    PK: `PROCESSOR_OBJECT#${processor}#${objectId}`,
    SK: 'PROCESSOR_OBJECT',
  }),
} as const;

/** What a processor's object became, as its lookup item names it: the merchant, and our id of it. */
export interface ProcessorObjectLink {
  readonly merchantId: string;
  /** The payment, refund or payout it became; absent for an account (its merchant is all it names). */
  readonly localId?: string;
  /** A refund's payment, which its key needs. */
  readonly parentId?: string;
}

/**
 * The lookup from a processor's object to ours, written with what it became, only if absent: a
 * second event of the same object (another event id) finds it and changes nothing. Later events
 * name only the processor's object (a dispute its PaymentIntent, a payout its account), so they
 * find ours through it.
 */
export function buildPutProcessorObject(processor: string, objectId: string, link: ProcessorObjectLink) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...processorEventKeys.processorObject(processor, objectId),
        entityType: EntityType.processorObject,
        processor,
        processorObjectId: objectId,
        ...link,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export async function getProcessorObject(
  processor: string,
  objectId: string,
): Promise<ProcessorObjectLink | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: processorEventKeys.processorObject(processor, objectId),
      ConsistentRead: true,
    }),
  );
  if (Item === undefined) return undefined;
  return {
    merchantId: String(Item.merchantId),
    ...(typeof Item.localId === 'string' ? { localId: Item.localId } : {}),
    ...(typeof Item.parentId === 'string' ? { parentId: Item.parentId } : {}),
  };
}

/** The event's record, written only if absent: the second delivery of an event finds it. */
export function buildPutProcessorEvent(
  event: StripeEventFields,
  outcome: ProcessorEventOutcome,
  now: Date,
  merchantId: string | undefined,
) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...processorEventKeys.processorEvent('stripe', event.id),
        entityType: EntityType.processorEvent,
        processor: 'stripe',
        // Not `eventId`: that is GSI5's key, which only the service's own events and deliveries carry.
        processorEventId: event.id,
        eventType: event.type,
        eventCreated: event.created,
        ...(event.account == null ? {} : { processorAccountId: event.account }),
        ...(merchantId === undefined ? {} : { merchantId }),
        outcome,
        receivedAt: now.toISOString(),
        ttl: Math.floor(now.getTime() / 1000) + processorEventRetentionDays * 24 * 60 * 60,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * The account's lookup by its processor's id, which a payout's event names alone: written whenever
 * the account is opened or applies an event (the same item each time).
 */
export function buildPutAccountLookup(processor: string, processorAccountId: string, merchantId: string) {
  const { Put } = buildPutProcessorObject(processor, processorAccountId, { merchantId });
  const { ConditionExpression: _always, ReturnValuesOnConditionCheckFailure: _none, ...put } = Put;
  return { Put: put };
}

/**
 * The account's new state, unless an event newer than this one was applied already (Stripe keeps no
 * order): conditioned on the account being this merchant's and its last applied event no later.
 */
export function buildApplyAccountState(
  change: { merchantId: string; processorAccountId: string; state: ProcessorAccountState },
  event: Pick<StripeEventFields, 'id' | 'created'>,
  now: Date,
) {
  return {
    Update: {
      TableName: tableName(),
      Key: processorAccountKeys.processorAccount(change.merchantId),
      UpdateExpression:
        'SET #state = :state, updatedAt = :now, lastEventCreated = :created, lastEventId = :eventId ' +
        'ADD version :one',
      ConditionExpression:
        'processorAccountId = :accountId AND (attribute_not_exists(lastEventCreated) OR lastEventCreated <= :created)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':state': change.state,
        ':now': now.toISOString(),
        ':created': event.created,
        ':eventId': event.id,
        ':accountId': change.processorAccountId,
        ':one': 1,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}
