import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { ServiceFunction } from './service-function';

/** The alias every caller of a rolled-out function invokes; CodeDeploy moves it between versions. */
export const liveAliasName = 'live';

/** How a stage moves traffic to a new version of its rolled-out functions. */
export enum RolloutPace {
  /** 10 % of invocations for 5 minutes, then the rest, unless the rollout alarm goes off first. */
  canary = 'canary',
  /** Every invocation at once; the alias still gives a one-command way back. */
  allAtOnce = 'allAtOnce',
}

const deploymentConfigs: Record<RolloutPace, codedeploy.ILambdaDeploymentConfig> = {
  [RolloutPace.canary]: codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
  [RolloutPace.allAtOnce]: codedeploy.LambdaDeploymentConfig.ALL_AT_ONCE,
};

/** CloudWatch's limit on the metrics one alarm's math expression may read. */
const maxAlarmMetrics = 10;

export interface SafeRolloutProps {
  /** Names the CodeDeploy application and the rollout alarm. */
  readonly namePrefix: string;
  readonly pace: RolloutPace;
}

/**
 * Versions, a `live` alias and a CodeDeploy deployment group for each function where a bad deploy
 * loses money or events (`docs/operations.md#rolling-out-and-back`). One alarm, on the errors of
 * every rolled-out alias together, stops and rolls back a deployment: a stack update is one
 * release, so a crash in any of its functions sends all of them back. The functions are added with
 * `rollOut` before `seal`, which builds the alarm over all of them and wires it to every group.
 */
export class SafeRollout extends Construct {
  readonly application: codedeploy.LambdaApplication;
  readonly deploymentConfig: codedeploy.ILambdaDeploymentConfig;
  /** CodeDeploy's service role, shared by every deployment group of the stack. */
  readonly role: iam.Role;
  private readonly aliases = new Map<string, lambda.Alias>();
  private readonly groups: codedeploy.LambdaDeploymentGroup[] = [];
  private errorsAlarm: cloudwatch.Alarm | undefined;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: SafeRolloutProps,
  ) {
    super(scope, id);
    this.application = new codedeploy.LambdaApplication(this, 'Application', {
      applicationName: `${props.namePrefix}-functions`,
    });
    this.deploymentConfig = deploymentConfigs[props.pace];
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('codedeploy.amazonaws.com'),
      description: `CodeDeploy moves the ${liveAliasName} aliases of ${props.namePrefix}`,
      managedPolicies: [
        iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSCodeDeployRoleForLambdaLimited'),
      ],
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        'The policy AWS documents for CodeDeploy deployments to Lambda: it lets CodeDeploy read and move ' +
        'function aliases, read alarms and invoke only hook functions named CodeDeployHook_*, of which this ' +
        'stack has none. AWS keeps it current as CodeDeploy changes; only codedeploy.amazonaws.com assumes it.',
    });
  }

  /**
   * Publishes a version of `fn` on every deploy and returns its `live` alias: give the alias, not
   * the function, to whatever invokes it (API Gateway, an event source mapping).
   */
  rollOut(fn: ServiceFunction, id: string): lambda.IFunction {
    if (this.errorsAlarm !== undefined) throw new Error(`${id} was rolled out after the rollout was sealed`);
    const alias = new lambda.Alias(fn, 'LiveAlias', {
      aliasName: liveAliasName,
      // CDK declares `role` as `IRole | undefined` on the class and optional on the interface, which
      // `exactOptionalPropertyTypes` tells apart; the object is the interface's.
      version: fn.function.currentVersion as lambda.IVersion,
      description: 'Invoked by every caller; CodeDeploy shifts it to each new version',
    });
    const group = new codedeploy.LambdaDeploymentGroup(this, `${id}Deployments`, {
      application: this.application,
      alias,
      deploymentConfig: this.deploymentConfig,
      role: this.role,
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
    });
    this.aliases.set(id, alias);
    this.groups.push(group);
    // The same `role` declaration difference as the version's above.
    return alias as lambda.IFunction;
  }

  /** Every rolled-out alias, by the id it was rolled out with. */
  get rolledOut(): ReadonlyMap<string, lambda.Alias> {
    return this.aliases;
  }

  /**
   * Builds the one rollout alarm over every alias rolled out so far and gives it to every group.
   * A Lambda error here is a crash, a timeout or a failed start of the handler: what a bad build
   * causes. Errors a handler answers itself (a 4xx, a failed webhook attempt) are not counted.
   */
  seal(): cloudwatch.Alarm {
    if (this.errorsAlarm !== undefined) return this.errorsAlarm;
    if (this.aliases.size === 0) throw new Error('Nothing was rolled out');
    if (this.aliases.size > maxAlarmMetrics) {
      throw new Error(
        `An alarm reads at most ${maxAlarmMetrics} metrics; ${this.aliases.size} functions were rolled out`,
      );
    }
    const usingMetrics: Record<string, cloudwatch.IMetric> = {};
    let index = 0;
    for (const alias of this.aliases.values()) {
      usingMetrics[`e${index}`] = alias.metricErrors({ period: Duration.minutes(1), statistic: 'Sum' });
      index += 1;
    }
    this.errorsAlarm = new cloudwatch.Alarm(this, 'ErrorsAlarm', {
      alarmName: `${this.props.namePrefix}-rollout-errors`,
      alarmDescription:
        `Lambda Errors (crashes, timeouts, failed starts) of the ${liveAliasName} alias of ` +
        `${[...this.aliases.keys()].join(', ')}: 1 or more in a minute. During a deployment it stops ` +
        'CodeDeploy and rolls every one of them back to its previous version.',
      metric: new cloudwatch.MathExpression({
        // SUM over the list adds what each alias reported in the minute; one with no data adds 0.
        expression: `SUM([${Object.keys(usingMetrics).join(', ')}])`,
        usingMetrics,
        period: Duration.minutes(1),
        label: 'Errors of the rolled-out aliases',
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    for (const group of this.groups) group.addAlarm(this.errorsAlarm);
    return this.errorsAlarm;
  }
}
