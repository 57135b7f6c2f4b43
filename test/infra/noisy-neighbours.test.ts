import type { Template } from 'aws-cdk-lib/assertions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { ErrorCode } from '../../functions/errors/error-code';
import { isPublic } from '../../functions/route-definition';
import { routeList, routes, routesOfStage } from '../../functions/routes';
import { apiKeyLimitedBody, managedRuleGroups } from '../../lib/constructs/public-routes-web-acl';
import { type StageSettings, settingsOf } from '../../lib/constructs/stage-settings';
import { reservedConcurrencyOf } from '../../lib/stack';
import { functionName, stackName } from '../../lib/stack-name';
import { committedStageConfig } from '../../lib/stage-config';
import { synthesized, synthesizeEveryStageFirst, templateOf } from './template';
import { type CfnResource, inScope, onlyResource, stagePath, webAclRule, webAclRules } from './web-acl';

const stages = Object.values(Stage);

synthesizeEveryStageFirst();

const publicRoutes = routeList.filter(isPublic);
const merchantRoutesOf = (stage: Stage) =>
  routesOfStage(routeList, stage).filter((route) => !isPublic(route));
const keyRule = (template: Template): CfnResource => webAclRule(template, 'MerchantRoutesPerApiKey');

describe('per-key ceiling', () => {
  it.each(stages)('counts the requests of %s per Authorization header, spacing and case folded', (stage) => {
    const { apiKeyCeiling } = settingsOf(stage, committedStageConfig(stage));
    expect(keyRule(templateOf(stage)).Statement.RateBasedStatement).toMatchObject({
      Limit: apiKeyCeiling.requests,
      EvaluationWindowSec: apiKeyCeiling.windowSeconds,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [
        {
          Header: {
            Name: 'authorization',
            TextTransformations: [
              { Priority: 0, Type: 'COMPRESS_WHITE_SPACE' },
              { Priority: 1, Type: 'LOWERCASE' },
            ],
          },
        },
      ],
    });
  });

  it.each(stages)('lets one key of %s take at most a fifth of the stage throttle', (stage) => {
    const { apiKeyCeiling, throttle } = settingsOf(stage, committedStageConfig(stage));
    expect(apiKeyCeiling.requests / apiKeyCeiling.windowSeconds).toBeLessThanOrEqual(throttle.rateLimit / 5);
  });

  it.each(stages)('counts every merchant route of %s and none of the pay routes', (stage) => {
    const scope = keyRule(templateOf(stage)).Statement.RateBasedStatement.ScopeDownStatement;
    for (const route of merchantRoutesOf(stage)) {
      expect(inScope(scope, stagePath(stage, route.path)), route.path).toBe(true);
      expect(inScope(scope, route.path.replace(/\{[^}]+\}/g, 'x1')), route.path).toBe(true);
    }
    for (const route of publicRoutes) {
      expect(inScope(scope, stagePath(stage, route.path)), route.path).toBe(false);
      expect(inScope(scope, route.path), route.path).toBe(false);
    }
  });

  it.each(stages)('answers a key of %s over its ceiling with 429 rate_limited and Retry-After', (stage) => {
    const template = templateOf(stage);
    const { CustomResponse } = keyRule(template).Action.Block;
    expect(CustomResponse).toMatchObject({
      ResponseCode: ErrorCode.rate_limited,
      ResponseHeaders: [
        {
          Name: 'Retry-After',
          Value: String(settingsOf(stage, committedStageConfig(stage)).apiKeyCeiling.windowSeconds),
        },
      ],
    });
    const { CustomResponseBodies } = onlyResource(template, 'AWS::WAFv2::WebACL').resource.Properties;
    const body = CustomResponseBodies[CustomResponse.CustomResponseBodyKey];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual(apiKeyLimitedBody);
    expect(apiKeyLimitedBody.error.code).toBe('rate_limited');
  });

  it('publishes its metric and samples nothing, since every request it sees carries an API key', () => {
    expect(keyRule(templateOf('production')).VisibilityConfig).toEqual({
      CloudWatchMetricsEnabled: true,
      SampledRequestsEnabled: false,
      MetricName: 'MerchantPayments-production-api-per-api-key',
    });
  });

  it.each(stages)('keeps the API key and the body out of whatever WAF stores in %s', (stage) => {
    const { DataProtectionConfig } = onlyResource(templateOf(stage), 'AWS::WAFv2::WebACL').resource
      .Properties;
    expect(DataProtectionConfig.DataProtections).toEqual([
      { Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['authorization'] }, Action: 'SUBSTITUTION' },
      { Field: { FieldType: 'BODY' }, Action: 'SUBSTITUTION' },
    ]);
    const { resource: logging } = onlyResource(templateOf(stage), 'AWS::WAFv2::LoggingConfiguration');
    expect(logging.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'authorization' } }]);
  });
});

