import { Validations } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { restoredTableActions } from '../../lib/constructs/operator-policy';
import { committedStageConfig } from '../../lib/stage-config';
import {
  adminCliActions,
  commandsForAdministrators,
  type DerivedAction,
  runbookActions,
  runbookCommands,
} from './operator-actions';
import { synthesized, synthesizeEveryStageFirst, templateOf } from './template';

const stages = Object.values(Stage);

synthesizeEveryStageFirst();

type Statement = {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

/**
 * What the policy allows that no runbook command or SDK call names, each reviewed: the consoles the
 * runbook reads (dashboard, alarms, Logs Insights, X-Ray) and the data key, which DynamoDB and SQS
 * use with the caller's permissions on the encrypted table and queues.
 */
const reviewedConsoleAndKeyActions = [
  'cloudwatch:DescribeAlarmHistory',
  'cloudwatch:DescribeAlarms',
  'cloudwatch:GetDashboard',
  'cloudwatch:GetMetricData',
  'cloudwatch:ListMetrics',
  'dynamodb:BatchGetItem',
  'kms:Decrypt',
  'kms:Encrypt',
  'kms:GenerateDataKey',
  'logs:DescribeLogGroups',
  'logs:FilterLogEvents',
  'logs:GetQueryResults',
  'logs:StartQuery',
  'logs:StopQuery',
  'xray:BatchGetTraces',
  'xray:GetTraceSummaries',
];

/** Actions only production's policy has: its backup vault, and the role restores run as. */
const isBackupAction = (action: string) => action.startsWith('backup:') || action === 'iam:PassRole';

function operatorPolicy(template: Template, stage: Stage) {
  const policies = Object.values(
    template.findResources('AWS::IAM::ManagedPolicy', {
      Properties: { ManagedPolicyName: `merchant-payments-${stage}-operator` },
    }),
  );
  expect(policies).toHaveLength(1);
  return (policies[0] as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties;
}

const statementsOf = (stage: Stage) => operatorPolicy(templateOf(stage), stage).PolicyDocument.Statement;
const actionsOf = (statement: Statement) => [statement.Action].flat();
const allowedActions = (stage: Stage) => new Set(statementsOf(stage).flatMap(actionsOf));

function neededActions(stage: Stage): DerivedAction[] {
  const needed = [...adminCliActions(), ...runbookActions()];
  return stage === Stage.production ? needed : needed.filter(({ action }) => !isBackupAction(action));
}

describe('the derivation of what operators need', () => {
  it('finds the SDK commands of every admin command that acts on AWS', () => {
    const commands = new Set(adminCliActions().map(({ neededBy }) => neededBy.split(': ')[1]));
    expect([...commands]).toEqual(
      expect.arrayContaining([
        'FlushStageAuthorizersCacheCommand',
        'GetQueueUrlCommand',
        'StartMessageMoveTaskCommand',
        'InvokeCommand',
        'GetRecordsCommand',
        'TransactWriteCommand',
      ]),
    );
  });

  it('finds the runbook’s aws commands, and leaves out only the reviewed administrators’ ones', () => {
    const commands = runbookCommands();
    expect(commands).toContain('kms rotate-key-on-demand');
    expect(commands).toContain('dynamodb restore-table-to-point-in-time');
    for (const command of Object.keys(commandsForAdministrators)) expect(commands).toContain(command);
  });
});

describe.each(stages)('the operator policy of %s', (stage) => {
  it('allows every action the admin CLI and the runbook need', () => {
    const allowed = allowedActions(stage);
    const missing = neededActions(stage).filter(({ action }) => !allowed.has(action));
    expect(missing).toEqual([]);
  });

  it('allows nothing beyond those and the reviewed console and key actions', () => {
    const expected = new Set([
      ...neededActions(stage).map(({ action }) => action),
      ...reviewedConsoleAndKeyActions,
    ]);
    expect([...allowedActions(stage)].sort()).toEqual([...expected].sort());
  });

  it('names every action in full and gives * only to actions without resources', () => {
    for (const statement of statementsOf(stage)) {
      for (const action of actionsOf(statement)) expect(action).not.toContain('*');
      if (statement.Resource === '*') {
        for (const action of actionsOf(statement)) {
          expect(action).toMatch(
            /^(cloudwatch:(DescribeAlarms|GetMetricData|ListMetrics)|logs:(DescribeLogGroups|GetQueryResults|StopQuery)|xray:(BatchGetTraces|GetTraceSummaries)|lambda:(GetAccountSettings|ListEventSourceMappings)|backup:(DescribeRegionSettings|ListBackupJobs)|ses:(GetAccount|ListSuppressedDestinations))$/,
          );
        }
      }
    }
  });

  it('batch-writes and deletes tables only among the restored ones, and scans the live table only whole', () => {
    const broad = ['dynamodb:BatchWriteItem', 'dynamodb:DeleteTable', 'dynamodb:DescribeTable'];
    const restored = `table/merchant-payments-${stage}-restored*`;
    for (const statement of statementsOf(stage)) {
      if (!actionsOf(statement).some((action) => broad.includes(action))) continue;
      expect(JSON.stringify(statement.Resource)).toContain(restored);
      expect([statement.Resource].flat()).toHaveLength(1);
      expect(actionsOf(statement).sort()).toEqual([...restoredTableActions].sort());
    }
    const restore = statementsOf(stage).find((statement) =>
      actionsOf(statement).includes('dynamodb:RestoreTableToPointInTime'),
    );
    expect(restore?.Resource).toMatch(new RegExp(`:table/merchant-payments-${stage}$`));
    // `items rekey` scans the live table, as the restore reads it; no index is scanned.
    const scanned = statementsOf(stage)
      .filter((statement) => actionsOf(statement).includes('dynamodb:Scan'))
      .map((statement) => JSON.stringify(statement.Resource));
    expect(scanned).toHaveLength(2);
    expect(scanned.filter((resource) => resource.includes(restored))).toHaveLength(1);
    expect(scanned).toContain(JSON.stringify(restore?.Resource));
  });

  it('uses the data key only through DynamoDB, SQS and AWS Backup, granting for AWS resources only', () => {
    const use = statementsOf(stage).filter((statement) => actionsOf(statement).includes('kms:Decrypt'));
    expect(use).toHaveLength(1);
    expect(use[0]?.Condition?.StringEquals?.['kms:ViaService']).toHaveLength(3);
    expect(use[0]?.Condition?.BoolIfExists).toEqual({ 'kms:GrantIsForAWSResource': 'true' });
  });

  it('stays under the 6,144 characters of a managed policy, counting each reference as 100', () => {
    const document = JSON.stringify(
      withReferencesAs100(operatorPolicy(templateOf(stage), stage).PolicyDocument),
    );
    expect(document.length).toBeLessThanOrEqual(6144);
  });

  it('is an output of the stack, beside both keys’ ARNs', () => {
    const outputs = templateOf(stage).toJSON().Outputs as Record<string, unknown>;
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining(['OperatorPolicyArn', 'DataKeyArn', 'SecretsKeyArn']),
    );
  });
});

describe('the operator policy’s acknowledgements', () => {
  it.each(stages)('acknowledge in %s only its reviewed wildcard resources, each with a reason', (stage) => {
    const { stack } = synthesized(stage);
    const acknowledged = new Map<string, string>();
    for (const construct of stack.node.findAll()) {
      if (!construct.node.path.includes('/OperatorPolicy/')) continue;
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>))
          acknowledged.set(id, reason);
      }
    }
    const prefix = `MerchantPayments-${stage}-`;
    const table = `merchant-payments-${stage}`;
    const { region, account } = committedStageConfig(stage).env ?? {};
    const endings = [
      `:table/${table}/index/*]`,
      `:table/${table}-restored*]`,
      `:function:${prefix}*]`,
      `:sqs:${region}:${account}:${prefix}*]`,
      `:sqs:${region}:${account}:${prefix}*-dlq]`,
      `:sqs:${region}:${account}:${prefix}*-failures]`,
      ':event-source-mapping:*]',
      `:alarm:${prefix}*]`,
      `:insight-rule/DynamoDBContributorInsights-*-${table}*]`,
      ...(stage === Stage.production ? [':recovery-point:*]'] : []),
      '[Resource::*]',
    ];
    expect(acknowledged.size).toBe(endings.length);
    for (const [id, reason] of acknowledged) {
      expect(id).toMatch(/^annotation::AwsSolutions-IAM5\[Resource::/i);
      expect({ id, reviewed: endings.some((ending) => id.endsWith(ending)) }).toEqual({ id, reviewed: true });
      expect(reason.length).toBeGreaterThan(60);
    }
  });
});

