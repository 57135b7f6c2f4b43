import { type RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { grantIsForAwsResource, ServiceKey } from './service-key';

/** What a principal may do with the data key, by what it does to the data the key protects. */
export const DataKeyUse = {
  /** Read the table or its stream, or receive from a queue. */
  decrypt: ['kms:Decrypt', 'kms:DescribeKey'],
  /** Write the table or send to a queue: new data keys and the decryption of cached ones. */
  encryptDecrypt: [
    'kms:Decrypt',
    'kms:DescribeKey',
    'kms:Encrypt',
    'kms:GenerateDataKey',
    'kms:GenerateDataKeyWithoutPlaintext',
    'kms:ReEncryptFrom',
    'kms:ReEncryptTo',
  ],
} as const;
export type DataKeyUse = (typeof DataKeyUse)[keyof typeof DataKeyUse];

/**
 * The services through which the account's own identities (CloudFormation creating the table and
 * the backup vault, an operator's admin CLI, a point-in-time restore) may use the data key.
 */
export const dataKeyServices = ['dynamodb', 'sqs', 'sns', 'backup'] as const;

export interface DataKeyProps {
  readonly alias: string;
  readonly description: string;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The customer-managed key of a stage's data at rest, apart from the secrets key, used through the data
 * services only (docs/decisions/one-data-key-per-stage.md, docs/decisions/key-policies.md).
 */
export class DataKey extends Construct {
  readonly key: ServiceKey;

  constructor(scope: Construct, id: string, props: DataKeyProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.key = new ServiceKey(this, 'Key', props);
    // IAM policies decide which operators read the table or the queues; this statement lets them
    // only through those services, in this region, for this account.
    const throughDataServices = {
      StringEquals: {
        'kms:CallerAccount': stack.account,
        'kms:ViaService': dataKeyServices.map((service) => `${service}.${stack.region}.amazonaws.com`),
      },
    };
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AccountThroughDataServices',
        principals: [new iam.AccountRootPrincipal()],
        actions: [...DataKeyUse.encryptDecrypt],
        resources: ['*'],
        conditions: throughDataServices,
      }),
    );
    // DynamoDB creates a grant when CloudFormation creates the table or an operator restores one.
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AccountGrantsThroughDataServices',
        principals: [new iam.AccountRootPrincipal()],
        actions: ['kms:CreateGrant'],
        resources: ['*'],
        conditions: { ...throughDataServices, ...grantIsForAwsResource },
      }),
    );
    // CloudWatch Logs encrypts with the key of a log group only when the group's ARN is in the
    // encryption context, so this statement opens no other account's or service's data.
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchLogsOfThisAccount',
        principals: [new iam.ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
        actions: ['kms:Encrypt', 'kms:Decrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'],
        conditions: {
          ArnLike: {
            'kms:EncryptionContext:aws:logs:arn': `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:*`,
          },
        },
      }),
    );
    // Alarm notifications to the encrypted topic and undeliverable schedule events to the encrypted
    // failures queue are encrypted by CloudWatch and EventBridge themselves, on this account's behalf.
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AlarmsAndSchedulesOfThisAccount',
        principals: [
          new iam.ServicePrincipal('cloudwatch.amazonaws.com'),
          new iam.ServicePrincipal('events.amazonaws.com'),
        ],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
  }

  /**
   * Lets an AWS service that publishes to an encrypted topic of the stage on the account's behalf
   * (SES's event destination) encrypt with the key, only for the one resource of this account named
   * by `sourceArn`.
   */
  allowPublishingService(sid: string, service: string, sourceArn: string): void {
    const stack = Stack.of(this);
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid,
        principals: [new iam.ServicePrincipal(service)],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': sourceArn } },
      }),
    );
  }

  /** Lets `grantee` use the key as `use` says, on this key only, named in its key policy. */
  grant(grantee: iam.IGrantable, use: DataKeyUse): iam.Grant {
    return this.key.grant(grantee, ...use);
  }
}
