import { DeliveryStatus } from './webhook-delivery';
import type { WebhookEndpoint } from './webhook-endpoint';

/**
 * Whether an endpoint answers, as the dispatcher sees its real attempts
 * (docs/decisions/endpoint-health.md): when one last succeeded, and since when every one has failed.
 * Written only on a change of state, never on every attempt. Health never disables an endpoint: the
 * interface's delivery rules keep a failing endpoint getting every attempt of every delivery.
 */

/** How stale `lastSucceededAt` may get on an endpoint whose attempts keep succeeding. */
export const successRefreshMs = 5 * 60 * 1000;

/** A recovery starts only on an endpoint whose latest attempt succeeded within this time. */
export const recentSuccessMs = 60 * 60 * 1000;

/**
 * The notices a failing run sends the merchant's notification address (docs/emails.md#failing-endpoints):
 * one once every attempt has failed for a day, one more at five days. Longest first.
 */
export const failingNotices = [
  { after: '5d', ms: 5 * 24 * 60 * 60 * 1000 },
  { after: '24h', ms: 24 * 60 * 60 * 1000 },
] as const;
export type FailingNoticeAfter = (typeof failingNotices)[number]['after'];

/** A change of an endpoint's health after one real attempt, or none (the common case). */
export type HealthChange =
  /** A success after failures, or the first one, or the first after `successRefreshMs`. */
  | { readonly kind: 'succeeded'; readonly at: string }
  /** The first failure after a success (or ever). */
  | { readonly kind: 'failing'; readonly at: string }
  /** A failure that makes the run `after` old, longer than its last notice (if any) told. */
  | { readonly kind: 'noticed'; readonly at: string; readonly after: FailingNoticeAfter }
  | undefined;

/**
 * What an attempt at `at` changes of the endpoint's health, given the endpoint as last known and
 * the notice its failing run last sent (`noticed`).
 */
export function healthChangeAfter(
  endpoint: WebhookEndpoint,
  succeeded: boolean,
  at: Date,
  noticed?: FailingNoticeAfter,
): HealthChange {
  const when = at.toISOString();
  if (succeeded) {
    const last = endpoint.lastSucceededAt === undefined ? undefined : Date.parse(endpoint.lastSucceededAt);
    const fresh = last !== undefined && at.getTime() - last < successRefreshMs;
    return endpoint.failingSince === undefined && fresh ? undefined : { kind: 'succeeded', at: when };
  }
  if (endpoint.failingSince === undefined) return { kind: 'failing', at: when };
  const after = failingNoticeDue(endpoint.failingSince, noticed, at);
  return after === undefined ? undefined : { kind: 'noticed', at: when, after };
}

/**
 * The notice a failure at `at` calls for in a run that began at `failingSince`: the longest whose
 * time has passed, when it is longer than the one already sent. A run whose first failure after a
 * day comes five days in sends the five-day notice only: at most one of each per run.
 */
export function failingNoticeDue(
  failingSince: string,
  noticed: FailingNoticeAfter | undefined,
  at: Date,
): FailingNoticeAfter | undefined {
  const elapsed = at.getTime() - Date.parse(failingSince);
  const due = failingNotices.find((notice) => elapsed >= notice.ms);
  if (due === undefined) return undefined;
  const rank = (after: FailingNoticeAfter | undefined) =>
    after === undefined
      ? failingNotices.length
      : failingNotices.findIndex((notice) => notice.after === after);
  return rank(due.after) < rank(noticed) ? due.after : undefined;
}

/** The endpoint after a health change, as the API shows it. */
export function withHealthChange(
  endpoint: WebhookEndpoint,
  change: NonNullable<HealthChange>,
): WebhookEndpoint {
  switch (change.kind) {
    case 'succeeded': {
      const { failingSince: _cleared, ...rest } = endpoint;
      return { ...rest, lastSucceededAt: change.at };
    }
    case 'failing':
      return { ...endpoint, failingSince: change.at };
    case 'noticed':
      return endpoint;
  }
}

/**
 * Why the endpoint has not shown, recently, that it answers, or undefined when it has: its latest
 * attempt succeeded (no failure since) within `recentSuccessMs` of `now`, as `lastSucceededAt`
 * tells to within `successRefreshMs`.
 */
export function unansweredReason(endpoint: WebhookEndpoint, now: Date): string | undefined {
  if (endpoint.failingSince !== undefined) return `every attempt since ${endpoint.failingSince} failed`;
  if (endpoint.lastSucceededAt === undefined) return 'no attempt to its url has succeeded yet';
  if (now.getTime() - Date.parse(endpoint.lastSucceededAt) > recentSuccessMs)
    return `its last successful attempt was at ${endpoint.lastSucceededAt}, more than an hour ago`;
  return undefined;
}

/** A delivery as the recovery gate reads it: its attempts, and until when a dispatcher holds its next one. */
export interface AttemptedDelivery {
  readonly status: string;
  readonly paused: boolean;
  readonly attempts: readonly { readonly attemptedAt: string; readonly errorMessage: string | null }[];
  readonly leaseUntil?: string | undefined;
}

/**
 * What an endpoint's newest deliveries show beyond its recorded health, which the dispatcher writes
 * only after it has recorded the attempt (docs/decisions/recovery-needs-an-endpoint-that-answers.md):
 * `answered` when the latest attempt among them succeeded (no error: a 2xx) within `recentSuccessMs` of `now`, after the
 * endpoint's last change and after its failing run began; `inFlight` when a dispatcher holds an
 * attempt of one of them right now, whose outcome is not recorded yet; otherwise `unanswered`.
 */
export function shownByDeliveries(
  endpoint: WebhookEndpoint,
  deliveries: readonly AttemptedDelivery[],
  now: Date,
): 'answered' | 'inFlight' | 'unanswered' {
  const latest = deliveries
    .flatMap((delivery) => delivery.attempts)
    .reduce<AttemptedDelivery['attempts'][number] | undefined>(
      (found, attempt) => (found === undefined || attempt.attemptedAt > found.attemptedAt ? attempt : found),
      undefined,
    );
  const after = [endpoint.updatedAt, endpoint.failingSince ?? ''].reduce((a, b) => (a > b ? a : b));
  if (
    latest !== undefined &&
    latest.errorMessage === null &&
    latest.attemptedAt > after &&
    now.getTime() - Date.parse(latest.attemptedAt) <= recentSuccessMs
  )
    return 'answered';
  const leased = deliveries.some(
    (delivery) =>
      delivery.status === DeliveryStatus.pending &&
      !delivery.paused &&
      delivery.leaseUntil !== undefined &&
      Date.parse(delivery.leaseUntil) > now.getTime(),
  );
  return leased ? 'inFlight' : 'unanswered';
}
