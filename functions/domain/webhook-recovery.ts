import { retentionDays } from './retention';
import { redeliveryOf, type WebhookDelivery } from './webhook-delivery';
import { WebhookEndpointStatus } from './webhook-endpoint';

/**
 * Bulk recovery (docs/decisions/bulk-recovery.md): a recovery of an endpoint redelivers, in the background,
 * the exhausted deliveries of a window of time. `running` until its last batch; `canceled` when the
 * endpoint was deleted, disabled or given another URL before that.
 */
export const RecoveryStatus = { running: 'running', completed: 'completed', canceled: 'canceled' } as const;
export type RecoveryStatus = (typeof RecoveryStatus)[keyof typeof RecoveryStatus];

/** The longest window a recovery takes: as long as events and deliveries are kept. */
export const maxRecoveryWindowDays = retentionDays;

const dayMilliseconds = 24 * 60 * 60 * 1000;

/**
 * How many exhausted deliveries one batch redelivers: each is one put in the batch's transaction,
 * beside the recovery's own update, the sequence's advance and, at the end, the lock's release (43
 * of DynamoDB's 100 actions), and each costs one Query of its event's deliveries first, so a batch
 * stays short work for the stream consumer that runs it.
 */
export const recoveryBatchSize = 40;

/**
 * How long a running recovery may go without a write before the reconciler nudges it (writes its
 * record again, so the router runs its batch again). A batch follows its record's write within
 * seconds, so this only passes when the router gave up on that write's stream record or is far
 * behind (5 minutes is its iterator-age alarm); a nudge while it only lags costs one batch that
 * finds its step taken and writes nothing.
 */
export const recoveryStallSeconds = 5 * 60;

/** When a running recovery written at `writtenAt` counts as stalled, unless a batch writes it first. */
export function recoveryNudgeAt(writtenAt: string): string {
  return new Date(Date.parse(writtenAt) + recoveryStallSeconds * 1000).toISOString();
}

/** What a recovery has done so far, as `GET …/recoveries/{recoveryId}` reports it. */
export interface RecoveryCounts {
  /** Exhausted deliveries found in the window (test deliveries are never recovered). */
  readonly exhaustedFound: number;
  /** New deliveries created, each linked to the one it recovers by `redeliveredFromId`. */
  readonly redelivered: number;
  /** Exhausted deliveries left alone: their event has a newer delivery to the endpoint. */
  readonly skipped: number;
}

export interface WebhookRecovery extends RecoveryCounts {
  readonly recoveryId: string;
  readonly webhookEndpointId: string;
  readonly merchantId: string;
  /** The window, inclusive at both ends: deliveries whose ids carry a time in it. */
  readonly since: string;
  readonly until: string;
  readonly status: RecoveryStatus;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt: string | null;
}

/** Where the next batch reads from: a shard of the endpoint's deliveries, after the key last read. */
export interface RecoveryCursor {
  readonly shard: number;
  /** The sort key of the last delivery read in that shard; absent at the start of the shard. */
  readonly after?: string;
}

/** A recovery as stored: its view, the URL it checked, its cursor and how many batches it has committed. */
export interface StoredRecovery {
  readonly recovery: WebhookRecovery;
  /**
   * The endpoint's URL when the start found it answering: the only URL the recovery sends to. A change
   * of URL ends it (docs/decisions/bulk-recovery.md).
   */
  readonly url: string;
  readonly cursor: RecoveryCursor;
  /** Batches committed so far: each batch commits only from the step it read (a retry finds it moved). */
  readonly step: number;
}

/** A problem with a recovery's window, on the field it names (`until` is never refused: see below). */
export interface WindowProblem {
  readonly path: 'since';
  readonly message: string;
}

/**
 * The window a request asks for, checked against `now`: `until` defaults to now and a later one is
 * taken as now, since nothing after it exists yet; `since` may be no earlier than the retention
 * reaches back (older deliveries are gone) and not after `until`.
 */
export function recoveryWindow(
  request: { since: string; until?: string | undefined },
  now: Date,
): { since: string; until: string } | WindowProblem {
  const nowIso = now.toISOString();
  const until =
    request.until === undefined || Date.parse(request.until) > now.getTime() ? nowIso : request.until;
  const oldest = now.getTime() - maxRecoveryWindowDays * dayMilliseconds;
  if (Date.parse(request.since) < oldest) {
    return {
      path: 'since',
      message: `must be within the last ${maxRecoveryWindowDays} days: deliveries are kept that long.`,
    };
  }
  if (Date.parse(request.since) > Date.parse(until)) {
    return { path: 'since', message: 'must not be after until (or now, when until is left out or later).' };
  }
  return { since: request.since, until };
}

