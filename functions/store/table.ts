import { payerInvoiceFields } from '../domain/invoice';
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
    /** The event log: an object's events (`keys.eventIndexes`). */
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
  ],
  streamViewType: 'NEW_AND_OLD_IMAGES',
} as const;

export type TableDefinition = typeof TableDefinition;

/** One global index: a sort key when it orders its entries, and every attribute unless it names some. */
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
  const keyAttributes = [
    partitionKey,
    sortKey,
    ...globalSecondaryIndexes.flatMap((index) =>
      index.sortKey === undefined ? [index.partitionKey] : [index.partitionKey, index.sortKey],
    ),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
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
      Projection:
        index.projectedAttributes === undefined
          ? { ProjectionType: 'ALL' as const }
          : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projectedAttributes] },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamViewType },
  };
}
