import { createHash } from 'node:crypto';
import { payerInvoiceFields } from '../domain/invoice';
import { merchantShardOfId } from '../domain/merchant-shards';
import { eventDeliveryIndexFields } from '../domain/webhook-delivery';

/**
 * The single table, declared once. The CDK stack, the local runtime and the tests all create the
 * table from this definition so the three can never drift apart.
 */
export const TableDefinition = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds; DynamoDB deletes expired items eventually, so readers also check expiry. */
  ttlAttribute: 'ttl',
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    /**
     * Pay links: an invoice the payer may see (not a draft) by the hash of its slug. It carries only
     * what the payer's view and the pay action's checks read, with the issuer's name, never the slug:
     * an invoice write that changes none of these (a processor lock) leaves the index alone.
     */
    {
      indexName: 'GSI3',
      partitionKey: 'GSI3PK',
      projectedAttributes: [...payerInvoiceFields, 'merchantName'],
    },
    /** The event log: an object's events (`eventKeys.eventIndexes`). */
    { indexName: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK' },
    /**
     * An event's deliveries, newest first, and the event itself: keyed by attributes both already
     * carry (`eventId`, `createdAt`; no other item has an `eventId`), so it adds no byte to a
     * delivery or an event. It projects only what the list shows: a delivery's attempts rewrite its
     * entry, its lease does not, and no entry carries the payload.
     */
    {
      indexName: 'GSI5',
      partitionKey: 'eventId',
      sortKey: 'createdAt',
      projectedAttributes: eventDeliveryIndexFields,
    },
    /**
     * The filters no other key carries (docs/decisions/keys-for-every-filter.md), overloaded by
     * prefix: a merchant's payments of one status, a customer's invoices of one status, an object's
     * events of one type, an endpoint's deliveries of one status. Keys only: an entry costs its
     * least whatever the item's size, an update that leaves its key alone (a lease, a lock, an
     * attempt) leaves it alone, and a page reads its items by key in one `BatchGetItem`. Its sort
     * key is the table's own (`<KIND>#<time-ordered id>`), so an entry adds one attribute to its
     * item and no more.
     */
    { indexName: 'GSI6', partitionKey: 'GSI6PK', sortKey: 'SK', projectedAttributes: [] },
    /**
     * A customer's invoices, keys only as GSI6 and for the same reasons: an invoice is over 1 KB, so
     * an entry of the whole item (GSI2's form) costs 2 units a side of every change, a keys-only one
     * 1 and none at all when the invoice changes but not its customer, which is every change.
     */
    { indexName: 'GSI7', partitionKey: 'GSI7PK', sortKey: 'SK', projectedAttributes: [] },
  ],
  streamViewType: 'NEW_AND_OLD_IMAGES',
} as const;

export type TableDefinition = typeof TableDefinition;

/**
 * One global index: a sort key when it orders its entries, and every attribute unless it names
 * some; naming none keeps the keys only.
 */
export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: string;
  readonly sortKey?: string;
  readonly projectedAttributes?: readonly string[];
}

export const globalSecondaryIndexes: readonly IndexDefinition[] = TableDefinition.globalSecondaryIndexes;

/** The CreateTable input the local runtime and the tests use (on-demand, stream on). */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, streamViewType } = TableDefinition;
  // An index may sort by the table's own sort key: each attribute is defined once.
  const keyAttributes = new Set([
    partitionKey,
    sortKey,
    ...globalSecondaryIndexes.flatMap((index) =>
      index.sortKey === undefined ? [index.partitionKey] : [index.partitionKey, index.sortKey],
    ),
  ]);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...keyAttributes].map((name) => ({
      AttributeName: name,
      AttributeType: 'S' as const,
    })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: globalSecondaryIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        ...(index.sortKey === undefined ? [] : [{ AttributeName: index.sortKey, KeyType: 'RANGE' as const }]),
      ],
      Projection: projectionOf(index),
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamViewType },
  };
}

/** How an index's projection reads in CreateTable: all, keys only, or the attributes it names. */
export function projectionOf(index: IndexDefinition) {
  if (index.projectedAttributes === undefined) return { ProjectionType: 'ALL' as const };
  if (index.projectedAttributes.length === 0) return { ProjectionType: 'KEYS_ONLY' as const };
  return { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projectedAttributes] };
}

/**
 * What each item is: every item carries its `entityType`, so a stream consumer or an operator
 * reading the table tells them apart without parsing keys. One registry, so no two entities share a
 * name or a sort-key prefix; each entity's module builds its own keys from them.
 */
export const EntityType = {
  merchant: 'Merchant',
  apiKey: 'ApiKey',
  product: 'Product',
  price: 'Price',
  customer: 'Customer',
  invoice: 'Invoice',
  invoiceNumberCounter: 'InvoiceNumberCounter',
  invoiceSlug: 'InvoiceSlug',
  event: 'Event',
  webhookEndpoint: 'WebhookEndpoint',
  webhookEndpointCounter: 'WebhookEndpointCounter',
  webhookDelivery: 'WebhookDelivery',
  webhookDeliveriesMarker: 'WebhookDeliveriesMarker',
  webhookDeliverySequence: 'WebhookDeliverySequence',
  webhookRecovery: 'WebhookRecovery',
  webhookRecoveryLock: 'WebhookRecoveryLock',
  webhookDestination: 'WebhookDestination',
  payment: 'Payment',
  refund: 'Refund',
  payout: 'Payout',
  idempotencyRecord: 'IdempotencyRecord',
  portalSession: 'PortalSession',
  invoiceEmail: 'InvoiceEmail',
  endpointNotice: 'EndpointNotice',
  suppressedEmailAddress: 'SuppressedEmailAddress',
  emailHourCount: 'EmailHourCount',
  processorAccount: 'ProcessorAccount',
  processorEvent: 'ProcessorEvent',
  processorObject: 'ProcessorObject',
  config: 'Config',
} as const;

