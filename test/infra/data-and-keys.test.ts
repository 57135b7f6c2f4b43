import { readFileSync } from 'node:fs';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { globalSecondaryIndexes } from '../../functions/store/table';
import { keyAdministrationActions } from '../../lib/constructs/service-key';
import { tableBackupRule, tableBackupVaultLock } from '../../lib/constructs/table-backup';
import { queueNames, stackName } from '../../lib/stack-name';
import { dataKeyId, secretsKeyId, synthesized, synthesizeEveryStageFirst, templateOf } from './template';

const stages = Object.values(Stage);

synthesizeEveryStageFirst();

type CfnResource = { [key: string]: any };
type Statement = {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal: { AWS?: unknown; Service?: unknown } | '*';
  Action: string | string[];
  Condition?: Record<string, Record<string, unknown>>;
};

const actionsOf = (statement: Statement): string[] => [statement.Action].flat();
/** The account root principal as the stage's template writes it (its account pinned or not). */
const accountRoot = (stage: Stage): unknown => {
  const { stack } = synthesized(stage);
  return stack.resolve(new iam.AccountRootPrincipal().policyFragment.principalJson.AWS?.[0]);
};
/** Every action that uses a key's material, as opposed to managing the key. */
const cryptoAction = /^kms:(Decrypt|Encrypt|GenerateDataKey.*|ReEncrypt.*|CreateGrant|GenerateMac|Sign)$/;

function keyPolicy(template: Template, keyId: string): Statement[] {
  return (template.toJSON().Resources[keyId] as CfnResource).Properties.KeyPolicy.Statement;
}

/** The logical ids of the roles a key policy statement names, e.g. `DispatcherRole1FCE7FA2`. */
function rolesNamedBy(statement: Statement): string[] {
  const principals = [(statement.Principal as { AWS?: unknown }).AWS ?? []].flat() as CfnResource[];
  return principals.flatMap((principal) => (principal['Fn::GetAtt'] ? [principal['Fn::GetAtt'][0]] : []));
}

const union = (a: readonly string[] = [], b: readonly string[]): string[] =>
  [...new Set([...a, ...b])].sort();

/** For each role, the KMS actions its own IAM policies allow on the key with this logical id. */
function identityGrantsOn(template: Template, keyId: string): Map<string, string[]> {
  const grants = new Map<string, string[]>();
  for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
    for (const statement of policy.Properties.PolicyDocument.Statement as CfnResource[]) {
      const resources = [statement.Resource].flat().map((resource) => JSON.stringify(resource));
      if (!resources.includes(JSON.stringify({ 'Fn::GetAtt': [keyId, 'Arn'] }))) continue;
      for (const role of policy.Properties.Roles as { Ref: string }[]) {
        grants.set(role.Ref, union(grants.get(role.Ref), [statement.Action].flat()));
      }
    }
  }
  return grants;
}

/** For each role, the actions the key policy allows it by name. */
function keyPolicyGrants(statements: readonly Statement[]): Map<string, string[]> {
  const grants = new Map<string, string[]>();
  for (const statement of statements.filter((s) => s.Effect === 'Allow')) {
    for (const role of rolesNamedBy(statement)) {
      grants.set(role, union(grants.get(role), actionsOf(statement)));
    }
  }
  return grants;
}

