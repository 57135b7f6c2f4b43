import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { eventObjectOf } from '../domain/event-object';
import type { DomainEvent } from '../domain/invoice';
import { isoTimestamp } from '../domain/time';
import { DeliveryStatus, deliveryIdFor, newDelivery, type WebhookDelivery } from '../domain/webhook-delivery';
import { receivesEvent, type WebhookEndpoint, WebhookEndpointStatus } from '../domain/webhook-endpoint';
import { sendEmailsOf } from '../email/emails-of-event';
import { failingNoticeCalledFor, sendFailingNotice } from '../email/failing-notice';
import type { MailQueue } from '../email/mail-message';
import { logger } from '../observability/logger';
import { originalStack } from '../observability/original-stack';
import { EntityType } from '../store/table';
import {
  type NewDelivery,
  type PlacedDelivery,
  pausedDeliveriesOf,
  placedDelivery,
  putNewDeliveries,
  replaceDelivery,
  toDelivery,
} from '../store/webhook-deliveries';
import { fanOutTargetsOf, type StoredWebhookEndpoint, toStoredEndpoint } from '../store/webhook-endpoints';
import { toStoredRecovery } from '../store/webhook-recoveries';
import { type DeliveryQueue, deliveryMessageOf } from './delivery-message';
import { runRecoveryBatch } from './recovery-batch';

/** The item types the router acts on; the stream's filter criteria let only these through. */
export const routedEntityTypes = [
  EntityType.event,
  EntityType.webhookDelivery,
  EntityType.webhookEndpoint,
  EntityType.webhookRecovery,
] as const;

/** Records per router invocation: the stream mapping's batch size, and the replay command's. */
export const routerBatchSize = 100;

/**
 * A record of an item of a routed type, whichever image it carries: what the stream mapping's
 * filter criteria let through to the router.
 */
export function isRoutedRecord(record: DynamoDBRecord): boolean {
  const routed: readonly unknown[] = routedEntityTypes;
  const { NewImage, OldImage } = record.dynamodb ?? {};
  return routed.includes(NewImage?.entityType?.S) || routed.includes(OldImage?.entityType?.S);
}

/**
 * The stream consumer, the only writer to the delivery queue besides the reconciler, handling each kind
 * of record in order (docs/decisions/fan-out-in-transactions.md#what-the-router-does-with-a-record).
 */
export function createRouter(deps: { queue: DeliveryQueue; mailQueue?: MailQueue; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const fanOut = new PendingFanOut();
    for (const record of event.Records) {
      try {
        await routeRecord(record, deps, now, fanOut);
      } catch (error) {
        return failedFrom(fanOut.firstRecord ?? record, error, record);
      }
    }
    try {
      await fanOut.write();
    } catch (error) {
      return failedFrom(fanOut.firstRecord, error, fanOut.firstRecord);
    }
    return { batchItemFailures: [] };
  };
}

/** Reports `record` and all after it as failed; `failed` is the record whose handling threw. */
function failedFrom(
  record: DynamoDBRecord | undefined,
  error: unknown,
  failed: DynamoDBRecord | undefined,
): DynamoDBBatchResponse {
  logger.error('stream record not routed', {
    ...recordLogFields(failed),
    errorName: (error as Error).name,
    stack: originalStack(error),
  });
  return { batchItemFailures: [{ itemIdentifier: record?.dynamodb?.SequenceNumber ?? '' }] };
}

/**
 * The ids of what a stream record is about, for its error line: the event, delivery or endpoint
 * of its image (the image itself may hold a delivery's payload, so it is never logged).
 */
function recordLogFields(record: DynamoDBRecord | undefined) {
  const image = imageOf(record?.dynamodb?.NewImage) ?? imageOf(record?.dynamodb?.OldImage) ?? {};
  const idOf = (name: string) => (typeof image[name] === 'string' ? image[name] : undefined);
  return {
    entityType: idOf('entityType'),
    eventId: idOf('eventId'),
    deliveryId: idOf('webhookDeliveryId'),
    endpointId: idOf('webhookEndpointId'),
    merchantId: idOf('merchantId'),
    recoveryId: idOf('recoveryId'),
  };
}

/** An event item as the stream shows it: the event, and the API request that wrote it. */
type StoredEvent = DomainEvent & { readonly requestId?: string };

/**
 * The deliveries of a batch's events not written yet, the last sequence number of each of their
 * endpoints, the first record they came from, and the events they fan out, each logged once its
 * deliveries are written.
 */
class PendingFanOut {
  private deliveries: NewDelivery[] = [];
  private lastSequences = new Map<string, number>();
  private events: { event: StoredEvent; deliveryIds: string[] }[] = [];
  firstRecord: DynamoDBRecord | undefined;

  add(record: DynamoDBRecord, event: StoredEvent, { deliveries, lastSequences }: EventFanOut): void {
    this.firstRecord ??= record;
    this.deliveries.push(...deliveries);
    // Each event's read sees a sequence at least as far as an earlier one did: keep the furthest.
    for (const [endpointId, last] of lastSequences) {
      this.lastSequences.set(endpointId, Math.max(last, this.lastSequences.get(endpointId) ?? 0));
    }
    this.events.push({ event, deliveryIds: deliveries.map(({ delivery }) => delivery.webhookDeliveryId) });
  }

