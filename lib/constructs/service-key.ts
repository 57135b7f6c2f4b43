import { Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/**
 * What the account's IAM policies may let someone do to a key: manage it, never use it. Spelled out
 * rather than CDK's `admins` set, whose `kms:Create*` includes `kms:CreateGrant`, with which an
 * administrator could grant themselves the use of the key. `kms:PutKeyPolicy` stays, so the account
 * can always repair the policy without AWS Support (docs/decisions/key-policies.md).
 */
export const keyAdministrationActions = [
  'kms:CancelKeyDeletion',
  'kms:CreateAlias',
  'kms:DeleteAlias',
  'kms:DescribeKey',
  'kms:DisableKey',
  'kms:DisableKeyRotation',
  'kms:EnableKey',
  'kms:EnableKeyRotation',
  'kms:GetKeyPolicy',
  'kms:GetKeyRotationStatus',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:ListKeyRotations',
  'kms:ListResourceTags',
  'kms:PutKeyPolicy',
  'kms:RevokeGrant',
  'kms:RotateKeyOnDemand',
  'kms:ScheduleKeyDeletion',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:UpdateAlias',
  'kms:UpdateKeyDescription',
] as const;

/** The condition every statement allowing `kms:CreateGrant` carries. */
export const grantIsForAwsResource = { Bool: { 'kms:GrantIsForAWSResource': 'true' } } as const;

export interface ServiceKeyProps {
  readonly alias: string;
  readonly description: string;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * A customer-managed key whose policy keeps administrators apart from users. The account root (so:
 * the account's IAM policies) may administer the key and nothing else; every principal that uses
 * it is named in the key policy with exactly the actions its grant asks for, so no IAM policy alone
 * can open it; and a deny statement refuses `kms:CreateGrant` to anyone but AWS services acting for
 * a resource (Control Tower's CT.KMS.PR.3). Rotation is on, and deletion waits 30 days.
 */
export class ServiceKey extends kms.Key {
  constructor(scope: Construct, id: string, props: ServiceKeyProps) {
    super(scope, id, {
      alias: props.alias,
      description: props.description,
      removalPolicy: props.removalPolicy,
      enableKeyRotation: true,
      pendingWindow: Duration.days(30),
      // Replaces CDK's default policy, which lets the account root do `kms:*`.
      policy: new iam.PolicyDocument({
        statements: [
          new iam.PolicyStatement({
            sid: 'AccountAdministersOnly',
            principals: [new iam.AccountRootPrincipal()],
            actions: [...keyAdministrationActions],
            resources: ['*'],
          }),
          new iam.PolicyStatement({
            sid: 'GrantsOnlyForAwsResources',
            effect: iam.Effect.DENY,
            principals: [new iam.AnyPrincipal()],
            actions: ['kms:CreateGrant'],
            resources: ['*'],
            conditions: {
              BoolIfExists: { 'kms:GrantIsForAWSResource': 'false', 'aws:PrincipalIsAWSService': 'false' },
            },
          }),
        ],
      }),
    });
  }

  /**
   * Names `grantee` in the key policy with `actions`, and gives its identity policy the same. A
   * principal of another stack (a nested one included) cannot be named without a dependency cycle
   * between the two stacks, and leaving it out would fail at run time, so that is refused here.
   */
  override grant(grantee: iam.IGrantable, ...actions: string[]): iam.Grant {
    if (actions.includes('kms:CreateGrant')) {
      throw new Error(
        `Use grantCreateGrantForAwsResources to let a principal create grants on ${this.node.path}`,
      );
    }
    this.refuseOtherStacks(grantee);
    return iam.Grant.addToPrincipalAndResource({
      grantee,
      actions,
      resourceArns: [this.keyArn],
      resource: this,
      resourceSelfArns: ['*'],
    });
  }

  override grantDecrypt(grantee: iam.IGrantable): iam.Grant {
    return this.grant(grantee, 'kms:Decrypt');
  }

  override grantEncrypt(grantee: iam.IGrantable): iam.Grant {
    return this.grant(grantee, 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:ReEncryptFrom', 'kms:ReEncryptTo');
  }

  override grantEncryptDecrypt(grantee: iam.IGrantable): iam.Grant {
    return this.grant(
      grantee,
      'kms:Decrypt',
      'kms:Encrypt',
      'kms:GenerateDataKey',
      'kms:ReEncryptFrom',
      'kms:ReEncryptTo',
    );
  }

  /** Lets `grantee` create grants on the key for AWS resources only (a backup job, a restored table). */
  grantCreateGrantForAwsResources(grantee: iam.IGrantable): iam.Grant {
    this.refuseOtherStacks(grantee);
    return iam.Grant.addToPrincipalAndResource({
      grantee,
      actions: ['kms:CreateGrant'],
      resourceArns: [this.keyArn],
      resource: this,
      resourceSelfArns: ['*'],
      conditions: grantIsForAwsResource,
    });
  }

  private refuseOtherStacks(grantee: iam.IGrantable): void {
    const principal = grantee.grantPrincipal;
    if (Construct.isConstruct(principal) && Stack.of(principal) !== Stack.of(this)) {
      throw new Error(
        `${principal.node.path} is in another stack than the key ${this.node.path}: a key policy can only name ` +
          'principals of its own stack; create the principal there or give the other stack a key of its own',
      );
    }
  }
}
