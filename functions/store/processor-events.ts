import type { ProcessorAccountState } from '../domain/processor-account';
import type { ProcessorEventOutcome, StripeEventFields } from '../domain/processor-event';
import { processorEventRetentionDays } from '../domain/processor-event';
import { tableName } from './client';
import { processorAccountKeys } from './processor-accounts';
import { EntityType } from './table';

export const processorEventKeys = {
  /** One per processor event, by the processor's own id: what makes a repeat a repeat. */
  processorEvent: (processor: string, eventId: string) => ({
    PK: `PROCESSOR_EVENT#${processor}#${eventId}`,
    SK: 'PROCESSOR_EVENT',
  }),
} as const;

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
        eventId: event.id,
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
