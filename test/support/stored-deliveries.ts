import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../../functions/domain/ids';
import { EventType } from '../../functions/domain/invoice';
import { newDelivery, type WebhookDelivery } from '../../functions/domain/webhook-delivery';
import { documentClient, tableName } from '../../functions/store/client';
import { dueDeliveryShard, dueDeliveryShardCount, EntityType } from '../../functions/store/keys';
import { buildPutNewDelivery } from '../../functions/store/webhook-deliveries';

/** A new invoices.InvoicePaid delivery of merchant mer_1 to `webhookEndpointId`, made at `now`. */
export function invoicePaidDelivery(
  ids: { webhookDeliveryId: string; webhookEndpointId: string; eventId: string },
  now: string,
): WebhookDelivery {
  return newDelivery({
    ...ids,
    merchantId: 'mer_1',
    eventType: EventType.invoicePaid,
    data: {},
    paused: false,
    now,
  });
}

/**
 * Puts a delivery of a fresh event and endpoint into the current table, as the router would, due
 * at `dueAt`; `overrides` set the state under test (attempts, status, paused). It is created at
 * `createdAt`, or at `dueAt` when not given.
 */
export async function storeDelivery(
  overrides: Partial<WebhookDelivery>,
  dueAt: string,
  createdAt: string = dueAt,
): Promise<WebhookDelivery> {
  const delivery = {
    ...newDelivery({
      webhookDeliveryId: newId('whkdel'),
      webhookEndpointId: newId('whk'),
      merchantId: newId('mer'),
      eventId: newId('evt'),
      eventType: EventType.invoicePaid,
      data: {},
      paused: false,
      now: createdAt,
    }),
    ...overrides,
  };
  await documentClient().send(new PutCommand(buildPutNewDelivery(delivery, dueAt, [])));
  return delivery;
}

/**
 * Puts another pending delivery of `of`'s endpoint and merchant, for a new event, into the current
 * table, created and due at `at`: a sibling the dispatcher may find in the same batch or backlog.
 */
export async function storeSiblingDelivery(of: WebhookDelivery, at: string): Promise<WebhookDelivery> {
  const sibling = newDelivery({ ...of, webhookDeliveryId: newId('whkdel'), eventId: newId('evt'), now: at });
  await documentClient().send(new PutCommand(buildPutNewDelivery(sibling, at, [])));
  return sibling;
}

/**
 * One new delivery id for every shard of the due-deliveries index, in shard order: ids are drawn
 * until each shard has one, so a test covers every shard whatever ids it is given.
 */
export function deliveryIdPerShard(): string[] {
  const byShard = new Map<number, string>();
  for (let drawn = 0; byShard.size < dueDeliveryShardCount; drawn += 1) {
    if (drawn === 10_000) throw new Error(`10000 delivery ids reached only ${byShard.size} shards`);
    const id = newId('whkdel');
    const shard = dueDeliveryShard(id);
    if (!byShard.has(shard)) byShard.set(shard, id);
  }
  return [...byShard.entries()].sort(([a], [b]) => a - b).map(([, id]) => id);
}

/** The GSI1 partition of every stored delivery that has one, read with a full Scan. */
export async function dueDeliveryPartitionsInTable(): Promise<string[]> {
  const partitions: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: tableName(), ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) {
      if (item.entityType === EntityType.webhookDelivery && item.GSI1PK !== undefined) {
        partitions.push(String(item.GSI1PK));
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return partitions;
}
