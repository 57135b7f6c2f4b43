import {
  type DeclineHistory,
  declineLimit,
  noDeclines,
  PayLinkDeclineLimit,
  PayLinkDeclineLimitReached,
  type PayLinkDeclines,
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
 * The invoice item keeps its latest pay-link declines beside the processor lock, in two lists of
 * epoch ms, newest first: `payLinkDeclinedAt` for its current slug (at most `perSlug`) and
 * `invoiceDeclinedAt` for all its slugs (at most `perInvoice`). A pay-link payment's reservation,
 * which locks the invoice, is conditioned on both limits, and a decline is added to both by the same
 * write that releases the lock: the lock orders every attempt, so the counts are exact and cost no
 * read. The lists are bookkeeping, outside the pay-link index's projection and never part of a
 * resource.
 */

interface StoredList {
  readonly name: string;
  readonly placeholder: string;
  readonly limit: number;
}

const lists: Record<keyof PayLinkDeclines, StoredList> = {
  slug: { name: 'payLinkDeclinedAt', placeholder: '#payLinkDeclinedAt', limit: PayLinkDeclineLimit.perSlug },
  invoice: {
    name: 'invoiceDeclinedAt',
    placeholder: '#invoiceDeclinedAt',
    limit: PayLinkDeclineLimit.perInvoice,
  },
};
const scopes = Object.keys(lists) as (keyof PayLinkDeclines)[];
const listNames = Object.fromEntries(scopes.map((scope) => [lists[scope].placeholder, lists[scope].name]));

/** The item's declines; none on an invoice that never had a pay-link decline. */
export function declinesOf(item: Record<string, unknown> | undefined): PayLinkDeclines {
  const read = (list: StoredList) => {
    const stored = item?.[list.name];
    return Array.isArray(stored) ? stored.map(Number) : [];
  };
  return { slug: read(lists.slug), invoice: read(lists.invoice) };
}

/** The limit-th newest decline of a list: while it is missing the list has room. */
const oldestCounted = (list: StoredList) => `${list.placeholder}[${list.limit - 1}]`;

/**
 * What a pay-link payment's reservation requires of the invoice: fewer than `perSlug` declines of
 * this slug and fewer than `perInvoice` of the invoice within the window before `now` (each list's
 * limit-th newest is missing or old enough), and the 429 when it fails.
 */
export function payLinkDeclineAdmission(now: Date): ProcessorCallAdmission {
  return {
    conditions: scopes.map((scope) => {
      const counted = oldestCounted(lists[scope]);
      return {
        expression: `attribute_not_exists(${counted}) OR ${counted} <= :declineWindowStart`,
        names: { [lists[scope].placeholder]: lists[scope].name },
        values: { ':declineWindowStart': now.getTime() - PayLinkDeclineLimit.windowMs },
      };
    }),
    refusal: (item) => {
      const limit = declineLimit(declinesOf(item), now);
      return limit === undefined ? undefined : new PayLinkDeclineLimitReached(limit.until, limit.scope);
    },
  };
}

/**
 * The decline's write of the invoice by the call holding its lock: releases the lock and adds the
 * decline to both lists. While both have room it is an append that needs no read; a full list has to
 * drop its oldest, so then both are rewritten, conditioned on being as the failed append found them.
 */
export function buildRecordDecline(key: ItemKey, callId: string, at: Date, full?: PayLinkDeclines) {
  const fits: Condition[] = scopes.map((scope) =>
    full === undefined
      ? { expression: `attribute_not_exists(${oldestCounted(lists[scope])})` }
      : listAsRead(lists[scope], full[scope], 'previous'),
  );
  const condition = allOf(lockHeldBy(callId), ...fits);
  const next = full === undefined ? undefined : withDecline(full, at);
  const assignments = scopes.map((scope) => {
    const { placeholder } = lists[scope];
    return next === undefined
      ? `${placeholder} = list_append(:decline, if_not_exists(${placeholder}, :noDeclines))`
      : `${placeholder} = :${scope}Declines`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: { ...key },
      UpdateExpression: `SET ${assignments.join(', ')} REMOVE ${lockRelease.attributes.join(', ')}`,
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, ...lockRelease.names, ...listNames },
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ...(next === undefined
          ? { ':decline': [at.getTime()], ':noDeclines': [] }
          : Object.fromEntries(scopes.map((scope) => [`:${scope}Declines`, [...next[scope]]]))),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * The rewrite to send when the append found a list full: `undefined` when the lock was lost
 * instead (another call took over a lease that ran out), which must fail as before.
 */
export function buildRecordDeclineOverFull(
  key: ItemKey,
  callId: string,
  at: Date,
  existing: Record<string, unknown> | undefined,
) {
  if (existing === undefined || !isLockHeldBy(existing, callId)) return undefined;
  return buildRecordDecline(key, callId, at, declinesOf(existing));
}

/** The conditions a replacement of the whole invoice carries: both lists are as it read them. */
export function declinesAsRead(declines: PayLinkDeclines): Condition[] {
  return scopes.map((scope) => listAsRead(lists[scope], declines[scope], 'asRead'));
}

/** The attributes a replacement of the whole invoice writes, so it never drops a list it keeps. */
export function declinesAttributes(declines: PayLinkDeclines = noDeclines): Record<string, number[]> {
  return Object.fromEntries(
    scopes.flatMap((scope) =>
      declines[scope].length === 0 ? [] : [[lists[scope].name, [...declines[scope]]]],
    ),
  );
}

/** The lists are bookkeeping: item readers drop them before an item becomes a resource. */
export function withoutDeclines<T extends Record<string, unknown>>(item: T): T {
  const { [lists.slug.name]: _slug, [lists.invoice.name]: _invoice, ...rest } = item;
  return rest as T;
}

function listAsRead(list: StoredList, history: DeclineHistory, tag: string): Condition {
  const value = `:${tag}${list.name}`;
  return history.length === 0
    ? { expression: `attribute_not_exists(${list.placeholder})`, names: { [list.placeholder]: list.name } }
    : {
        expression: `${list.placeholder} = ${value}`,
        names: { [list.placeholder]: list.name },
        values: { [value]: [...history] },
      };
}
