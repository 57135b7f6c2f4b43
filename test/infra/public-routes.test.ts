import { Stack, Validations } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { isPublic } from '../../functions/route-definition';
import { routeList, routes, routesOfStage } from '../../functions/routes';
import { gatewayErrorResponses } from '../../lib/constructs/gateway-responses';
import { PaymentsApi } from '../../lib/constructs/payments-api';
import { publicRateLimit } from '../../lib/constructs/public-rate-limit';
import { rateLimitedBody } from '../../lib/constructs/public-routes-web-acl';
import { settingsOf } from '../../lib/constructs/stage-settings';
import { committedStageConfig } from '../../lib/stage-config';
import { readLocalSettings } from '../../tools/local/settings';
import { resourcePaths, synthesized, synthesizeEveryStageFirst, templateOf, testApp } from './template';
import { type CfnResource, inScope, onlyResource, stagePath, webAclRule } from './web-acl';

const stages = Object.values(Stage);

synthesizeEveryStageFirst();

const publicRoutes = routeList.filter(isPublic);

/** `METHOD /path` of each public route `stage` serves. */
function publicRouteKeys(stage: Stage): string[] {
  return routesOfStage(publicRoutes, stage)
    .map((route) => `${route.method} ${route.path}`)
    .sort();
}

interface DeployedMethod {
  readonly key: string;
  readonly properties: CfnResource;
}

/** Every API Gateway method of the template as `METHOD /path` with its properties. */
function deployedMethods(template: Template): DeployedMethod[] {
  const paths = resourcePaths(template);
  return Object.values(template.findResources('AWS::ApiGateway::Method')).map((method) => ({
    key: `${method.Properties.HttpMethod} ${paths.get(method.Properties.ResourceId.Ref)}`,
    properties: method.Properties,
  }));
}

/** The per-address rate-based rule of the pay routes. */
const rateRule = (template: Template): CfnResource => webAclRule(template, 'PayRoutesPerAddress');

describe('public routes', () => {
  const payAndPortal = [
    'exchangePortalLink',
    'getPayInvoice',
    'servePayPage',
    'servePortalAsset',
    'servePortalPage',
  ];

  it.each([
    ['sandbox', [...payAndPortal, 'payInvoice'].sort()],
    ['production', [...payAndPortal, 'createCheckoutSession', 'receiveStripeEvent'].sort()],
  ] as const)(
    'serves the pay page, its invoice and its way of paying (the card form in the sandbox, Stripe’s Checkout in production), the portal page, its assets and its link exchange in %s, and Stripe’s webhook in production',
    (stage, expected) => {
      expect(
        routesOfStage(routeList, stage)
          .filter(isPublic)
          .map((route) => route.operationId)
          .sort(),
      ).toEqual(expected);
    },
  );

  it.each(stages)('leaves exactly the public methods of %s without authorization', (stage) => {
    const open = deployedMethods(templateOf(stage)).filter(
      (method) => method.properties.AuthorizationType === 'NONE',
    );
    expect(open.map((method) => method.key).sort()).toEqual(publicRouteKeys(stage));
    for (const method of open) expect(method.properties.AuthorizerId).toBeUndefined();
  });

  it.each(stages)('keeps the bearer-key authorizer on every other method of %s', (stage) => {
    const template = templateOf(stage);
    const { id: authorizerId } = onlyResource(template, 'AWS::ApiGateway::Authorizer');
    const others = deployedMethods(template).filter((method) => !publicRouteKeys(stage).includes(method.key));
    expect(others).toHaveLength(routesOfStage(routeList, stage).length - publicRouteKeys(stage).length);
    for (const method of others) {
      expect(method.properties.AuthorizationType).toBe('CUSTOM');
      expect(method.properties.AuthorizerId).toEqual({ Ref: authorizerId });
    }
  });

  it('acknowledges AwsSolutions-APIG4 on the public methods only, with the pay-link reason', () => {
    const { stack } = synthesized('production');
    const acknowledgedOn = (ruleId: string) =>
      stack.node
        .findAll()
        .filter((construct) =>
          construct.node.metadata.some(
            (entry) =>
              entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY &&
              Object.keys(entry.data as Record<string, string>).some(
                (id) => id.replace(/^annotation::/i, '') === ruleId,
              ),
          ),
        );
    const apig4 = acknowledgedOn('AwsSolutions-APIG4');
    for (const construct of apig4) expect(construct).toBeInstanceOf(apigateway.Method);
    const keys = (apig4 as apigateway.Method[]).map(
      (method) => `${method.httpMethod} ${method.resource.path}`,
    );
    expect(keys.sort()).toEqual(publicRouteKeys('production'));
    for (const method of apig4 as apigateway.Method[]) {
      const reasons = method.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((entry) => Object.values(entry.data as Record<string, string>));
      const expected =
        method.resource.path === routes.receiveStripeEvent.path
          ? /public by design.*Stripe's signature.*rate-limited/s
          : /public by design.*slug.*rate-limited/s;
      for (const reason of reasons) expect(reason).toMatch(expected);
    }
  });
});

