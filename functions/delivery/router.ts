import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { DomainEvent } from '../domain/invoice';
import { isoTimestamp } from '../domain/time';
import { DeliveryStatus, deliveryIdFor, newDelivery, type WebhookDelivery } from '../domain/webhook-delivery';
import { receivesEvent, type WebhookEndpoint, WebhookEndpointStatus } from '../domain/webhook-endpoint';
import { logger } from '../http/logger';
import { originalStack } from '../http/original-stack';
import { EntityType } from '../store/keys';
import { pausedDeliveriesOf, putNewDelivery, replaceDelivery, toDelivery } from '../store/webhook-deliveries';
import { liveEndpointsOf, toEndpoint } from '../store/webhook-endpoints';
import type { DeliveryQueue } from './delivery-message';

/** The item types the router acts on; the stream's filter criteria let only these through. */
export const routedEntityTypes = [
  EntityType.event,
  EntityType.webhookDelivery,
  EntityType.webhookEndpoint,
] as const;

/**
 * The stream consumer (DESIGN §1), the only writer to the delivery queue besides the reconciler:
 * - an event → one delivery per subscribed endpoint that is not deleted (paused when disabled);
 * - a new delivery → enqueued now; a failed attempt on a pending delivery → enqueued with the
 *   queue's default delay; a delivery un-paused → enqueued now;
 * - an endpoint enabled again → its paused deliveries are un-paused (which enqueues them).
 * Records are handled in order; the first failure is reported, and it and everything after it come
 * again (ReportBatchItemFailures). Every step is safe to repeat.
 */
export function createRouter(deps: { queue: DeliveryQueue; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const record of event.Records) {
      try {
        await routeRecord(record, deps.queue, now);
      } catch (error) {
        logger.error('stream record not routed', {
          errorName: (error as Error).name,
          stack: originalStack(error),
        });
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
    return { batchItemFailures: [] };
  };
}

async function routeRecord(record: DynamoDBRecord, queue: DeliveryQueue, now: () => Date): Promise<void> {
  const newImage = imageOf(record.dynamodb?.NewImage);
  const oldImage = imageOf(record.dynamodb?.OldImage);
  const entityType = (newImage ?? oldImage)?.entityType;
  if (record.eventName === 'INSERT' && entityType === EntityType.event && newImage !== undefined) {
    await fanOut(newImage as unknown as DomainEvent, now);
  } else if (entityType === EntityType.webhookDelivery && newImage !== undefined) {
    await enqueueIfDue(
      oldImage === undefined ? undefined : toDelivery(oldImage),
      toDelivery(newImage),
      queue,
    );
  } else if (entityType === EntityType.webhookEndpoint && newImage !== undefined && oldImage !== undefined) {
    await resumeIfEnabled(toEndpoint(oldImage), toEndpoint(newImage), now);
  }
}

async function fanOut(event: DomainEvent, now: () => Date): Promise<void> {
  const endpoints = (await liveEndpointsOf(event.merchantId)).filter(({ endpoint }) =>
    receivesEvent(endpoint, event.eventType),
  );
  const createdAt = isoTimestamp(now());
  for (const { endpoint } of endpoints) {
    const delivery = newDelivery({
      webhookDeliveryId: deliveryIdFor(event.eventId, endpoint.webhookEndpointId),
      webhookEndpointId: endpoint.webhookEndpointId,
      merchantId: event.merchantId,
      eventId: event.eventId,
      eventType: event.eventType,
      data: event.payload,
      paused: endpoint.status === WebhookEndpointStatus.disabled,
      now: createdAt,
    });
    await putNewDelivery(delivery, createdAt);
  }
}

async function enqueueIfDue(
  previous: WebhookDelivery | undefined,
  delivery: WebhookDelivery,
  queue: DeliveryQueue,
): Promise<void> {
  if (delivery.status !== DeliveryStatus.pending || delivery.paused) return;
  const message = {
    webhookEndpointId: delivery.webhookEndpointId,
    webhookDeliveryId: delivery.webhookDeliveryId,
    attemptCount: delivery.attemptCount,
  };
  if (previous === undefined) return queue.send(message, 0);
  if (previous.paused) return queue.send(message, 0);
  if (delivery.attemptCount > previous.attemptCount) return queue.send(message, undefined);
}

async function resumeIfEnabled(previous: WebhookEndpoint, endpoint: WebhookEndpoint, now: () => Date) {
  if (previous.status !== WebhookEndpointStatus.disabled || endpoint.status !== WebhookEndpointStatus.active)
    return;
  const dueAt = isoTimestamp(now());
  for (const delivery of await pausedDeliveriesOf(endpoint.webhookEndpointId)) {
    await replaceDelivery(delivery, { ...delivery, paused: false }, dueAt);
  }
}

function imageOf(image: unknown): Record<string, unknown> | undefined {
  // biome-ignore lint/suspicious/noExplicitAny: stream images are raw attribute values
  return image === undefined ? undefined : unmarshall(image as any);
}
