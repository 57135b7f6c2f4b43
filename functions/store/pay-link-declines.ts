import {
  type DeclineHistory,
  declineLimitUntil,
  PayLinkDeclineLimit,
  PayLinkDeclineLimitReached,
  withDecline,
} from '../domain/pay-link-declines';
import { tableName } from './client';
import {
  allOf,
  type Condition,
  type ItemKey,
  isLockHeldBy,
  lockHeldBy,
  lockRelease,
  type ProcessorCallAdmission,
} from './processor-calls';

/*
 * The invoice item keeps its latest pay-link declines (`payLinkDeclinedAt`, epoch ms, newest first,
 * at most the cap) beside the processor lock. A pay-link payment's reservation, which locks the
 * invoice, is conditioned on the cap, and a decline is added by the same write that releases the
 * lock: the lock orders every attempt, so the count is exact and costs no read. The attribute is
 * bookkeeping, outside the pay-link index's projection and never part of a resource.
 */

const declinedAt = { name: 'payLinkDeclinedAt', placeholder: '#payLinkDeclinedAt' } as const;

/** The item's decline history; none on an invoice that never had a pay-link decline. */
export function declineHistoryOf(item: Record<string, unknown> | undefined): number[] {
  const stored = item?.[declinedAt.name];
  return Array.isArray(stored) ? stored.map(Number) : [];
}

/**
 * What a pay-link payment's reservation requires of the invoice: fewer than `cap` declines within
 * the window before `now` (the cap-th newest is missing or old enough), and the 429 when it fails.
 */
export function payLinkDeclineAdmission(now: Date): ProcessorCallAdmission {
  const oldestCounted = `${declinedAt.placeholder}[${PayLinkDeclineLimit.cap - 1}]`;
  return {
    condition: {
      expression: `attribute_not_exists(${oldestCounted}) OR ${oldestCounted} <= :declineWindowStart`,
      names: { [declinedAt.placeholder]: declinedAt.name },
      values: { ':declineWindowStart': now.getTime() - PayLinkDeclineLimit.windowMs },
    },
    refusal: (item) => {
      const until = declineLimitUntil(declineHistoryOf(item), now);
      return until === undefined ? undefined : new PayLinkDeclineLimitReached(until);
    },
  };
}

/**
 * The decline's write of the invoice by the call holding its lock: releases the lock and adds the
 * decline. While fewer than `cap` are kept it is an append that needs no read; a full history has
 * to drop its oldest, so it is rewritten, conditioned on being as the failed append found it.
 */
export function buildRecordDecline(key: ItemKey, callId: string, at: Date, full?: DeclineHistory) {
  const held = lockHeldBy(callId);
  const fits: Condition =
    full === undefined
      ? { expression: `attribute_not_exists(${declinedAt.placeholder}[${PayLinkDeclineLimit.cap - 1}])` }
      : {
          expression: `${declinedAt.placeholder} = :previousDeclines`,
          values: { ':previousDeclines': full },
        };
  const condition = allOf(held, fits);
  return {
    Update: {
      TableName: tableName(),
      Key: { ...key },
      UpdateExpression:
        full === undefined
          ? `SET ${declinedAt.placeholder} = list_append(:decline, if_not_exists(${declinedAt.placeholder}, :noDeclines)) REMOVE ${lockRelease.attributes.join(', ')}`
          : `SET ${declinedAt.placeholder} = :declines REMOVE ${lockRelease.attributes.join(', ')}`,
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeNames: {
        ...condition.ExpressionAttributeNames,
        ...lockRelease.names,
        [declinedAt.placeholder]: declinedAt.name,
      },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ...(full === undefined
          ? { ':decline': [at.getTime()], ':noDeclines': [] }
          : { ':declines': withDecline(full, at) }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * The rewrite to send when the append found the history full: `undefined` when the lock was lost
 * instead (another call took over a lease that ran out), which must fail as before.
 */
export function buildRecordDeclineOverFull(
  key: ItemKey,
  callId: string,
  at: Date,
  existing: Record<string, unknown> | undefined,
) {
  if (existing === undefined || !isLockHeldBy(existing, callId)) return undefined;
  return buildRecordDecline(key, callId, at, declineHistoryOf(existing));
}

/** The condition a replacement of the whole invoice carries: the decline history is as it read it. */
export function declinesAsRead(history: DeclineHistory): Condition {
  return history.length === 0
    ? {
        expression: `attribute_not_exists(${declinedAt.placeholder})`,
        names: { [declinedAt.placeholder]: declinedAt.name },
      }
    : {
        expression: `${declinedAt.placeholder} = :declinesAsRead`,
        names: { [declinedAt.placeholder]: declinedAt.name },
        values: { ':declinesAsRead': [...history] },
      };
}

/** The attribute a replacement of the whole invoice writes back, so it never drops the history. */
export function declineHistoryAttribute(history: DeclineHistory): Record<string, number[]> {
  return history.length === 0 ? {} : { [declinedAt.name]: [...history] };
}

/** Strips the history from an item before it becomes a resource. */
export const declineHistoryAttributeName = declinedAt.name;