export type EntityType = (typeof EntityType)[keyof typeof EntityType];

export const SortKeyPrefix = {
  product: 'PRODUCT#',
  price: 'PRICE#',
  customer: 'CUSTOMER#',
  invoice: 'INVOICE#',
  webhookEndpoint: 'WEBHOOK_ENDPOINT#',
  /** A deleted endpoint, outside every range that reads live ones (`WEBHOOK_ENDPOINT#` … `WEBHOOK_ENDPOINT$`). */
  deletedWebhookEndpoint: 'WEBHOOK_ENDPOINT_DELETED#',
  webhookDeliverySequence: 'WEBHOOK_DELIVERY_SEQUENCE#',
  /** After `WEBHOOK_ENDPOINT#`: outside the range from the sequences to the endpoints that the router reads. */
  webhookDestination: 'WEBHOOK_URL_QUOTA#',
  webhookDelivery: 'DELIVERY#',
  payment: 'PAYMENT#',
  refund: 'REFUND#',
  payout: 'PAYOUT#',
  invoicePayment: 'INVOICE_PAYMENT#',
  invoiceEmail: 'EMAIL#',
  suppressedEmailAddress: 'EMAIL_SUPPRESSED#',
  emailHour: 'EMAIL_HOUR#',
} as const;

/**
 * The key condition of a partition's sort keys that begin with `prefix`, written as a range: from the
 * prefix to the prefix with its last character raised by one, a bound no sort key is (every one goes
 * on past its prefix). DynamoDB serves and prices it as `begins_with`; DynamoDB Local, which the
 * local runtime and the tests run on, answers `begins_with` by reading the whole partition but a
 * range through its index, so a list among many items of other kinds stays flat there too
 * (docs/decisions/keys-for-every-filter.md).
 */
export function sortKeyPrefixRange(prefix: string) {
  const last = prefix.charCodeAt(prefix.length - 1);
  return {
    keyCondition: 'PK = :partition AND SK BETWEEN :prefixFrom AND :prefixTo',
    values: { ':prefixFrom': prefix, ':prefixTo': `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}` },
  } as const;
}

/** Partition of stage-wide configuration items; readers may create items here and nowhere else. */
export const configPartitionKey = 'CONFIG';

/** How a merchant's partitions (its own and its shards') begin: what an IAM condition on them names. */
export const merchantPartitionPrefix = 'MERCHANT#';

export const merchantPartition = (merchantId: string) => `${merchantPartitionPrefix}${merchantId}`;

/**
 * Shard 0 is the merchant's own partition; shards 1 … 15 hold the payments, refunds, invoices and
 * payouts minted for them (`merchant-shards`), each id naming its shard.
 */
export const merchantShardPartition = (merchantId: string, shard: number) =>
  shard === 0 ? merchantPartition(merchantId) : `${merchantPartition(merchantId)}#S${shard}`;

/** The partition an item minted with this id (or kept beside it, as a payment's refunds) is in. */
export const partitionOfId = (merchantId: string, id: string) =>
  merchantShardPartition(merchantId, merchantShardOfId(id));

/**
 * An endpoint's deliveries partition: shard 0 is its original one, shards 1 … n−1 were added by
 * raises. The endpoint's marker and its deliveries share it.
 */
export const deliveriesPartition = (webhookEndpointId: string, shard: number) =>
  shard === 0 ? `DELIVERIES#${webhookEndpointId}` : `DELIVERIES#${webhookEndpointId}#S${shard}`;

/** The shard a deliveries partition key names: the inverse of `deliveriesPartition`. */
export function shardOfDeliveriesPartition(partition: string): number {
  const suffix = /#S(\d+)$/.exec(partition);
  return suffix === null ? 0 : Number(suffix[1]);
}

/**
 * Shards of the due index (GSI1): a waiting delivery's entry lands in one of them, as does a running
 * recovery's, so no partition is written by every merchant. 16 lifts the ceiling of one partition
 * (~1,000 writes/s) sixteenfold while a full read of the index stays 16 Queries.
 */
export const dueDeliveryShardCount = 16;

/**
 * The shard of a delivery (or a recovery), from a hash of its id: always the same one, so each
 * later write of it moves its entry within that shard. SHA-256 spreads the time-ordered ids evenly.
 */
export function dueDeliveryShard(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % dueDeliveryShardCount;
}

const dueDeliveriesPartition = (shard: number) => `DUE_DELIVERIES#${String(shard).padStart(2, '0')}`;

/** An entry of the due index (GSI1) for the item with this id, due at `dueAt`, in the shard of its id. */
export const dueIndexEntry = (dueAt: string, id: string) => ({
  GSI1PK: dueDeliveriesPartition(dueDeliveryShard(id)),
  GSI1SK: `${dueAt}#${id}`,
});

/** Every partition of the due index, in shard order: what a full read of it queries. */
export const dueDeliveriesPartitions = (): readonly string[] =>
  Array.from({ length: dueDeliveryShardCount }, (_, shard) => dueDeliveriesPartition(shard));
