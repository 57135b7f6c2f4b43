import { type HealthChange, healthChangeAfter, withHealthChange } from '../domain/endpoint-health';
import { logger } from '../observability/logger';
import { recordHealth, type StoredWebhookEndpoint } from '../store/webhook-endpoints';

/** One real attempt as its endpoint's health reads it: whether it succeeded, when it started, and why it failed. */
export interface SeenAttempt {
  readonly succeeded: boolean;
  readonly at: Date;
  readonly errorMessage: string | null;
}

/** Records the health an attempt shows of its endpoint. */
export type HealthRecorder = (stored: StoredWebhookEndpoint, attempt: SeenAttempt) => Promise<void>;

/**
 * A batch's recorder of endpoint health (docs/decisions/endpoint-health.md). Each endpoint's
 * attempts are recorded one after another from the endpoint as the batch last knows it, so a batch
 * of 10 successes writes at most once, and never from a state its own write already changed. After
 * a lost condition (the endpoint changed since the batch read it) the batch writes nothing more for
 * that endpoint: the next batch reads it again. A failure that makes a failing run a day or five
 * days old marks the notice it is due on the endpoint, with the failure's error; the router mails it.
 */
export function healthRecorderOfBatch(): HealthRecorder {
  const known = new Map<string, { stored: StoredWebhookEndpoint | undefined; queue: Promise<void> }>();
  return (stored, attempt) => {
    const key = `${stored.endpoint.merchantId}|${stored.endpoint.webhookEndpointId}`;
    const entry = known.get(key) ?? { stored, queue: Promise.resolve() };
    entry.queue = entry.queue.then(async () => {
      if (entry.stored === undefined) return;
      const { succeeded, at, errorMessage } = attempt;
      const change = healthChangeAfter(
        entry.stored.endpoint,
        succeeded,
        at,
        entry.stored.failingNotice?.after,
      );
      if (change === undefined) return;
      entry.stored = await recordChange(entry.stored, change, errorMessage ?? 'Failed');
    });
    known.set(key, entry);
    return entry.queue;
  };
}

/**
 * Writes one change; the endpoint as it then is, or undefined when the write lost its condition. A
 * failed write is logged, not thrown: the attempt is already recorded, and the next one decides again.
 */
async function recordChange(
  stored: StoredWebhookEndpoint,
  change: NonNullable<HealthChange>,
  errorMessage: string,
): Promise<StoredWebhookEndpoint | undefined> {
  const write =
    change.kind === 'noticed'
      ? { kind: change.kind, notice: { after: change.after, at: change.at, lastError: errorMessage } }
      : change;
  const notice = write.kind === 'noticed' ? write.notice : undefined;
  const next = {
    ...stored,
    endpoint: withHealthChange(stored.endpoint, change),
    version: stored.version + 1,
    failingNotice: notice,
  };
  const fields = { endpointId: stored.endpoint.webhookEndpointId, merchantId: stored.endpoint.merchantId };
  try {
    if (!(await recordHealth(stored, write))) return undefined;
    if (notice !== undefined) logger.info('endpoint failing notice due', { ...fields, after: notice.after });
    return next;
  } catch (error) {
    logger.warn('endpoint health not recorded', {
      ...fields,
      change: change.kind,
      errorName: (error as Error).name,
    });
    return undefined;
  }
}
