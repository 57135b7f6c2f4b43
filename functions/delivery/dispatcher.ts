import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { typeIdMilliseconds } from '../domain/id-time-bounds';
import { isoTimestamp } from '../domain/time';
import {
  type AttemptOutcome,
  DeliveryStatus,
  recordAttempt,
  type WebhookDelivery,
} from '../domain/webhook-delivery';
import { WebhookEndpointStatus } from '../domain/webhook-endpoint';
import { signedDelivery } from '../domain/webhook-signature';
import { logger } from '../observability/logger';
import { originalStack } from '../observability/original-stack';
import type { SecretSealer } from '../secrets/secret-sealer';
import { claimDelivery, replaceDelivery } from '../store/webhook-deliveries';
import { getEndpoint, type StoredWebhookEndpoint } from '../store/webhook-endpoints';
import { defaultLeaseMarginMs } from './default-lease-margin';
import { deliveryLogFields } from './delivery-log-fields';
import { DeliveryMessage } from './delivery-message';
import { type HealthRecorder, healthRecorderOfBatch } from './endpoint-health';
import { PipelineMetricNames } from './pipeline-metric-names';
import { type PipelineMetrics, pipelineMetrics } from './pipeline-metrics';
import { simulatedAttempt } from './simulated-attempt';

type EndpointReader = (
  merchantId: string,
  webhookEndpointId: string,
) => Promise<StoredWebhookEndpoint | undefined>;

/**
 * Reads each endpoint once per batch: the batch's messages start together, so they would each read
 * it at the same moment anyway, and a busy endpoint's batch of 10 costs one read instead of 10.
 * Nothing is kept past the batch, so a change of URL, status or secret counts from the next one.
 */
function endpointReaderOfBatch(): EndpointReader {
  const reads = new Map<string, Promise<StoredWebhookEndpoint | undefined>>();
  return (merchantId, webhookEndpointId) => {
    const key = `${merchantId}|${webhookEndpointId}`;
    let read = reads.get(key);
    if (read === undefined) {
      read = getEndpoint(merchantId, webhookEndpointId);
      reads.set(key, read);
    }
    return read;
  };
}

export interface DispatcherDependencies {
  readonly send: (request: {
    url: string;
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    allowLoopback: boolean;
  }) => Promise<AttemptOutcome>;
  readonly sealer: () => SecretSealer;
  readonly timeoutMs: number;
  readonly retryDelaySeconds: number;
  readonly allowLoopback: boolean;
  /** How long a lease outlasts the attempt timeout; default `defaultLeaseMarginMs`. */
  readonly leaseMarginMs?: number;
  readonly now?: () => Date;
  /** Default: the pipeline's EMF metrics, written only in Lambda. */
  readonly metrics?: PipelineMetrics;
}

/**
 * The queue consumer (docs/decisions/delivery-pipeline.md), the only writer of attempts and of
 * an endpoint's health (written only when it changes: docs/decisions/endpoint-health.md).
 * Messages of a batch are attempted concurrently; each failure to process (not a failed attempt,
 * which is recorded) is reported so only that message comes back.
 */
export function createDispatcher(deps: DispatcherDependencies) {
  const metrics = deps.metrics ?? pipelineMetrics();
  const context: DispatchContext = {
    deps,
    now: deps.now ?? (() => new Date()),
    metrics,
    signingSecretOf: signingSecretCache(deps.sealer),
  };
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const endpointOf = endpointReaderOfBatch();
    const recordHealth = healthRecorderOfBatch();
    const failed = await Promise.all(
      event.Records.map(async (record) => {
        let message: DeliveryMessage | undefined;
        try {
          message = z.parse(DeliveryMessage, JSON.parse(record.body));
          await dispatch(context, message, endpointOf, recordHealth);
          return undefined;
        } catch (error) {
          logger.error('delivery message not processed', {
            ...(message === undefined ? {} : messageLogFields(message)),
            messageId: record.messageId,
            errorName: (error as Error).name,
            stack: originalStack(error),
          });
          return record.messageId;
        }
      }),
    );
    metrics.publish();
    return {
      batchItemFailures: failed.flatMap((messageId) =>
        messageId === undefined ? [] : [{ itemIdentifier: messageId }],
      ),
    };
  };
}