export function newRecovery(input: {
  recoveryId: string;
  webhookEndpointId: string;
  merchantId: string;
  url: string;
  since: string;
  until: string;
  now: string;
}): StoredRecovery {
  return {
    recovery: {
      recoveryId: input.recoveryId,
      webhookEndpointId: input.webhookEndpointId,
      merchantId: input.merchantId,
      since: input.since,
      until: input.until,
      status: RecoveryStatus.running,
      exhaustedFound: 0,
      redelivered: 0,
      skipped: 0,
      createdAt: input.now,
      updatedAt: input.now,
      completedAt: null,
    },
    url: input.url,
    cursor: { shard: 0 },
    step: 0,
  };
}

/**
 * Which exhausted deliveries of a batch are redelivered: only an event's newest delivery to the
 * endpoint, so an event is sent again once however many of its deliveries are in the window, and
 * not at all when a newer one (a manual redelivery, an earlier recovery's) already exists.
 * `newestOfEvent` maps each event to the id of its newest delivery to the endpoint, as stored.
 */
export function deliveriesToRecover(
  exhausted: readonly WebhookDelivery[],
  newestOfEvent: ReadonlyMap<string, string>,
): WebhookDelivery[] {
  // An event the index does not show yet (a global index lags its writes a moment): the batch's own newest stands in.
  const newestInBatch = new Map<string, string>();
  for (const { eventId, webhookDeliveryId } of exhausted) {
    const newest = newestInBatch.get(eventId);
    if (newest === undefined || webhookDeliveryId > newest) newestInBatch.set(eventId, webhookDeliveryId);
  }
  return exhausted.filter(
    ({ eventId, webhookDeliveryId }) =>
      (newestOfEvent.get(eventId) ?? newestInBatch.get(eventId)) === webhookDeliveryId,
  );
}

/**
 * The new delivery a recovery makes of an exhausted one: as a manual redelivery, bound to the URL the
 * recovery checked, so a URL changed before it is sent ends it unsent.
 */
export function recoveryRedeliveryOf(
  exhausted: WebhookDelivery,
  webhookDeliveryId: string,
  now: string,
  url: string,
): WebhookDelivery {
  return { ...redeliveryOf(exhausted, webhookDeliveryId, now), paused: false, targetUrl: url };
}

/**
 * Why a recovery's endpoint no longer takes its batches, or undefined while it does: a deleted, disabled
 * or re-aimed endpoint ends the recovery as canceled, since its health was checked at another URL or it
 * receives nothing now.
 */
export function recoveryEndedBy(
  stored: StoredRecovery,
  endpoint: { readonly status: string; readonly url: string } | undefined,
): 'deleted' | 'disabled' | 'url changed' | undefined {
  if (endpoint === undefined || endpoint.status === WebhookEndpointStatus.deleted) return 'deleted';
  if (endpoint.status === WebhookEndpointStatus.disabled) return 'disabled';
  return endpoint.url === stored.url ? undefined : 'url changed';
}

/** The recovery after one batch: its counts grown, its cursor moved, finished when nothing is left. */
export function afterBatch(
  stored: StoredRecovery,
  batch: { exhaustedFound: number; redelivered: number; next: RecoveryCursor | undefined },
  now: string,
): StoredRecovery {
  const { recovery } = stored;
  const finished = batch.next === undefined;
  return {
    recovery: {
      ...recovery,
      exhaustedFound: recovery.exhaustedFound + batch.exhaustedFound,
      redelivered: recovery.redelivered + batch.redelivered,
      skipped: recovery.skipped + batch.exhaustedFound - batch.redelivered,
      status: finished ? RecoveryStatus.completed : RecoveryStatus.running,
      updatedAt: now,
      completedAt: finished ? now : null,
    },
    url: stored.url,
    cursor: batch.next ?? stored.cursor,
    step: stored.step + 1,
  };
}

/** The recovery ended without finishing: its endpoint was deleted, disabled or given another URL. */
export function canceledRecovery(stored: StoredRecovery, now: string): StoredRecovery {
  return {
    ...stored,
    recovery: { ...stored.recovery, status: RecoveryStatus.canceled, updatedAt: now, completedAt: now },
    step: stored.step + 1,
  };
}
