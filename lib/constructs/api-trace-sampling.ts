import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as xray from 'aws-cdk-lib/aws-xray';
import { Construct } from 'constructs';
import type { TraceSampling } from '../stage-config';

/** X-Ray caps a sampling rule's name at 32 characters. */
const maxRuleNameLength = 32;

/**
 * Before X-Ray's `Default` rule (10000), which traces one request a second and 5 % of the rest of
 * everything in the account that has no rule of its own.
 */
export const apiSamplingRulePriority = 1000;

export interface ApiTraceSamplingProps {
  /** Unique in the account and region: the stack's name. */
  readonly ruleName: string;
  /** The API's name, as X-Ray names the stage's service (`<api name>/<stage>`). */
  readonly restApiName: string;
  /** The stage the rule samples; its name as a literal, since X-Ray matches the service name on it. */
  readonly stage: apigateway.Stage;
  readonly stageName: string;
  /** The stage file's `traceSampling`. */
  readonly sampling: TraceSampling;
}

/**
 * The stage's X-Ray sampling rule. API Gateway asks X-Ray which rule a request matches and traces
 * it or not; the authorizer and the route's function follow that decision, so this rule alone sets
 * how many of the stage's requests are traced. Scoped to this stage's ARN and service name, so
 * another stage in the same account keeps its own (docs/operations.md#tracing).
 */
export class ApiTraceSampling extends Construct {
  readonly rule: xray.CfnSamplingRule;

  constructor(scope: Construct, id: string, props: ApiTraceSamplingProps) {
    super(scope, id);
    if (props.ruleName.length > maxRuleNameLength) {
      throw new Error(
        `X-Ray sampling rule name ${props.ruleName} is longer than ${maxRuleNameLength} characters; shorten the stack name`,
      );
    }
    this.rule = new xray.CfnSamplingRule(this, 'Rule', {
      samplingRule: {
        ruleName: props.ruleName,
        priority: apiSamplingRulePriority,
        reservoirSize: props.sampling.reservoirPerSecond,
        fixedRate: props.sampling.fixedRate,
        serviceName: `${props.restApiName}/${props.stageName}`,
        serviceType: 'AWS::ApiGateway::Stage',
        resourceArn: props.stage.stageArn,
        host: '*',
        httpMethod: '*',
        urlPath: '*',
        version: 1,
      },
    });
  }
}
