import type { FailingNoticeAfter } from './endpoint-health';
import { idDerivedFromEvent } from './ids';
import { newlyQueued, type SentEmailRecord } from './invoice-email';

/**
 * The email that tells a merchant one of its endpoints has failed every attempt for a day, or for
 * five days (docs/emails.md#failing-endpoints): to the merchant's notification address, naming the
 * endpoint, its last error and how to recover. It goes through the invoice emails' pipeline and
 * states (`EmailStatus`), keyed under the endpoint.
 */
export interface EndpointNotice extends SentEmailRecord {
  readonly webhookEndpointId: string;
  /** The endpoint's url when the notice was made. */
  readonly url: string;
  readonly failingSince: string;
  readonly after: FailingNoticeAfter;
  /** The error of the failed attempt that made the run this old. */
  readonly lastError: string;
  readonly lastAttemptAt: string;
}

/** One notice per endpoint, failing run and age: derived, so a replayed stream record makes no second one. */
export function endpointNoticeIdFor(
  webhookEndpointId: string,
  failingSince: string,
  after: FailingNoticeAfter,
) {
  return idDerivedFromEvent('eml', webhookEndpointId, `failing|${failingSince}|${after}`);
}

export function newEndpointNotice(input: {
  merchantId: string;
  webhookEndpointId: string;
  url: string;
  failingSince: string;
  after: FailingNoticeAfter;
  lastError: string;
  lastAttemptAt: string;
  recipient: string;
  now: string;
}): EndpointNotice {
  const { now, ...rest } = input;
  return {
    emailId: endpointNoticeIdFor(input.webhookEndpointId, input.failingSince, input.after),
    ...rest,
    ...newlyQueued(now),
  };
}