  async write(): Promise<void> {
    await putNewDeliveries(this.deliveries, this.lastSequences);
    for (const { event, deliveryIds } of this.events) {
      // The on-call's link from an API request (its requestId) to the deliveries it caused.
      logger.info('event routed', {
        eventId: event.eventId,
        eventType: event.eventType,
        merchantId: event.merchantId,
        requestId: event.requestId,
        deliveryIds,
      });
    }
    this.deliveries = [];
    this.lastSequences = new Map();
    this.events = [];
    this.firstRecord = undefined;
  }
}

async function routeRecord(
  record: DynamoDBRecord,
  { queue, mailQueue }: { queue: DeliveryQueue; mailQueue?: MailQueue },
  now: () => Date,
  fanOut: PendingFanOut,
): Promise<void> {
  const newImage = imageOf(record.dynamodb?.NewImage);
  const oldImage = imageOf(record.dynamodb?.OldImage);
  const entityType = (newImage ?? oldImage)?.entityType;
  if (record.eventName === 'INSERT' && entityType === EntityType.event && newImage !== undefined) {
    const event = newImage as unknown as StoredEvent;
    // An invoice's emails go out beside its deliveries; both are safe to make again.
    if (mailQueue !== undefined) await sendEmailsOf(event, mailQueue, now());
    fanOut.add(record, event, await deliveriesOf(event, now));
  } else if (entityType === EntityType.webhookDelivery && newImage !== undefined) {
    await enqueueIfDue(
      oldImage === undefined ? undefined : toDelivery(oldImage),
      placedDelivery(newImage),
      queue,
    );
  } else if (entityType === EntityType.webhookEndpoint && newImage !== undefined && oldImage !== undefined) {
    const stored = toStoredEndpoint(newImage);
    const previous = toStoredEndpoint(oldImage);
    // A failing run's notice to the merchant, marked by the dispatcher; safe to make again.
    if (mailQueue !== undefined && failingNoticeCalledFor(previous, stored))
      await sendFailingNotice(stored, mailQueue, now());
    if (!enabledAgain(previous.endpoint, stored.endpoint)) return;
    // Resuming reads the endpoint's paused deliveries, so those of earlier events must exist by then.
    await fanOut.write();
    await resumePausedDeliveries(stored, now);
  } else if (entityType === EntityType.webhookRecovery && newImage !== undefined) {
    await runRecoveryBatch(toStoredRecovery(newImage), now());
  }
}

/** An event's new deliveries and the last sequence number of each endpoint, as read. */
interface EventFanOut {
  readonly deliveries: NewDelivery[];
  readonly lastSequences: ReadonlyMap<string, number>;
}

/**
 * The event's delivery to each endpoint that is not deleted and was subscribed to its type when it
 * occurred, paused when it is disabled, with the endpoint's shard history that places it and its
 * sequence's last number (both read with the endpoints, so they cost nothing). The endpoints are
 * read as they are now, so one created or subscribed after the event but before the stream reached
 * it is left out by its subscription time. Numbers are given when the deliveries are written.
 */
async function deliveriesOf(event: DomainEvent, now: () => Date): Promise<EventFanOut> {
  const targets = await fanOutTargetsOf(event.merchantId);
  const endpoints = targets.endpoints.filter(({ endpoint, subscribedSince }) =>
    receivesEvent(endpoint, subscribedSince, event),
  );
  const createdAt = isoTimestamp(now());
  const deliveries = endpoints.map(({ endpoint, deliveryShards }) => ({
    shards: deliveryShards,
    delivery: newDelivery({
      webhookDeliveryId: deliveryIdFor(event.eventId, endpoint.webhookEndpointId),
      webhookEndpointId: endpoint.webhookEndpointId,
      merchantId: event.merchantId,
      eventId: event.eventId,
      eventType: event.eventType,
      data: event.payload,
      paused: endpoint.status === WebhookEndpointStatus.disabled,
      objectVersion: eventObjectOf(event).objectVersion,
      now: createdAt,
    }),
  }));
  return { deliveries, lastSequences: targets.lastSequences };
}

async function enqueueIfDue(
  previous: WebhookDelivery | undefined,
  { delivery, shard }: PlacedDelivery,
  queue: DeliveryQueue,
): Promise<void> {
  if (delivery.status !== DeliveryStatus.pending || delivery.paused) return;
  const message = deliveryMessageOf(delivery, shard);
  if (previous === undefined) return queue.send(message, 0);
  if (previous.paused) return queue.send(message, 0);
  if (delivery.attemptCount > previous.attemptCount) return queue.send(message, undefined);
}

function enabledAgain(previous: WebhookEndpoint, endpoint: WebhookEndpoint): boolean {
  return (
    previous.status === WebhookEndpointStatus.disabled && endpoint.status === WebhookEndpointStatus.active
  );
}

/** Un-pauses every paused delivery of the endpoint, in each shard its history ever named. */
async function resumePausedDeliveries(stored: StoredWebhookEndpoint, now: () => Date): Promise<void> {
  const dueAt = isoTimestamp(now());
  const { webhookEndpointId, merchantId } = stored.endpoint;
  const paused = await pausedDeliveriesOf(webhookEndpointId, stored.deliveryShards);
  for (const delivery of paused) {
    await replaceDelivery(delivery, { ...delivery, paused: false }, dueAt, stored.deliveryShards);
  }
  logger.info('paused deliveries resumed', {
    endpointId: webhookEndpointId,
    merchantId,
    deliveryIds: paused.map((delivery) => delivery.webhookDeliveryId),
  });
}

function imageOf(image: unknown): Record<string, unknown> | undefined {
  // biome-ignore lint/suspicious/noExplicitAny: stream images are raw attribute values
  return image === undefined ? undefined : unmarshall(image as any);
}