/** What every message of every batch of one dispatcher shares. */
interface DispatchContext {
  readonly deps: DispatcherDependencies;
  readonly now: () => Date;
  readonly metrics: PipelineMetrics;
  readonly signingSecretOf: (stored: StoredWebhookEndpoint) => Promise<string>;
}

/** One attempt's start and what the endpoint (or the simulation) answered. */
interface Attempt {
  readonly startedAt: Date;
  readonly result: AttemptOutcome;
}

/** Opened secrets are kept per sealed value: a rotation seals anew, so a stale one is never used. */
function signingSecretCache(sealer: () => SecretSealer) {
  const secrets = new Map<string, string>();
  return async (stored: StoredWebhookEndpoint): Promise<string> => {
    const known = secrets.get(stored.sealedSigningSecret);
    if (known !== undefined) return known;
    const secret = await sealer().open(stored.sealedSigningSecret, {
      merchantId: stored.endpoint.merchantId,
      webhookEndpointId: stored.endpoint.webhookEndpointId,
    });
    secrets.set(stored.sealedSigningSecret, secret);
    return secret;
  };
}

/**
 * The delivery a message asks an attempt of, leased to this dispatcher, and its endpoint; undefined
 * for a duplicate or stale message (the attempt was recorded, the delivery ended, or another
 * dispatcher holds the lease). One POST per attempt even when a message comes twice: whoever
 * holds the lease sends it.
 */
async function claim(message: DeliveryMessage, leasedAt: Date, leaseUntil: Date, endpointOf: EndpointReader) {
  // The message places the delivery: lease it (the write returns it) while reading the endpoint.
  const [delivery, stored] = await Promise.all([
    claimDelivery(message, message.shard, leasedAt, leaseUntil),
    endpointOf(message.merchantId, message.webhookEndpointId),
  ]);
  return delivery === undefined ? undefined : { delivery, stored };
}

async function dispatch(
  context: DispatchContext,
  message: DeliveryMessage,
  endpointOf: EndpointReader,
  recordHealth: HealthRecorder,
): Promise<void> {
  const { deps, now } = context;
  const leasedAt = now();
  const leaseUntil = new Date(
    leasedAt.getTime() + deps.timeoutMs + (deps.leaseMarginMs ?? defaultLeaseMarginMs),
  );
  const claimed = await claim(message, leasedAt, leaseUntil, endpointOf);
  if (claimed === undefined) {
    logger.debug('delivery message skipped: stale, duplicate or leased elsewhere', messageLogFields(message));
    return;
  }
  const { delivery, stored } = claimed;
  const shards = stored?.deliveryShards ?? [];
  // A deleted endpoint's deliveries end without further attempts (docs/decisions/delivery-pipeline.md). They leave the
  // due index too (as paused ones do), or the reconciler would send them back every run, and
  // enough of them, being the oldest, would fill its whole batch and hide really lost ones.
  // Pausing replaces the item, lease included.
  const deleted = stored === undefined || stored.endpoint.status === WebhookEndpointStatus.deleted;
  if (deleted || stored.endpoint.status === WebhookEndpointStatus.disabled) {
    await replaceDelivery(delivery, { ...delivery, paused: true }, undefined, shards);
    logger.info('delivery paused', {
      ...deliveryLogFields(delivery),
      endpointStatus: stored?.endpoint.status ?? WebhookEndpointStatus.deleted,
    });
    return;
  }
  // A recovery's delivery goes only to the URL whose health the recovery checked
  // (docs/decisions/bulk-recovery.md): after a change of URL it ends unsent, exhausted, for a later
  // recovery of the new URL to take up.
  if (delivery.targetUrl !== undefined && delivery.targetUrl !== stored.endpoint.url) {
    await replaceDelivery(delivery, { ...delivery, status: DeliveryStatus.exhausted }, undefined, shards);
    logger.info('recovery delivery ended unsent: the endpoint url changed', deliveryLogFields(delivery));
    return;
  }
  // Sandbox failure simulation: the endpoint's next N attempts fail without a request.
  const simulated = await simulatedAttempt(stored, now);
  const outcome = simulated ?? (await attempt(context, delivery, stored));
  const attemptedAt = now();
  const next = recordAttempt(delivery, outcome.result, isoTimestamp(outcome.startedAt));
  const dueAt = new Date(attemptedAt.getTime() + deps.retryDelaySeconds * 1000);
  await replaceDelivery(delivery, next, isoTimestamp(dueAt), shards);
  recordAttemptOutcome(context.metrics, delivery, next, outcome);
  // A simulated failure sent no request: it shows nothing of the endpoint.
  if (simulated === undefined) {
    const { succeeded, errorMessage } = outcome.result;
    await recordHealth(stored, { succeeded, at: outcome.startedAt, errorMessage: errorMessage ?? null });
  }
}

