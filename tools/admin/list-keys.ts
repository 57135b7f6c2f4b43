import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryStatus } from '../../functions/domain/webhook-delivery';
import { EntityType, keys } from '../../functions/store/keys';

/**
 * The list keys an item of this release carries, computed from the item as the store computes them
 * when it writes one (docs/decisions/keys-for-every-filter.md): an item written by an earlier release
 * lacks the keys of the lists added since (GSI6) or keeps a key whose form changed (an object's
 * repeated events in GSI4). Undefined for an item that no list of these indexes holds.
 */
export function listKeysOf(item: Record<string, unknown>): Record<string, string> | undefined {
  const text = (name: string) => String(item[name]);
  switch (item.entityType) {
    case EntityType.invoice:
      return keys.invoiceIndexes(text('merchantId'), text('customerId'), text('status'), text('invoiceId'));
    case EntityType.payment:
      return keys.paymentIndexes({
        merchantId: text('merchantId'),
        customerId: text('customerId'),
        status: text('status') as never,
        paymentId: text('paymentId'),
      });
    case EntityType.event:
      return keys.eventIndexes({
        merchantId: text('merchantId'),
        eventType: text('eventType'),
        eventId: text('eventId'),
        createdAt: text('createdAt'),
        objectId: typeof item.objectId === 'string' ? item.objectId : null,
      });
    case EntityType.webhookDelivery:
      return keys.deliveryOfStatus(
        text('webhookEndpointId'),
        text('status') as DeliveryStatus,
        keys.shardOfDeliveriesPartition(text('PK')),
      );
    default:
      return undefined;
  }
}

/**
 * Keys an item of an earlier release carries that this release no longer gives it: an invoice's
 * GSI2 entry (a customer's invoices, whole), which GSI7 replaced. Left on, it would be rewritten
 * whole by every change of the invoice and read by no list.
 */
const retiredKeysOfKind: Partial<Record<string, readonly string[]>> = {
  [EntityType.invoice]: ['GSI2PK', 'GSI2SK'],
};

export function retiredListKeys(item: Record<string, unknown>): string[] {
  return (retiredKeysOfKind[String(item.entityType)] ?? []).filter((name) => item[name] !== undefined);
}

/** The keys of `item` that differ from the ones this release gives it. */
export function staleListKeys(item: Record<string, unknown>): Record<string, string> {
  const expected = listKeysOf(item) ?? {};
  return Object.fromEntries(Object.entries(expected).filter(([name, value]) => item[name] !== value));
}

export interface RekeyReport {
  /** Items read. */
  readonly scanned: number;
  /** Items whose list keys were missing or of an older form, by kind. */
  readonly stale: Readonly<Record<string, number>>;
  /** Of those, rewritten with this release's keys (none in a dry run). */
  readonly rewritten: number;
  /** Of those, changed by the service between the read and the write, which wrote their keys itself. */
  readonly changedMeanwhile: number;
}

/** Parallel Scan segments: each reads its share of the table one page after another. */
const scanSegments = 4;

/**
 * Gives every item the list keys of this release, so the lists read through them find items written
 * before it. A dry run only counts. Each write sets the keys alone, and only while the attributes
 * they follow are as read (a status; an event never changes): an item the service changed meanwhile
 * was written with its keys already. Safe to run again and to stop: a second run finds nothing stale.
 */
export async function rekeyItems(request: {
  client: DynamoDBClient;
  tableName: string;
  apply: boolean;
}): Promise<RekeyReport> {
  const documents = DynamoDBDocumentClient.from(request.client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  const stale: Record<string, number> = {};
  let scanned = 0;
  let rewritten = 0;
  let changedMeanwhile = 0;
  const segment = async (index: number) => {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await documents.send(
        new ScanCommand({
          TableName: request.tableName,
          Segment: index,
          TotalSegments: scanSegments,
          ExclusiveStartKey: startKey,
          ConsistentRead: true,
        }),
      );
      for (const item of page.Items ?? []) {
        scanned += 1;
        const missing = staleListKeys(item);
        const retired = retiredListKeys(item);
        if (Object.keys(missing).length === 0 && retired.length === 0) continue;
        const kind = String(item.entityType);
        stale[kind] = (stale[kind] ?? 0) + 1;
        if (!request.apply) continue;
        if (await setKeys(documents, request.tableName, item, missing, retired)) rewritten += 1;
        else changedMeanwhile += 1;
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
  };
  await Promise.all(Array.from({ length: scanSegments }, (_, index) => segment(index)));
  return { scanned, stale, rewritten, changedMeanwhile };
}

/**
 * Sets `missing` on the item and removes its `retired` keys, while its status is as read; false
 * when it changed meanwhile.
 */
async function setKeys(
  documents: DynamoDBDocumentClient,
  tableName: string,
  item: Record<string, unknown>,
  missing: Record<string, string>,
  retired: readonly string[],
): Promise<boolean> {
  const entries = Object.entries(missing);
  const hasStatus = item.status !== undefined;
  const sets = entries.map((_, position) => `#key${position} = :key${position}`);
  const removes = retired.map((_, position) => `#retired${position}`);
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: [
          ...(sets.length === 0 ? [] : [`SET ${sets.join(', ')}`]),
          ...(removes.length === 0 ? [] : [`REMOVE ${removes.join(', ')}`]),
        ].join(' '),
        ConditionExpression: hasStatus ? '#status = :status' : 'attribute_exists(PK)',
        ExpressionAttributeNames: {
          ...Object.fromEntries(entries.map(([name], position) => [`#key${position}`, name])),
          ...Object.fromEntries(retired.map((name, position) => [`#retired${position}`, name])),
          ...(hasStatus ? { '#status': 'status' } : {}),
        },
        // DynamoDB refuses an empty map: an item without a status whose keys are only removed has none.
        ...(entries.length === 0 && !hasStatus
          ? {}
          : {
              ExpressionAttributeValues: {
                ...Object.fromEntries(entries.map(([, value], position) => [`:key${position}`, value])),
                ...(hasStatus ? { ':status': item.status } : {}),
              },
            }),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