describe('key policies', () => {
  const keys = (stage: Stage) => {
    const template = templateOf(stage);
    return [
      ['data', dataKeyId(template, stage)],
      ['secrets', secretsKeyId(template, stage)],
    ] as const;
  };

  it.each(stages)('gives no principal kms:* on either %s key', (stage) => {
    const template = templateOf(stage);
    for (const [, keyId] of keys(stage)) {
      for (const statement of keyPolicy(template, keyId)) expect(actionsOf(statement)).not.toContain('kms:*');
    }
  });

  it.each(stages)('lets the %s account root administer each key, and use neither directly', (stage) => {
    const template = templateOf(stage);
    for (const [, keyId] of keys(stage)) {
      const statements = keyPolicy(template, keyId);
      const administration = statements.find((statement) => statement.Sid === 'AccountAdministersOnly');
      expect(administration?.Principal).toEqual({ AWS: accountRoot(stage) });
      expect(administration?.Condition).toBeUndefined();
      // Without PutKeyPolicy the account could never repair a wrong policy without AWS Support.
      expect(actionsOf(administration as Statement)).toEqual(expect.arrayContaining(['kms:PutKeyPolicy']));
      expect(actionsOf(administration as Statement)).toEqual([...keyAdministrationActions]);
      const unconditionedRootUse = statements.filter(
        (statement) =>
          statement.Effect === 'Allow' &&
          JSON.stringify(statement.Principal) === JSON.stringify({ AWS: accountRoot(stage) }) &&
          statement.Condition?.StringEquals?.['kms:ViaService'] === undefined &&
          actionsOf(statement).some((action) => cryptoAction.test(action)),
      );
      expect(unconditionedRootUse).toEqual([]);
    }
  });

  it.each(stages)('lets the %s account use the secrets key in no way at all', (stage) => {
    const template = templateOf(stage);
    const rootStatements = keyPolicy(template, secretsKeyId(template, stage)).filter(
      (statement) => JSON.stringify(statement.Principal) === JSON.stringify({ AWS: accountRoot(stage) }),
    );
    expect(rootStatements.map((statement) => statement.Sid)).toEqual(['AccountAdministersOnly']);
  });

  it('lets the account use the data key only through DynamoDB, SQS, SNS and AWS Backup', () => {
    const template = templateOf('production');
    const throughServices = keyPolicy(template, dataKeyId(template, 'production')).filter((statement) =>
      statement.Sid?.startsWith('AccountThroughDataServices'),
    );
    expect(throughServices).toHaveLength(1);
    const viaService = JSON.stringify(throughServices[0]?.Condition?.StringEquals?.['kms:ViaService']);
    for (const service of ['dynamodb', 'sqs', 'sns', 'backup']) expect(viaService).toContain(`"${service}.`);
    const { stack } = synthesized('production');
    expect(throughServices[0]?.Condition?.StringEquals?.['kms:CallerAccount']).toEqual(
      stack.resolve(stack.account),
    );
  });

  it.each(stages)('allows kms:CreateGrant on the %s keys only for AWS resources', (stage) => {
    const template = templateOf(stage);
    for (const [, keyId] of keys(stage)) {
      const statements = keyPolicy(template, keyId);
      const allowing = statements.filter(
        (statement) =>
          statement.Effect === 'Allow' &&
          actionsOf(statement).some((a) => /CreateGrant|^kms:Create\*$/.test(a)),
      );
      for (const statement of allowing) {
        expect(statement.Condition?.Bool).toEqual({ 'kms:GrantIsForAWSResource': 'true' });
      }
      // Control Tower's CT.KMS.PR.3, in the exact shape its guard rule reads.
      expect(statements).toContainEqual({
        Sid: 'GrantsOnlyForAwsResources',
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'kms:CreateGrant',
        Resource: '*',
        Condition: {
          BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' },
        },
      });
    }
  });

  it.each(stages)(
    'names in each %s key policy every role its IAM policies let use the key, with the same actions',
    (stage) => {
      const template = templateOf(stage);
      for (const [, keyId] of keys(stage)) {
        const fromIdentity = identityGrantsOn(template, keyId);
        expect(fromIdentity.size).toBeGreaterThan(0);
        expect(keyPolicyGrants(keyPolicy(template, keyId))).toEqual(fromIdentity);
      }
    },
  );

  it('names only the dispatcher and the routes that seal signing secrets in the secrets key policy', () => {
    const template = templateOf('sandbox');
    const named = keyPolicyGrants(keyPolicy(template, secretsKeyId(template, 'sandbox')));
    const dispatcher = [...named.keys()].filter((role) => role.startsWith('DeliveryPipelineDispatcherRole'));
    expect(dispatcher).toHaveLength(1);
    expect(named.get(dispatcher[0] as string)).toEqual(['kms:Decrypt']);
    const sealers = [...named.entries()].filter(
      ([role]) => !role.startsWith('DeliveryPipelineDispatcherRole'),
    );
    expect(sealers.length).toBeGreaterThan(0);
    for (const [role, actions] of sealers) {
      expect(role).toMatch(/RouteRole/);
      expect(actions).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    }
  });
});

describe('table backup', () => {
  it('backs up nothing in the sandbox', () => {
    const types = Object.values(templateOf('sandbox').toJSON().Resources as Record<string, CfnResource>).map(
      (resource) => resource.Type as string,
    );
    expect(types.filter((type) => type.startsWith('AWS::Backup::'))).toEqual([]);
  });

  it('keeps production backups in a vault locked for their whole retention, under the data key', () => {
    const template = templateOf('production');
    const vaults = template.findResources('AWS::Backup::BackupVault');
    expect(Object.values(vaults)).toHaveLength(1);
    const [vaultId, vault] = Object.entries(vaults)[0] as [string, CfnResource];
    expect(vault.DeletionPolicy).toBe('Retain');
    expect(vault.Properties).toMatchObject({
      BackupVaultName: 'merchant-payments-production',
      EncryptionKeyArn: { 'Fn::GetAtt': [dataKeyId(template, 'production'), 'Arn'] },
      LockConfiguration: { MinRetentionDays: 90, ChangeableForDays: 3 },
    });
    template.hasResourceProperties('AWS::Backup::BackupPlan', {
      BackupPlan: {
        BackupPlanRule: [
          Match.objectLike({
            RuleName: 'Daily',
            ScheduleExpression: 'cron(0 3 * * ? *)',
            Lifecycle: { DeleteAfterDays: 90 },
            TargetBackupVault: { 'Fn::GetAtt': [vaultId, 'BackupVaultName'] },
          }),
        ],
      },
    });
  });

  it('retains each backup at least as long as the vault lock demands, or AWS Backup would fail the job', () => {
    expect(tableBackupRule.retention.toDays()).toBeGreaterThanOrEqual(
      tableBackupVaultLock.minRetention.toDays(),
    );
    // AWS Backup's minimum cooling-off period before a compliance-mode lock becomes immutable.
    expect(tableBackupVaultLock.changeableFor.toDays()).toBeGreaterThanOrEqual(3);
  });

  it('selects the production table, with a role only AWS Backup can take and the data key named for it', () => {
    const template = templateOf('production');
    const table = Object.keys(template.findResources('AWS::DynamoDB::Table'))[0] as string;
    const selection = Object.values(template.findResources('AWS::Backup::BackupSelection'))[0] as CfnResource;
    expect(selection.Properties.BackupSelection.Resources).toEqual([{ 'Fn::GetAtt': [table, 'Arn'] }]);
    const roleId = selection.Properties.BackupSelection.IamRoleArn['Fn::GetAtt'][0] as string;
    const role = template.toJSON().Resources[roleId] as CfnResource;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Principal: { Service: 'backup.amazonaws.com' } }),
    ]);
    const named = keyPolicyGrants(keyPolicy(template, dataKeyId(template, 'production')));
    expect(named.get(roleId)).toEqual(
      expect.arrayContaining(['kms:CreateGrant', 'kms:Decrypt', 'kms:Encrypt']),
    );
  });
});