/** The attempt's one log line and its metrics, once the attempt is recorded. */
function recordAttemptOutcome(
  metrics: PipelineMetrics,
  delivery: WebhookDelivery,
  next: WebhookDelivery,
  { startedAt, result }: Attempt,
) {
  const exhausted = next.status === DeliveryStatus.exhausted;
  logger.info('delivery attempted', {
    ...deliveryLogFields(delivery),
    attempt: next.attemptCount,
    outcome: result.succeeded ? 'succeeded' : 'failed',
    statusCode: result.statusCode,
    durationMs: Math.round(result.durationMs),
    exhausted,
  });
  metrics.count(PipelineMetricNames.attempts);
  metrics.count(result.succeeded ? PipelineMetricNames.succeeded : PipelineMetricNames.failedAttempts);
  if (exhausted) metrics.count(PipelineMetricNames.exhausted);
  if (next.attemptCount === 1) metrics.firstAttemptLag(startedAt.getTime() - createdAtOf(delivery));
}

async function attempt(
  { deps, now, signingSecretOf }: DispatchContext,
  delivery: WebhookDelivery,
  stored: StoredWebhookEndpoint,
): Promise<Attempt> {
  const startedAt = now();
  const secret = await signingSecretOf(stored);
  const { body, headers } = signedDelivery(delivery, secret, Math.floor(startedAt.getTime() / 1000));
  const result = await deps.send({
    url: stored.endpoint.url,
    headers: { ...headers },
    body,
    timeoutMs: deps.timeoutMs,
    allowLoopback: deps.allowLoopback,
  });
  return { startedAt, result };
}

/** A message's ids, for the lines about a message whose delivery was not read. */
function messageLogFields(message: DeliveryMessage) {
  return {
    deliveryId: message.webhookDeliveryId,
    endpointId: message.webhookEndpointId,
    merchantId: message.merchantId,
    attempt: message.attemptCount + 1,
  };
}

/**
 * When the delivery's lag starts: its event's creation, which the event id's time records (the
 * event's createdAt is not on the delivery); for a manual redelivery, its own creation, since its
 * first attempt waits on the merchant's request, not on the pipeline. An event id that is no
 * TypeID falls back to the delivery's creation: a metric must never fail a recorded attempt.
 */
function createdAtOf(delivery: WebhookDelivery): number {
  if (delivery.redeliveredFromId !== null) return Date.parse(delivery.createdAt);
  try {
    return typeIdMilliseconds(delivery.eventId);
  } catch {
    return Date.parse(delivery.createdAt);
  }
}
