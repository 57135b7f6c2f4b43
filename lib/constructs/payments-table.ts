import type { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { configPartitionKey, merchantPartitionPrefix } from '../../functions/store/keys';
import { globalSecondaryIndexes, projectionOf, TableDefinition } from '../../functions/store/table';
import { type DataKey, DataKeyUse } from './data-key';

export const TableAccess = { read: 'read', readWrite: 'readWrite' } as const;
export type TableAccess = (typeof TableAccess)[keyof typeof TableAccess];

/**
 * Only the item-level actions the store uses. Transactions need no action of their own: IAM checks
 * each Put/Update/Delete/ConditionCheck inside them. No Scan, no DescribeTable, no stream access.
 */
const readActions = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
] as const;

const tableActions = {
  read: readActions,
  readWrite: [
    ...readActions,
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
} as const satisfies Record<TableAccess, readonly string[]>;

/**
 * CloudWatch Contributor Insights on the table and on each index, in both stages: the
 * `table-throttles` runbook (docs/operations.md) reads its most-accessed and most-throttled keys to
 * find the merchant or endpoint behind a hot partition. It is billed per event it counts.
 */
export const contributorInsights = {
  enabled: true,
  mode: dynamodb.ContributorInsightsMode.ACCESSED_AND_THROTTLED_KEYS,
} as const;

export interface PaymentsTableProps {
  /** Fixed per stage, so operators and the admin CLI can name it (`merchant-payments-<stage>`). */
  readonly tableName: string;
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  /** Encrypts the table, its indexes, its stream and its backups. */
  readonly dataKey: DataKey;
}

/** The single table, built from `TableDefinition` so CDK, the local runtime and the tests agree. */
export class PaymentsTable extends dynamodb.Table {
  private readonly dataKey: DataKey;

  constructor(scope: Construct, id: string, props: PaymentsTableProps) {
    const { partitionKey, sortKey, ttlAttribute, streamViewType } = TableDefinition;
    super(scope, id, {
      tableName: props.tableName,
      partitionKey: { name: partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: props.dataKey.key as kms.IKey,
      stream: dynamodb.StreamViewType[streamViewType],
      timeToLiveAttribute: ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      contributorInsightsSpecification: contributorInsights,
      deletionProtection: props.deletionProtection,
      removalPolicy: props.removalPolicy,
    });
    this.dataKey = props.dataKey;
    for (const index of globalSecondaryIndexes) {
      this.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        contributorInsightsSpecification: contributorInsights,
        ...(index.sortKey === undefined
          ? {}
          : { sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING } }),
        ...projectionProps(projectionOf(index)),
      });
    }
  }

  /**
   * Lets a reader create the stage's configuration items (the cursor signing key, made by the first
   * list call) and nothing else: PutItem only where the partition key is `CONFIG`.
   */
  grantConfigCreate(grantee: iam.IGrantable): iam.Grant {
    this.dataKey.grant(grantee, DataKeyUse.encryptDecrypt);
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:PutItem'],
      resourceArns: [this.tableArn],
      conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [configPartitionKey] } },
    });
  }

  /**
   * Lets the reconciler nudge a stalled recovery and write nothing else: UpdateItem only, only of
   * items in merchant partitions (`MERCHANT#…`, where recovery records are). It puts, deletes and
   * creates nothing: a nudge's condition fails on an item that does not exist.
   */
  grantRecoveryNudge(grantee: iam.IGrantable): iam.Grant {
    this.dataKey.grant(grantee, DataKeyUse.encryptDecrypt);
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:UpdateItem'],
      resourceArns: [this.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${merchantPartitionPrefix}*`] } },
    });
  }

  /** Lets the router read the stream's records, which the table's key encrypts. */
  grantStreamRecords(grantee: iam.IGrantable): iam.Grant {
    this.dataKey.grant(grantee, DataKeyUse.decrypt);
    return this.grantStream(
      grantee,
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
    );
  }

  /**
   * Grants item access on the table and on each named index. Unlike `grantReadData`, the index ARNs
   * are listed one by one, so no policy holds an `index/*` wildcard.
   */
  grantAccess(grantee: iam.IGrantable, access: TableAccess): iam.Grant {
    const indexArns = globalSecondaryIndexes.map((index) => `${this.tableArn}/index/${index.indexName}`);
    // DynamoDB uses the table's key on the caller's behalf: readers decrypt, writers also encrypt.
    this.dataKey.grant(grantee, access === TableAccess.read ? DataKeyUse.decrypt : DataKeyUse.encryptDecrypt);
    return iam.Grant.addToPrincipal({
      grantee,
      actions: [...tableActions[access]],
      resourceArns: [this.tableArn, ...indexArns],
    });
  }
}

/** The construct's form of an index projection (`projectionOf`): all, keys only, or named attributes. */
function projectionProps(projection: ReturnType<typeof projectionOf>) {
  switch (projection.ProjectionType) {
    case 'ALL':
      return { projectionType: dynamodb.ProjectionType.ALL };
    case 'KEYS_ONLY':
      return { projectionType: dynamodb.ProjectionType.KEYS_ONLY };
    default:
      return {
        projectionType: dynamodb.ProjectionType.INCLUDE,
        nonKeyAttributes: projection.NonKeyAttributes,
      };
  }
}