describe('the operator policy of production', () => {
  it('passes the backup role to AWS Backup only', () => {
    const passRole = statementsOf(Stage.production).filter((statement) =>
      actionsOf(statement).includes('iam:PassRole'),
    );
    expect(passRole).toHaveLength(1);
    expect(passRole[0]?.Condition).toEqual({
      StringEquals: { 'iam:PassedToService': 'backup.amazonaws.com' },
    });
    expect(passRole[0]?.Resource).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/^TableBackupRole/), 'Arn'],
    });
  });
});

/** The document with each reference to another resource as 100 characters, longer than its ARN here. */
function withReferencesAs100(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withReferencesAs100);
  if (typeof value !== 'object' || value === null) return value;
  const intrinsic = value as { Ref?: string; 'Fn::GetAtt'?: unknown; 'Fn::Join'?: [string, unknown[]] };
  if (intrinsic.Ref?.startsWith('AWS::')) return 'x'.repeat(intrinsic.Ref === 'AWS::StackId' ? 128 : 14);
  if (intrinsic.Ref !== undefined || intrinsic['Fn::GetAtt'] !== undefined) return 'x'.repeat(100);
  if (intrinsic['Fn::Join'] !== undefined) {
    const [separator, parts] = intrinsic['Fn::Join'];
    return parts.map(withReferencesAs100).join(separator);
  }
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withReferencesAs100(inner)]));
}
