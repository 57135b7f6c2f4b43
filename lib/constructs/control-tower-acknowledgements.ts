import { Aspects, type IAspect, Stack, Validations } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';
import { controlTowerRuleId } from '../control-tower-rules';

/**
 * CT.LAMBDA.PR.2 wants a service principal's permission to carry a SourceArn that cfn-guard can
 * read: a string or a reference to a resource of the template. API Gateway's permissions carry an
 * `Fn::Join` of this API's execute-api ARN, which the rule cannot read. This aspect reads it
 * instead, and acknowledges the finding on each permission whose SourceArn is this REST API's.
 */
class RestApiInvokePermissions implements IAspect {
  constructor(private readonly restApi: apigateway.RestApi) {}

  visit(node: IConstruct): void {
    if (!(node instanceof lambda.CfnPermission) || node.principal !== 'apigateway.amazonaws.com') return;
    const stack = Stack.of(node);
    const sourceArn = JSON.stringify(stack.resolve(node.sourceArn) ?? null);
    const restApiRef = JSON.stringify(stack.resolve(this.restApi.restApiId));
    if (!sourceArn.includes(':execute-api:') || !sourceArn.includes(restApiRef)) return;
    Validations.of(node).acknowledge({
      id: controlTowerRuleId('lambda_function_public_access_prohibited_check'),
      reason:
        'CT.LAMBDA.PR.2: the principal is apigateway.amazonaws.com and the SourceArn is this REST API’s ' +
        'execute-api ARN, written as an Fn::Join the guard rule cannot read; no other API or account can invoke it.',
    });
  }
}

export interface ControlTowerAcknowledgementsProps {
  readonly restApi: apigateway.RestApi;
  readonly logRetention: RetentionDays;
}

/**
 * The Control Tower findings that follow from the stack's design rather than from one resource
 * (docs/security.md lists every acknowledged finding): API Gateway's invoke permissions, checked
 * one by one, and the sandbox's log retention, which is a stage setting.
 */
export function acknowledgeControlTowerFindings(
  stack: Stack,
  props: ControlTowerAcknowledgementsProps,
): void {
  Aspects.of(stack).add(new RestApiInvokePermissions(props.restApi));
  if (props.logRetention < RetentionDays.ONE_YEAR) {
    Validations.of(stack).acknowledge({
      id: controlTowerRuleId('cloudwatch_log_group_retention_period_check'),
      reason:
        'CT.CLOUDWATCH.PR.2: this stage keeps its logs for less than a year by its settings. Its traffic is ' +
        'merchants’ tests with test cards; production, which carries real payments, keeps them a year.',
    });
  }
}