describe('public route throttling', () => {
  it.each(stages)('throttles each public method of %s on its own, below the stage default', (stage) => {
    const { throttle, publicRouteThrottle } = committedStageConfig(stage);
    expect(publicRouteThrottle.rateLimit).toBeLessThan(throttle.rateLimit);
    expect(publicRouteThrottle.burstLimit).toBeLessThan(throttle.burstLimit);
    const { MethodSettings } = onlyResource(templateOf(stage), 'AWS::ApiGateway::Stage').resource.Properties;
    const overrides = (MethodSettings as CfnResource[]).filter((setting) => setting.ResourcePath !== '/*');
    // ResourcePath is `/` followed by the resource path with each `/` escaped as `~1`.
    expect(
      overrides
        .map((setting) => `${setting.HttpMethod} ${setting.ResourcePath.slice(1).replaceAll('~1', '/')}`)
        .sort(),
    ).toEqual(publicRouteKeys(stage));
    for (const setting of overrides) {
      expect(setting).toMatchObject({
        ThrottlingRateLimit: publicRouteThrottle.rateLimit,
        ThrottlingBurstLimit: publicRouteThrottle.burstLimit,
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
      });
    }
  });

  it('refuses to open a public route the stage was not told to throttle', () => {
    const stack = new Stack(testApp(), 'Probe');
    const handler = lambda.Function.fromFunctionArn(
      stack,
      'Handler',
      'arn:aws:lambda:us-east-1:123456789012:function:probe',
    );
    const api = new PaymentsApi(stack, 'Api', {
      stage: 'sandbox',
      settings: settingsOf('sandbox', committedStageConfig('sandbox')),
      authorizerFunction: handler,
      routes: [],
      logEncryptionKey: new kms.Key(stack, 'LogKey'),
    });
    expect(() => api.addRoute(routes.payInvoice, handler)).toThrow(/POST \/pay\/payments.*no throttle/);
  });

  it('answers API Gateway throttling with 429 rate_limited, the web ACL code', () => {
    const throttled = gatewayErrorResponses.find(
      (response) => response.type === apigateway.ResponseType.THROTTLED,
    );
    expect(throttled).toMatchObject({ statusCode: '429', code: rateLimitedBody.error.code });
  });
});

describe('web ACL', () => {
  it('allows 100 requests per address in each 60-second window, as the local gateway does', () => {
    expect(publicRateLimit).toEqual({ requests: 100, windowSeconds: 60 });
    const perMinute = (publicRateLimit.requests * 60) / publicRateLimit.windowSeconds;
    expect(readLocalSettings({}).PUBLIC_RATE_LIMIT_PER_MINUTE).toBe(perMinute);
  });

  it.each(stages)('associates a regional web ACL that allows by default with the %s API stage', (stage) => {
    const template = templateOf(stage);
    const { id: webAclId, resource: webAcl } = onlyResource(template, 'AWS::WAFv2::WebACL');
    expect(webAcl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });

    const { id: restApiId } = onlyResource(template, 'AWS::ApiGateway::RestApi');
    const { id: stageId } = onlyResource(template, 'AWS::ApiGateway::Stage');
    const { resource: association } = onlyResource(template, 'AWS::WAFv2::WebACLAssociation');
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [webAclId, 'Arn'] });
    expect(association.Properties.ResourceArn).toEqual({
      'Fn::Join': [
        '',
        [
          // The stage file pins the region, so the stack writes it, and its partition, as they are.
          `arn:aws:apigateway:${committedStageConfig(stage).env?.region}::/restapis/`,
          { Ref: restApiId },
          '/stages/',
          { Ref: stageId },
        ],
      ],
    });
  });

  it.each(stages)('blocks a %s address over the limit per IP with one rate-based rule', (stage) => {
    const rule = rateRule(templateOf(stage));
    expect(rule.Statement.RateBasedStatement).toMatchObject({
      Limit: 100,
      EvaluationWindowSec: 60,
      AggregateKeyType: 'IP',
    });
    expect(rule.Action.Block.CustomResponse).toMatchObject({
      ResponseCode: 429,
      ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }],
    });
  });

  it('answers a blocked request with 429 and a JSON body in the API error shape', () => {
    const template = templateOf('sandbox');
    const { CustomResponseBodies } = onlyResource(template, 'AWS::WAFv2::WebACL').resource.Properties;
    const body = CustomResponseBodies[rateRule(template).Action.Block.CustomResponse.CustomResponseBodyKey];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({
      error: { code: 'rate_limited', message: 'Too many requests, try again later.' },
    });
  });

  it.each(stages)('counts requests to the public routes of %s and to no merchant route', (stage) => {
    const scope = rateRule(templateOf(stage)).Statement.RateBasedStatement.ScopeDownStatement;
    for (const route of publicRoutes) {
      expect(inScope(scope, stagePath(stage, route.path))).toBe(true);
      // Behind a custom domain the stage is not part of the path.
      expect(inScope(scope, route.path)).toBe(true);
    }
    expect(inScope(scope, `/${stage}/pay/`)).toBe(true);
    for (const route of routesOfStage(routeList, stage).filter((route) => !isPublic(route)))
      expect(inScope(scope, stagePath(stage, route.path))).toBe(false);
    // `/payments` starts with `/pay` but is the merchants' own API.
    expect(inScope(scope, `/${stage}/payments`)).toBe(false);
    expect(inScope(scope, `/${stage}/payments/pmt_1/refunds`)).toBe(false);
  });

  it('decodes and normalizes the path before matching, so `//` or `%70` evades nothing', () => {
    const scope = rateRule(templateOf('sandbox')).Statement.RateBasedStatement.ScopeDownStatement;
    for (const statement of scope.OrStatement.Statements as CfnResource[]) {
      expect(statement.ByteMatchStatement.TextTransformations).toEqual([
        { Priority: 0, Type: 'URL_DECODE' },
        { Priority: 1, Type: 'NORMALIZE_PATH' },
      ]);
    }
  });

  it('publishes metrics for the ACL and the rule, and samples only the rule, where no API key travels', () => {
    const template = templateOf('production');
    const { VisibilityConfig } = onlyResource(template, 'AWS::WAFv2::WebACL').resource.Properties;
    expect(VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: false });
    expect(rateRule(template).VisibilityConfig).toEqual({
      CloudWatchMetricsEnabled: true,
      SampledRequestsEnabled: true,
      MetricName: 'MerchantPayments-production-api-pay-per-address',
    });
  });
});
