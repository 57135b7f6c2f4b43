import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { type DataKey, DataKeyUse } from './data-key';

/**
 * The table's backup rule (docs/decisions/table-backups.md). Point-in-time recovery already
 * covers any second of the last 35 days; daily copies kept 90 days reach back past a month-end
 * and a quarter-end reconciliation, where damage done weeks earlier is most often noticed, and sit
 * in a locked vault that neither a deleted table nor a stolen administrator credential can empty.
 */
export const tableBackupRule = {
  /** 03:00 UTC, the quietest hour of a European and American merchant base. */
  schedule: { hour: '3', minute: '0' },
  retention: Duration.days(90),
  /** A job not started within an hour of 03:00 is skipped (and fails the day's job), not run at noon. */
  startWindow: Duration.hours(1),
  completionWindow: Duration.hours(8),
} as const;

/**
 * Vault Lock in compliance mode: after the grace period nobody, the account root included, can
 * delete a recovery point before its retention ends, shorten it below the minimum, or remove the
 * lock. The grace period (AWS's minimum) lets a first deploy with a wrong setting be undone.
 */
export const tableBackupVaultLock = {
  minRetention: tableBackupRule.retention,
  changeableFor: Duration.days(3),
} as const;

export interface TableBackupProps {
  readonly table: dynamodb.Table;
  /** Encrypts the vault's recovery points, as it does the table. */
  readonly dataKey: DataKey;
  /** The vault's, the plan's and the selection's name. */
  readonly name: string;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * An AWS Backup plan for the table: one daily rule into a vault of its own, locked and encrypted
 * with the stage's data key, and the role AWS Backup takes to copy the table and to restore it.
 * Recovery points are in the vault only with AWS Backup's advanced DynamoDB backup on for the
 * account (the default since November 2021); docs/operations.md says how to check.
 */
export class TableBackup extends Construct {
  readonly vault: backup.BackupVault;
  readonly plan: backup.BackupPlan;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: TableBackupProps) {
    super(scope, id);
    this.vault = new backup.BackupVault(this, 'Vault', {
      backupVaultName: props.name,
      encryptionKey: props.dataKey.key,
      lockConfiguration: tableBackupVaultLock,
      removalPolicy: props.removalPolicy,
    });
    this.plan = new backup.BackupPlan(this, 'Plan', {
      backupPlanName: props.name,
      backupVault: this.vault,
      backupPlanRules: [
        new backup.BackupPlanRule({
          ruleName: 'Daily',
          scheduleExpression: events.Schedule.cron(tableBackupRule.schedule),
          startWindow: tableBackupRule.startWindow,
          completionWindow: tableBackupRule.completionWindow,
          deleteAfter: tableBackupRule.retention,
        }),
      ],
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('backup.amazonaws.com'),
      description: `AWS Backup's role for the daily backups and restores of ${props.name}`,
    });
    // It reads the table and writes recovery points under the same key; the grants let the copy and
    // restore jobs use the key while they run.
    props.dataKey.grant(this.role, DataKeyUse.encryptDecrypt);
    props.dataKey.key.grantCreateGrantForAwsResources(this.role);
    this.plan.addSelection('Table', {
      backupSelectionName: props.name,
      resources: [backup.BackupResource.fromArn(props.table.tableArn)],
      role: this.role,
      allowRestores: true,
    });
    const managedPolicyReason =
      'is one of the two policies AWS Backup documents for its service role, and AWS keeps it current as its ' +
      'DynamoDB backup and restore jobs change; the role can only be taken by backup.amazonaws.com, and the ' +
      'data key it needs is granted on its own.';
    Validations.of(this.role).acknowledge(
      ...['AWSBackupServiceRolePolicyForBackup', 'AWSBackupServiceRolePolicyForRestores'].map((policy) => ({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/${policy}]`,
        reason: `${policy} ${managedPolicyReason}`,
      })),
      {
        id: 'PCI.DSS.321-IAMNoInlinePolicy',
        reason:
          'The role’s own policy holds only its use of the data key, written from the explicit grant above and ' +
          'named the same way in the key policy; a managed policy would hold the same statements while being ' +
          'attachable to other principals.',
      },
    );
  }
}