describe('managed rule groups', () => {
  it.each(stages)('runs the three AWS groups in %s after both rate-based rules', (stage) => {
    const rules = webAclRules(templateOf(stage));
    expect(rules.map((rule) => [rule.Priority, rule.Name])).toEqual([
      [0, 'PayRoutesPerAddress'],
      [1, 'MerchantRoutesPerApiKey'],
      [2, 'AWSManagedRulesAmazonIpReputationList'],
      [3, 'AWSManagedRulesKnownBadInputsRuleSet'],
      [4, 'AWSManagedRulesCommonRuleSet'],
    ]);
    for (const group of managedRuleGroups) {
      const rule = webAclRule(templateOf(stage), group.name);
      expect(rule.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: group.name });
      // A group's own actions, not Count: a rule group whose override is Count blocks nothing.
      expect(rule.OverrideAction).toEqual({ None: {} });
      expect(rule.Action).toBeUndefined();
    }
  });

  it.each(stages)('evaluates them on the pay routes of %s only', (stage) => {
    for (const group of managedRuleGroups) {
      const scope = webAclRule(templateOf(stage), group.name).Statement.ManagedRuleGroupStatement
        .ScopeDownStatement;
      for (const route of publicRoutes) expect(inScope(scope, stagePath(stage, route.path))).toBe(true);
      for (const route of merchantRoutesOf(stage))
        expect(inScope(scope, stagePath(stage, route.path))).toBe(false);
    }
  });

  it('only counts the common rule set’s 8 KB body rule, and overrides nothing else', () => {
    const statementOf = (name: string) =>
      webAclRule(templateOf('production'), name).Statement.ManagedRuleGroupStatement;
    // WAF ignores an override with a wrong rule name without a word, so the name is pinned here.
    expect(statementOf('AWSManagedRulesCommonRuleSet').RuleActionOverrides).toEqual([
      { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
    ]);
    expect(statementOf('AWSManagedRulesKnownBadInputsRuleSet').RuleActionOverrides).toBeUndefined();
    expect(statementOf('AWSManagedRulesAmazonIpReputationList').RuleActionOverrides).toBeUndefined();
  });

  it('names each group’s metric after the web ACL and the group, and samples pay-route requests', () => {
    const metrics = managedRuleGroups.map(
      (group) => webAclRule(templateOf('production'), group.name).VisibilityConfig,
    );
    expect(metrics).toEqual(
      ['ip-reputation', 'known-bad-inputs', 'common-rule-set'].map((suffix) => ({
        CloudWatchMetricsEnabled: true,
        SampledRequestsEnabled: true,
        MetricName: `MerchantPayments-production-api-${suffix}`,
      })),
    );
  });

  it('exposes every rule’s metric name for alarms and the dashboard', () => {
    const { stack } = synthesized('sandbox');
    const names = stack.api.webAcl.metricNames;
    expect(Object.values(names).sort()).toEqual(
      webAclRules(templateOf('sandbox'))
        .map((rule) => rule.VisibilityConfig.MetricName)
        .sort(),
    );
  });
});

/** The reserved concurrency of the function a construct's `lambda.Function` becomes in the template. */
function reservedOf(template: Template, stackFunction: lambda.Function): number | undefined {
  const cfn = stackFunction.node.defaultChild as lambda.CfnFunction;
  return template.toJSON().Resources[cfn.stack.getLogicalId(cfn)].Properties.ReservedConcurrentExecutions;
}

/** The function of that physical name, as it is in the template. */
function functionNamed(template: Template, name: string): CfnResource {
  const matches = Object.values(
    template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: name } }),
  );
  expect(matches).toHaveLength(1);
  return matches[0] as CfnResource;
}

describe('reserved concurrency', () => {
  it.each(stages)('reserves the authorizer’s concurrency in %s', (stage) => {
    const authorizer = functionNamed(templateOf(stage), functionName(stackName(stage), 'authorizer'));
    expect(authorizer.Properties.ReservedConcurrentExecutions).toBe(
      settingsOf(stage, committedStageConfig(stage)).reservedConcurrency.authorizer,
    );
  });

  it.each(stages)('reserves each pay route’s concurrency in %s, and none for merchant routes', (stage) => {
    const { stack, template } = synthesized(stage);
    const reservedByRoute = settingsOf(stage, committedStageConfig(stage)).reservedConcurrency.publicRoutes;
    for (const route of routesOfStage(publicRoutes, stage)) {
      const fn = stack.routeFunctions.get(route.operationId)?.function;
      expect(fn, route.operationId).toBeDefined();
      expect(reservedOf(template, fn as lambda.Function), route.operationId).toBe(
        reservedByRoute[route.operationId as keyof typeof reservedByRoute],
      );
    }
    for (const route of merchantRoutesOf(stage)) {
      const fn = stack.routeFunctions.get(route.operationId)?.function as lambda.Function;
      expect(reservedOf(template, fn), route.operationId).toBeUndefined();
    }
  });

  it('reserves enough for each pay route to serve its own throttle at 50 ms a request', () => {
    for (const stage of stages) {
      const { publicRouteThrottle, reservedConcurrency } = settingsOf(stage, committedStageConfig(stage));
      for (const reserved of Object.values(reservedConcurrency.publicRoutes))
        expect(reserved).toBeGreaterThanOrEqual(publicRouteThrottle.rateLimit * 0.05);
      expect(reservedConcurrency.authorizer).toBeGreaterThanOrEqual(
        settingsOf(stage, committedStageConfig(stage)).throttle.rateLimit * 0.05,
      );
    }
  });

  it('leaves most of a default 1000 account pool to every other function, with both stages in one account', () => {
    const reserved = stages.flatMap((stage) =>
      Object.values(templateOf(stage).findResources('AWS::Lambda::Function')).map(
        (fn) => (fn.Properties.ReservedConcurrentExecutions as number | undefined) ?? 0,
      ),
    );
    const total = reserved.reduce((sum, value) => sum + value, 0);
    expect(total).toBeGreaterThan(0);
    // Lambda refuses a reservation that leaves fewer than 100 unreserved; keep far more than that.
    expect(total).toBeLessThanOrEqual(200);
  });

  it('refuses a public route without a reserved concurrency in the stage settings', () => {
    const settings = {
      ...settingsOf('sandbox', committedStageConfig('sandbox')),
      reservedConcurrency: { authorizer: 10, publicRoutes: {} },
    } as unknown as StageSettings;
    expect(() => reservedConcurrencyOf(routes.payInvoice, settings)).toThrow(
      /payInvoice has no reserved concurrency/,
    );
    expect(reservedConcurrencyOf(routes.listProducts, settings)).toEqual({});
  });
});
