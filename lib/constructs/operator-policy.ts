import { ArnFormat, Aws, Stack, Validations } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as backup from 'aws-cdk-lib/aws-backup';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { functionName, queueNames } from '../stack-name';
import type { dataKeyServices } from './data-key';
import { asNagNames } from './nag-names';

/** The suffix every table a restore makes must carry: `merchant-payments-<stage>-restored…`. */
export const restoredTableSuffix = '-restored';

/**
 * What `RestoreTableToPointInTime` and the restore tool need on the restored table: DynamoDB
 * writes the restored items with the caller's permissions, and the tool reads them back.
 */
export const restoredTableActions = [
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:DeleteItem',
  'dynamodb:DeleteTable',
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:Query',
  'dynamodb:Scan',
  'dynamodb:UpdateItem',
] as const;

export interface OperatorPolicyProps {
  /** The policy's name in IAM, `merchant-payments-<stage>-operator`. */
  readonly managedPolicyName: string;
  /**
   * The stack's name, which begins the fixed name of every function, queue, log group, alarm and
   * dashboard of the stage (lib/stack-name.ts): the policy names them rather than referencing them,
   * which keeps it under the 6,144 characters of a managed policy.
   */
  readonly namePrefix: string;
  /** The API Gateway stage the admin CLI flushes the authorizer cache of. */
  readonly stage: string;
  /** The live table's fixed name; restores go to `<tableName>-restored…` only. */
  readonly tableName: string;
  /** The table's stream, whose ARN ends in a label DynamoDB makes up. */
  readonly tableStreamArn: string;
  readonly dataKey: kms.IKey;
  readonly secretsKey: kms.IKey;
  readonly restApi: apigateway.RestApi;
  readonly alarmTopicName: string;
  /** The stage's log groups: the functions' shared one, the access log, the WAF log. */
  readonly logGroups: readonly logs.ILogGroup[];
  /** Production's backup vault and AWS Backup's role, to restore a daily copy. */
  readonly backup?: { readonly vault: backup.IBackupVault; readonly role: iam.IRole } | undefined;
}

/**
 * The least-privilege IAM policy of the people who run a stage (docs/operations.md, "The operator's
 * permissions"): exactly what the runbook's `aws` commands, the admin CLI's SDK calls and the
 * consoles they read need, on this stage's resources. test/infra/operator-policy.test.ts derives the
 * actions from the runbook and from tools/admin/ and fails when the two drift apart.
 */
export class OperatorPolicy extends Construct {
  readonly policy: iam.ManagedPolicy;

  constructor(scope: Construct, id: string, props: OperatorPolicyProps) {
    super(scope, id);
    this.policy = new iam.ManagedPolicy(this, 'Policy', {
      managedPolicyName: props.managedPolicyName,
      description: `Runs ${props.namePrefix}: the runbook (docs/operations.md) and the admin CLI, nothing else`,
      statements: [
        ...tableStatements(this, props),
        ...keyStatements(props),
        ...queueStatements(this, props),
        ...functionStatements(this, props),
        ...observabilityStatements(this, props),
        ...backupStatements(this, props),
        ...authorizerCacheStatements(this, props),
      ],
    });
    acknowledgeWildcards(this.policy, props);
  }
}