describe('table contributor insights', () => {
  it.each(stages)(
    'counts the most accessed and throttled keys of the %s table and of every index',
    (stage) => {
      const table = Object.values(templateOf(stage).findResources('AWS::DynamoDB::Table'))[0] as CfnResource;
      const insights = { Enabled: true, Mode: 'ACCESSED_AND_THROTTLED_KEYS' };
      expect(table.Properties.ContributorInsightsSpecification).toEqual(insights);
      const indexes = table.Properties.GlobalSecondaryIndexes as CfnResource[];
      expect(indexes.map((index) => index.IndexName).sort()).toEqual(
        globalSecondaryIndexes.map((index) => index.indexName).sort(),
      );
      for (const index of indexes) expect(index.ContributorInsightsSpecification).toEqual(insights);
    },
  );
});

describe('dead-letter queues', () => {
  const deadLetterQueues = (stage: Stage) => {
    const names = queueNames(stackName(stage));
    return [names.deliveryDeadLetters, names.routerFailures, names.reconcilerFailures];
  };
  const queueNamed = (stage: Stage, name: string) => {
    const queues = Object.values(
      templateOf(stage).findResources('AWS::SQS::Queue', { Properties: { QueueName: name } }),
    );
    expect(queues).toHaveLength(1);
    return queues[0] as CfnResource;
  };

  it('keeps the three production dead-letter queues when the stack goes', () => {
    for (const name of deadLetterQueues('production')) {
      expect(queueNamed('production', name)).toMatchObject({
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
  });

  it('deletes the sandbox dead-letter queues with the stack', () => {
    for (const name of deadLetterQueues('sandbox')) {
      expect(queueNamed('sandbox', name)).toMatchObject({
        DeletionPolicy: 'Delete',
        UpdateReplacePolicy: 'Delete',
      });
    }
  });
});

describe('dashboard', () => {
  it.each(stages)('gives the %s dashboard no Tags, which us-east-1 refuses on a dashboard', (stage) => {
    const dashboards = Object.values(templateOf(stage).findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    expect((dashboards[0] as CfnResource).Properties.Tags).toBeUndefined();
  });

  it('still tags the stack itself, which reaches the dashboard at deploy time where regions allow', () => {
    expect(synthesized('production').stack.tags.tagValues()).toMatchObject({ Stage: 'production' });
  });
});

describe('docs/operations.md', () => {
  const runbook = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const section = (heading: string): string => {
    const start = runbook.indexOf(`\n## ${heading}\n`);
    expect(start, heading).toBeGreaterThan(-1);
    const end = runbook.indexOf('\n## ', start + 1);
    return runbook.slice(start, end === -1 ? undefined : end).replaceAll(/\s+/g, ' ');
  };

  it('describes the backup plan the production stack deploys in its restore procedure', () => {
    const restore = section('Restoring the table to a point in time');
    const { hour, minute } = tableBackupRule.schedule;
    expect(restore).toContain(`every day at ${hour.padStart(2, '0')}:${minute.padStart(2, '0')} UTC`);
    expect(restore).toContain(`kept ${tableBackupRule.retention.toDays()} days`);
    expect(restore).toContain(`${tableBackupVaultLock.changeableFor.toDays()} days after the first deploy`);
    expect(restore).toContain('`merchant-payments-production`');
    expect(restore).toContain('aws backup start-restore-job');
  });

  it('says who administers and who uses each key', () => {
    const keys = section('Who may use the keys');
    expect(keys).toContain('**Administration: the account.**');
    expect(keys).toContain('**Use of the secrets key**');
    expect(keys).toContain('**Use of the data key**');
  });
});
