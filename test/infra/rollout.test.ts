import { Match, type Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { isPublic } from '../../functions/route-definition';
import { routeList, routesOfStage } from '../../functions/routes';
import { stackName } from '../../lib/stack-name';
import { liveAliasId, resourcePaths, synthesizeEveryStageFirst, templateOf } from './template';

const stages = Object.values(Stage);

synthesizeEveryStageFirst();

type CfnResource = { [key: string]: any };

/** Name suffixes of the functions a bad deploy would hurt most: they roll out behind an alias. */
const rolledOutSuffixes = (stage: Stage): string[] => [
  'authorizer',
  ...routesOfStage(routeList, stage)
    .filter(isPublic)
    .map((route) => route.operationId),
  'router',
  'dispatcher',
];

function functionIdNamed(template: Template, name: string): string {
  const ids = Object.keys(
    template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: name } }),
  );
  if (ids.length !== 1) throw new Error(`${ids.length} functions named ${name}`);
  return ids[0] as string;
}

const expectedConfig = {
  production: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
  sandbox: 'CodeDeployDefault.LambdaAllAtOnce',
} as const satisfies Record<Stage, string>;

function rolloutAlarm(template: Template, stage: Stage): [string, CfnResource] {
  const alarms = Object.entries(
    template.findResources('AWS::CloudWatch::Alarm', {
      Properties: { AlarmName: `${stackName(stage)}-rollout-errors` },
    }),
  );
  expect(alarms).toHaveLength(1);
  return alarms[0] as [string, CfnResource];
}