/** The admin CLI's item reads and writes, the stream reads of `router replay`, and restores. */
function tableStatements(scope: Construct, props: OperatorPolicyProps): iam.PolicyStatement[] {
  const tableArn = (name: string) =>
    Stack.of(scope).formatArn({ service: 'dynamodb', resource: 'table', resourceName: name });
  const liveTable = tableArn(props.tableName);
  const restoredTables = tableArn(`${props.tableName}${restoredTableSuffix}*`);
  return [
    new iam.PolicyStatement({
      // A transaction is checked item by item: Put, Update, Delete and ConditionCheck each need their own.
      actions: [
        'dynamodb:BatchGetItem',
        'dynamodb:ConditionCheckItem',
        'dynamodb:DeleteItem',
        'dynamodb:DescribeContributorInsights',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:RestoreTableToPointInTime',
        // `items rekey` reads the whole table once after a release that adds list keys.
        'dynamodb:Scan',
        'dynamodb:UpdateItem',
      ],
      resources: [liveTable],
    }),
    new iam.PolicyStatement({
      actions: ['dynamodb:DescribeContributorInsights', 'dynamodb:Query'],
      resources: [`${liveTable}/index/*`],
    }),
    // `router replay` reads the records a failure message names.
    new iam.PolicyStatement({
      actions: ['dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
      resources: [props.tableStreamArn],
    }),
    // DynamoDB writes a point-in-time restore with the caller's permissions; the restore tool reads it back.
    new iam.PolicyStatement({
      actions: [...restoredTableActions],
      resources: [restoredTables],
    }),
  ];
}

/**
 * Rotation of both keys, and the data key's use through the data services only: the key policy
 * refuses any other use anyway (docs/operations.md, "Who may use the keys").
 */
/** The data services the operator reaches the data key through: the table, the queues, restores of copies. */
const operatorDataServices = [
  'dynamodb',
  'sqs',
  'backup',
] as const satisfies readonly (typeof dataKeyServices)[number][];

function keyStatements(props: OperatorPolicyProps): iam.PolicyStatement[] {
  const viaDataServices = {
    'kms:ViaService': operatorDataServices.map((service) => `${service}.${Aws.REGION}.amazonaws.com`),
  };
  return [
    new iam.PolicyStatement({
      actions: ['kms:DescribeKey', 'kms:ListKeyRotations', 'kms:RotateKeyOnDemand'],
      resources: [props.dataKey.keyArn, props.secretsKey.keyArn],
    }),
    // A point-in-time restore into a table encrypted with the data key makes DynamoDB create a grant;
    // only CreateGrant carries kms:GrantIsForAWSResource, so the other actions pass its IfExists.
    new iam.PolicyStatement({
      actions: ['kms:CreateGrant', 'kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'],
      resources: [props.dataKey.keyArn],
      conditions: {
        StringEquals: viaDataServices,
        BoolIfExists: { 'kms:GrantIsForAWSResource': 'true' },
      },
    }),
  ];
}

/** `queues redrive` (an SQS message move task runs with the caller's permissions), `router replay`, purges. */
function queueStatements(scope: Construct, props: OperatorPolicyProps): iam.PolicyStatement[] {
  const queueArns = Object.fromEntries(
    Object.entries(queueNames(props.namePrefix)).map(([queue, name]) => [
      queue,
      Stack.of(scope).formatArn({ service: 'sqs', resource: name }),
    ]),
  ) as Record<keyof ReturnType<typeof queueNames>, string>;
  const { delivery, reconcilerFailures, mail } = queueArns;
  const queueArn = (name: string) => Stack.of(scope).formatArn({ service: 'sqs', resource: name });
  return [
    // Every queue of the stage (`queueNames`): one pattern instead of seven ARNs keeps the policy
    // under the size of a managed policy.
    new iam.PolicyStatement({
      actions: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'],
      resources: [queueArn(`${props.namePrefix}-*`)],
    }),
    // A message move task receives and deletes from a dead-letter queue (`<stack>-…-dlq`: the
    // delivery and mail ones) and sends to its source queue.
    new iam.PolicyStatement({
      actions: ['sqs:DeleteMessage', 'sqs:StartMessageMoveTask'],
      resources: [queueArn(`${props.namePrefix}-*-dlq`)],
    }),
    // `router replay` and an SES event's replay delete the failure they have dealt with
    // (`<stack>-…-failures`: the router's, the reconciler's and the SES events function's).
    new iam.PolicyStatement({
      actions: ['sqs:DeleteMessage'],
      resources: [queueArn(`${props.namePrefix}-*-failures`)],
    }),
    new iam.PolicyStatement({
      actions: ['sqs:SendMessage'],
      resources: [delivery, mail],
    }),
    new iam.PolicyStatement({
      actions: ['sqs:PurgeQueue'],
      resources: [reconcilerFailures],
    }),
  ];
}

/** `reconciler run`, `router replay`, rolling back by alias, and the runbook's Lambda reads. */
function functionStatements(scope: Construct, props: OperatorPolicyProps): iam.PolicyStatement[] {
  const stack = Stack.of(scope);
  const functionArn = (suffix: string) =>
    stack.formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: functionName(props.namePrefix, suffix),
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  const dispatcher = functionArn('dispatcher');
  return [
    new iam.PolicyStatement({
      actions: ['lambda:InvokeFunction'],
      resources: [functionArn('router'), functionArn('reconciler'), functionArn('ses-events')],
    }),
    // Matches each function of the stage and its versions and aliases: only the rolled-out ones have
    // a `live` alias to move back, and no action here creates one.
    new iam.PolicyStatement({
      actions: [
        'lambda:GetFunctionConcurrency',
        'lambda:GetPolicy',
        'lambda:ListVersionsByFunction',
        'lambda:UpdateAlias',
      ],
      resources: [functionArn('*')],
    }),
    new iam.PolicyStatement({
      actions: ['lambda:UpdateEventSourceMapping'],
      resources: [
        stack.formatArn({
          service: 'lambda',
          resource: 'event-source-mapping',
          resourceName: '*',
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      // The dispatcher's queue mapping feeds its `live` alias; the mailer's is paused and resumed to
      // hold customer emails in the mail queue (docs/operations.md, `email-bounce-rate`).
      conditions: { ArnLike: { 'lambda:FunctionArn': [`${dispatcher}*`, `${functionArn('mailer')}*`] } },
    }),
    new iam.PolicyStatement({
      actions: [...accountReads.filter((action) => action.startsWith('lambda:'))],
      resources: ['*'],
    }),
  ];
}

/** What the dashboard, the alarms, Logs Insights, X-Ray and the stack's outputs need to be read. */
function observabilityStatements(scope: Construct, props: OperatorPolicyProps): iam.PolicyStatement[] {
  const stack = Stack.of(scope);
  return [
    new iam.PolicyStatement({
      actions: ['logs:FilterLogEvents', 'logs:StartQuery'],
      resources: props.logGroups.map((group) => group.logGroupArn),
    }),
    new iam.PolicyStatement({
      actions: ['cloudwatch:DescribeAlarmHistory', 'cloudwatch:SetAlarmState'],
      resources: [
        stack.formatArn({
          service: 'cloudwatch',
          resource: 'alarm',
          resourceName: `${props.namePrefix}-*`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    }),
    new iam.PolicyStatement({
      actions: ['cloudwatch:GetDashboard'],
      resources: [
        stack.formatArn({
          service: 'cloudwatch',
          region: '',
          resource: 'dashboard',
          resourceName: props.namePrefix,
        }),
      ],
    }),
    new iam.PolicyStatement({
      actions: ['cloudwatch:GetInsightRuleReport'],
      resources: [
        stack.formatArn({
          service: 'cloudwatch',
          resource: 'insight-rule',
          resourceName: `DynamoDBContributorInsights-*-${props.tableName}*`,
        }),
      ],
    }),
    new iam.PolicyStatement({
      actions: ['sns:ListSubscriptionsByTopic'],
      resources: [stack.formatArn({ service: 'sns', resource: props.alarmTopicName })],
    }),
    new iam.PolicyStatement({
      actions: ['cloudformation:DescribeStacks'],
      resources: [Aws.STACK_ID],
    }),
    new iam.PolicyStatement({
      actions: [...readsWithoutResources, ...sesAccountReads],
      resources: ['*'],
    }),
  ];
}

/**
 * Reads that take no resource (or, for DescribeAlarms and DescribeLogGroups, whose console pages
 * list without a filter): they show metrics, alarm states, query results and traces, and change nothing.
 */
export const readsWithoutResources = [
  'cloudwatch:DescribeAlarms',
  'cloudwatch:GetMetricData',
  'cloudwatch:ListMetrics',
  'logs:DescribeLogGroups',
  'logs:GetQueryResults',
  'logs:StopQuery',
  'xray:BatchGetTraces',
  'xray:GetTraceSummaries',
] as const;

/** The account-level settings and lists the runbook reads: Lambda's quota and mappings, AWS Backup's jobs. */
const accountReads = [
  'backup:DescribeRegionSettings',
  'backup:ListBackupJobs',
  'lambda:GetAccountSettings',
  'lambda:ListEventSourceMappings',
] as const;

/** SES's account status and suppression list: reads without a resource. */
const sesAccountReads = ['ses:GetAccount', 'ses:ListSuppressedDestinations'] as const;

/** Production's daily copies: find one, restore it with AWS Backup's role, check the jobs. */
function backupStatements(scope: Construct, props: OperatorPolicyProps): iam.PolicyStatement[] {
  if (props.backup === undefined) return [];
  return [
    new iam.PolicyStatement({
      actions: ['backup:ListRecoveryPointsByBackupVault'],
      resources: [props.backup.vault.backupVaultArn],
    }),
    new iam.PolicyStatement({
      actions: ['backup:StartRestoreJob'],
      resources: [
        Stack.of(scope).formatArn({
          service: 'backup',
          resource: 'recovery-point',
          resourceName: '*',
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    }),
    new iam.PolicyStatement({
      actions: ['iam:PassRole'],
      resources: [props.backup.role.roleArn],
      conditions: { StringEquals: { 'iam:PassedToService': 'backup.amazonaws.com' } },
    }),
    new iam.PolicyStatement({
      actions: [...accountReads.filter((action) => action.startsWith('backup:'))],
      resources: ['*'],
    }),
  ];
}

/** `keys revoke` and `keys rotate`: find the REST API by name, flush this stage's authorizer cache. */
function authorizerCacheStatements(scope: Construct, props: OperatorPolicyProps): iam.PolicyStatement[] {
  const restApis = Stack.of(scope).formatArn({ service: 'apigateway', account: '', resource: '/restapis' });
  // API Gateway's actions are HTTP verbs on paths: GET /restapis lists, DELETE …/cache/authorizers flushes.
  return [
    new iam.PolicyStatement({ actions: ['apigateway:GET'], resources: [restApis] }),
    new iam.PolicyStatement({
      actions: ['apigateway:DELETE'],
      resources: [`${restApis}/${props.restApi.restApiId}/stages/${props.stage}/cache/authorizers`],
    }),
  ];
}

/** Each wildcard resource of the policy, acknowledged with why it cannot be narrower. */
function acknowledgeWildcards(policy: iam.ManagedPolicy, props: OperatorPolicyProps): void {
  const stack = Stack.of(policy);
  const resources = (
    policy.document.toJSON() as { Statement: { Resource: string | string[] }[] }
  ).Statement.flatMap((statement) => [statement.Resource].flat());
  const wildcards = [...new Set(resources.map((resource) => asNagNames(stack.resolve(resource))))].filter(
    (resource) => resource.includes('*'),
  );
  Validations.of(policy).acknowledge(
    ...wildcards.map((resource) => ({
      id: `AwsSolutions-IAM5[Resource::${resource}]`,
      reason: wildcardReason(resource, props),
    })),
  );
}

/** The stage's queues are named after the stack (`queueNames`): a pattern stands for several of them. */
function queueWildcardReason(resource: string, namePrefix: string): string | undefined {
  const size = 'and listing each would exceed the size of a managed policy.';
  if (resource.endsWith(`:${namePrefix}-*-dlq`)) {
    return `The stage's dead-letter queues, ${namePrefix}-delivery-dlq and ${namePrefix}-mail-dlq: the statement redrives them, ${size}`;
  }
  if (resource.endsWith(`:${namePrefix}-*-failures`)) {
    return `The stage's failure queues (router, reconciler, SES events), which only operators read: the statement deletes what was replayed, ${size}`;
  }
  if (resource.endsWith(`:${namePrefix}-*`)) {
    return `Every queue of the stage is named ${namePrefix}-<name>: the statement reads their URLs, attributes and messages, ${size}`;
  }
  return undefined;
}

/** Why a wildcard stands, by the resource it is in; one not listed here fails the synthesis. */
function wildcardReason(resource: string, props: OperatorPolicyProps): string {
  const reasons: readonly (readonly [string, string])[] = [
    [
      ':event-source-mapping:*',
      'An event source mapping’s ARN holds a UUID Lambda makes up at deploy time; the lambda:FunctionArn ' +
        'condition keeps UpdateEventSourceMapping to the dispatcher’s own mapping.',
    ],
    [
      `:table/${props.tableName}${restoredTableSuffix}*`,
      'A restore makes a new table whose name the operator chooses when restoring; the wildcard keeps it to ' +
        `tables named ${props.tableName}${restoredTableSuffix}…, never the live table.`,
    ],
    [
      `:table/${props.tableName}/index/*`,
      'Every index of the live table, for Query and its Contributor Insights: listing each index would ' +
        'exceed the size of a managed policy, and an index holds only items of the table.',
    ],
    [
      `:function:${props.namePrefix}-*`,
      `Every function of the stage is named ${props.namePrefix}-<name>; the statement reads their settings and ` +
        'moves existing aliases only, and listing each function with its alias would exceed the managed policy size.',
    ],
    [
      `:alarm:${props.namePrefix}-*`,
      `Every alarm of the stage is named ${props.namePrefix}-<name>; listing each would exceed the size of a managed policy.`,
    ],
    [
      `:insight-rule/DynamoDBContributorInsights-*-${props.tableName}*`,
      'DynamoDB names the Contributor Insights rules of the table and of each index itself, with a kind ' +
        'before the table name and the index after it.',
    ],
    [
      ':recovery-point:*',
      'AWS Backup makes a recovery point id for each daily copy; the restore runs as the stack’s backup role, ' +
        'which this policy passes to backup.amazonaws.com only, and the locked vault keeps every copy.',
    ],
  ];
  if (resource === '*') {
    return (
      `${[...readsWithoutResources, ...accountReads, ...sesAccountReads].join(', ')} support no resource-level permission, ` +
      'or are checked against every resource when they list; they only read.'
    );
  }
  const queueReason = resource.includes(':sqs:')
    ? queueWildcardReason(resource, props.namePrefix)
    : undefined;
  if (queueReason !== undefined) return queueReason;
  const reason = reasons.find(([ending]) => resource.endsWith(ending))?.[1];
  if (reason === undefined)
    throw new Error(`The operator policy's wildcard resource ${resource} has no stated reason`);
  return reason;
}
