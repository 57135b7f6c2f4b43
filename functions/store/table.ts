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
  ],
  streamViewType: 'NEW_AND_OLD_IMAGES',
} as const;

export type TableDefinition = typeof TableDefinition;

/** The CreateTable input the local runtime and the tests use (on-demand, stream on). */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, globalSecondaryIndexes, streamViewType } = TableDefinition;
  const keyAttributes = [
    partitionKey,
    sortKey,
    ...globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
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
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamViewType },
  };
}