describe.each(stages)('safe rollout in %s', (stage) => {
  it('gives each critical function a live alias on its current version and a deployment group', () => {
    const template = templateOf(stage);
    const groups = Object.values(template.findResources('AWS::CodeDeploy::DeploymentGroup'));
    const [alarmId] = rolloutAlarm(template, stage);
    expect(groups).toHaveLength(rolledOutSuffixes(stage).length);
    for (const suffix of rolledOutSuffixes(stage)) {
      const functionId = functionIdNamed(template, `${stackName(stage)}-${suffix}`);
      const aliasId = liveAliasId(template, functionId);
      const alias = template.toJSON().Resources[aliasId] as CfnResource;
      // The alias points at a version of this very function, and CloudFormation hands its moves
      // to CodeDeploy through the update policy.
      const versionId = alias.Properties.FunctionVersion['Fn::GetAtt'][0] as string;
      expect(template.toJSON().Resources[versionId]).toMatchObject({
        Type: 'AWS::Lambda::Version',
        Properties: { FunctionName: { Ref: functionId } },
      });
      const group = alias.UpdatePolicy.CodeDeployLambdaAliasUpdate.DeploymentGroupName.Ref as string;
      expect({ suffix, group: template.toJSON().Resources[group] }).toMatchObject({
        suffix,
        group: {
          Type: 'AWS::CodeDeploy::DeploymentGroup',
          Properties: {
            DeploymentConfigName: expectedConfig[stage],
            AlarmConfiguration: { Enabled: true, Alarms: [{ Name: { Ref: alarmId } }] },
            AutoRollbackConfiguration: {
              Enabled: true,
              Events: expect.arrayContaining([
                'DEPLOYMENT_FAILURE',
                'DEPLOYMENT_STOP_ON_REQUEST',
                'DEPLOYMENT_STOP_ON_ALARM',
              ]),
            },
          },
        },
      });
    }
  });

  it('rolls back on the errors of every rolled-out alias, from the first one in a minute', () => {
    const template = templateOf(stage);
    const [, alarm] = rolloutAlarm(template, stage);
    const { Metrics, Threshold, EvaluationPeriods, ComparisonOperator, TreatMissingData } = alarm.Properties;
    expect({ Threshold, EvaluationPeriods, ComparisonOperator, TreatMissingData }).toEqual({
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const inputs = (Metrics as CfnResource[]).filter((metric) => metric.MetricStat !== undefined);
    const expression = (Metrics as CfnResource[]).find((metric) => metric.Expression !== undefined);
    expect(expression?.Expression).toBe(`SUM([${inputs.map((metric) => metric.Id).join(', ')}])`);
    const resources = inputs.map((metric) => {
      const { MetricName, Dimensions } = metric.MetricStat.Metric;
      expect({ MetricName, Stat: metric.MetricStat.Stat, Period: metric.MetricStat.Period }).toEqual({
        MetricName: 'Errors',
        Stat: 'Sum',
        Period: 60,
      });
      return JSON.stringify(Dimensions.find((dimension: CfnResource) => dimension.Name === 'Resource').Value);
    });
    // Lambda reports an alias's own invocations under the dimension `Resource: <function>:<alias>`.
    const expected = rolledOutSuffixes(stage).map((suffix) =>
      JSON.stringify({
        'Fn::Join': ['', [{ Ref: functionIdNamed(template, `${stackName(stage)}-${suffix}`) }, ':live']],
      }),
    );
    expect(resources.sort()).toEqual(expected.sort());
  });

  it('has API Gateway call the pay routes through their alias and the merchant routes directly', () => {
    const template = templateOf(stage);
    const paths = resourcePaths(template);
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method'));
    const routes = routesOfStage(routeList, stage);
    for (const route of routes) {
      const method = methods.find(
        (candidate) =>
          candidate.Properties.HttpMethod === route.method &&
          paths.get(candidate.Properties.ResourceId.Ref ?? '') === route.path,
      );
      const functionId = functionIdNamed(template, `${stackName(stage)}-${route.operationId}`);
      const uri = JSON.stringify(method?.Properties.Integration.Uri);
      if (isPublic(route)) {
        expect({ route: route.path, uri }).toEqual({
          route: route.path,
          uri: expect.stringContaining(`{"Ref":"${liveAliasId(template, functionId)}"}`),
        });
      } else {
        expect({ route: route.path, uri }).toEqual({
          route: route.path,
          uri: expect.stringContaining(`"${functionId}","Arn"`),
        });
      }
    }
  });

  it('has API Gateway invoke exactly the authorizer and each route’s target, as a role only it assumes', () => {
    const template = templateOf(stage);
    const roles = Object.entries(
      template.findResources('AWS::IAM::Role', {
        Properties: {
          AssumeRolePolicyDocument: {
            Statement: [
              {
                Action: 'sts:AssumeRole',
                Effect: 'Allow',
                Principal: { Service: 'apigateway.amazonaws.com' },
              },
            ],
          },
          Policies: Match.anyValue(),
        },
      }),
    );
    expect(roles).toHaveLength(1);
    const [roleId, role] = roles[0] as [string, CfnResource];
    const credentials = { 'Fn::GetAtt': [roleId, 'Arn'] };
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method'));
    expect(methods).toHaveLength(routesOfStage(routeList, stage).length);
    for (const method of methods) expect(method.Properties.Integration.Credentials).toEqual(credentials);
    const [authorizer] = Object.values(template.findResources('AWS::ApiGateway::Authorizer'));
    expect(authorizer?.Properties.AuthorizerCredentials).toEqual(credentials);
    // The live alias of a rolled-out function, the function itself otherwise: no other version or alias.
    const targetOf = (suffix: string, rolledOut: boolean) => {
      const functionId = functionIdNamed(template, `${stackName(stage)}-${suffix}`);
      return rolledOut ? { Ref: liveAliasId(template, functionId) } : { 'Fn::GetAtt': [functionId, 'Arn'] };
    };
    const expected = [
      targetOf('authorizer', true),
      ...routesOfStage(routeList, stage).map((route) => targetOf(route.operationId, isPublic(route))),
    ];
    expect(role.Properties.Policies).toEqual([
      {
        PolicyName: 'Invoke',
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: expect.any(Array) }],
        },
      },
    ]);
    const resources = role.Properties.Policies[0].PolicyDocument.Statement[0].Resource as unknown[];
    expect(resources.map((arn) => JSON.stringify(arn)).sort()).toEqual(
      expected.map((arn) => JSON.stringify(arn)).sort(),
    );
  });
});
