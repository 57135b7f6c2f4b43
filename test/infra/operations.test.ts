import { readFileSync } from 'node:fs';
import { isDeepStrictEqual as isEqual } from 'node:util';
import type { Template } from 'aws-cdk-lib/assertions';
import { PCIDSS321Checks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { PipelineMetricNames } from '../../functions/delivery/pipeline-metric-names';
import { ProcessorMetricNames } from '../../functions/payments/processor-metric-names';
import { StripeEventMetricNames } from '../../functions/payments/stripe/stripe-event-metric-names';
import { routeList, routesOfStage } from '../../functions/routes';
import { AccessLogMetricNames } from '../../lib/constructs/access-log-metrics';
import { stageSettings } from '../../lib/constructs/stage-settings';
import { queueNames, stackName } from '../../lib/stack-name';
import { committedStageConfig } from '../../lib/stage-config';
import { missingFrom } from '../support/text-parts';
import { dataKeyId, synthesized, synthesizeEveryStageFirst, templateOf } from './template';

const stages = Object.values(Stage);

synthesizeEveryStageFirst();

type CfnResource = { [key: string]: any };

/** Every alarm both stacks define, by the suffix after `MerchantPayments-<stage>-`. */
const alarmsOfBothStages = [
  'account-concurrency',
  'api-5xx-rate',
  'api-latency-p99',
  'authorizer-failures',
  'critical-function-throttles',
  'delivery-dlq-not-empty',
  'delivery-queue-age',
  'dispatcher-errors',
  'mail-dlq-not-empty',
  'overdue-deliveries',
  'pay-route-5xx',
  'processor-errors',
  'reconciler-errors',
  'reconciler-failures-not-empty',
  'router-errors',
  'router-failures-not-empty',
  'rollout-errors',
  'router-iterator-age',
  'ses-events-failures-not-empty',
  'table-system-errors',
  'table-throttles',
  'waf-blocked-requests',
] as const;

/**
 * Alarms of one stage only: the sandbox's receivers are merchants' tests, it sends no email, so it
 * has no reputation to lose, and it has no Stripe webhook (docs/operations.md).
 */
const productionOnlyAlarms = [
  'email-bounce-rate',
  'email-complaint-rate',
  'stripe-events-late',
  'stripe-events-unknown',
  'stripe-signature-failures',
  'webhook-success-rate',
] as const;

type AlarmSuffix = (typeof alarmsOfBothStages)[number] | (typeof productionOnlyAlarms)[number];

const expectedAlarms = (stage: Stage): readonly AlarmSuffix[] =>
  stage === 'production' ? [...alarmsOfBothStages, ...productionOnlyAlarms] : alarmsOfBothStages;

function alarmsOf(stage: Stage): Map<string, CfnResource> {
  const alarms = Object.values(templateOf(stage).findResources('AWS::CloudWatch::Alarm'));
  return new Map(alarms.map((alarm) => [String(alarm.Properties.AlarmName), alarm]));
}

function alarm(stage: Stage, suffix: AlarmSuffix): CfnResource {
  const found = alarmsOf(stage).get(`${stackName(stage)}-${suffix}`);
  if (found === undefined) throw new Error(`no alarm ${suffix} in ${stage}`);
  return found.Properties;
}

/** The query of a math-expression alarm with this id. */
function query(properties: CfnResource, id: string): CfnResource {
  const found = (properties.Metrics as CfnResource[] | undefined)?.find((metric) => metric.Id === id);
  if (found === undefined) throw new Error(`no query ${id} in ${properties.AlarmName}`);
  return found;
}

/** The one expression a math-expression alarm watches. */
function watchedExpression(properties: CfnResource): string {
  const returned = (properties.Metrics as CfnResource[]).filter((metric) => metric.ReturnData !== false);
  expect(returned).toHaveLength(1);
  return returned[0]?.Expression;
}

function onlyId(template: Template, type: string, props: CfnResource = {}): string {
  const ids = Object.keys(template.findResources(type, props));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

/** The alarm topic; the other topic of the stack carries SES's email events. */
const topicId = (template: Template, stage: Stage) =>
  onlyId(template, 'AWS::SNS::Topic', { Properties: { TopicName: `${stackName(stage)}-alarms` } });

/** The subscriptions of the alarm topic. */
function alarmSubscriptions(stage: Stage): CfnResource[] {
  const template = templateOf(stage);
  return Object.values(template.findResources('AWS::SNS::Subscription'))
    .map((subscription) => subscription.Properties)
    .filter((subscription) => isEqual(subscription.TopicArn, { Ref: topicId(template, stage) }));
}

describe('alarms', () => {
  it.each(stages)('defines exactly the documented alarms in %s', (stage) => {
    expect([...alarmsOf(stage).keys()].sort()).toEqual(
      expectedAlarms(stage)
        .map((suffix) => `${stackName(stage)}-${suffix}`)
        .sort(),
    );
  });

  it.each(stages)(
    'notifies the %s alarm topic from every alarm, when it goes off and when it clears',
    (stage) => {
      const template = templateOf(stage);
      const topic = { Ref: topicId(template, stage) };
      for (const [name, found] of alarmsOf(stage)) {
        expect({ name, actions: found.Properties.AlarmActions }).toEqual({ name, actions: [topic] });
        expect({ name, actions: found.Properties.OKActions }).toEqual({ name, actions: [topic] });
        expect(found.Properties.AlarmDescription.length).toBeGreaterThan(30);
      }
    },
  );

  it.each(stages)('alarms on the first message in each %s dead-letter queue', (stage) => {
    const template = templateOf(stage);
    const names = queueNames(stackName(stage));
    const cases = [
      ['delivery-dlq-not-empty', names.deliveryDeadLetters],
      ['router-failures-not-empty', names.routerFailures],
      ['reconciler-failures-not-empty', names.reconcilerFailures],
      ['mail-dlq-not-empty', names.mailDeadLetters],
      ['ses-events-failures-not-empty', names.sesEventsFailures],
    ] as const;
    for (const [suffix, queueName] of cases) {
      const queueId = onlyId(template, 'AWS::SQS::Queue', { Properties: { QueueName: queueName } });
      expect(alarm(stage, suffix)).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
    }
  });

  it('sends failed reconciler runs and undeliverable schedule events to the reconciler failures queue', () => {
    const template = templateOf('sandbox');
    const failuresArn = {
      'Fn::GetAtt': [
        onlyId(template, 'AWS::SQS::Queue', {
          Properties: { QueueName: queueNames(stackName('sandbox')).reconcilerFailures },
        }),
        'Arn',
      ],
    };
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      DestinationConfig: { OnFailure: { Destination: failuresArn } },
    });
    const rule = Object.values(template.findResources('AWS::Events::Rule'))[0] as CfnResource;
    expect(rule.Properties.Targets[0].DeadLetterConfig).toEqual({ Arn: failuresArn });
  });

  it.each(stages)('alarms on the first router error in 5 minutes in %s', (stage) => {
    expect(alarm(stage, 'router-errors')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Period: 300,
      Statistic: 'Sum',
      Threshold: 1,
    });
  });

  it.each(stages)(
    'alarms in %s when the reconciler finds an overdue delivery or stops reporting',
    (stage) => {
      expect(alarm(stage, 'overdue-deliveries')).toMatchObject({
        Namespace: PipelineMetricNames.namespace,
        MetricName: PipelineMetricNames.overdueDeliveries,
        Dimensions: expect.arrayContaining([
          { Name: PipelineMetricNames.dimensions.service, Value: 'merchant-payments' },
          { Name: PipelineMetricNames.dimensions.stage, Value: stage },
        ]),
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'breaching',
        Period: 600,
      });
      expect(alarm(stage, 'overdue-deliveries').Dimensions).toHaveLength(2);
    },
  );

  /**
   * The `name` alarm of the `stage` API, checked to alarm above its `threshold` on M of N periods
   * and to stay quiet in periods with no data.
   */
  function apiAlarm(stage: Stage, name: AlarmSuffix, threshold: 'api5xxRate' | 'apiP99LatencyMs') {
    const thresholds = stageSettings[stage].alarmThresholds;
    const properties = alarm(stage, name);
    expect(properties).toMatchObject({
      Threshold: thresholds[threshold],
      ComparisonOperator: 'GreaterThanThreshold',
      DatapointsToAlarm: thresholds.apiEvaluation.datapointsToAlarm,
      EvaluationPeriods: thresholds.apiEvaluation.evaluationPeriods,
      TreatMissingData: 'notBreaching',
    });
    return properties;
  }

  it.each(stages)(
    'alarms on the %s API 5xx share, M of N periods, only in periods with enough requests',
    (stage) => {
      const { periodMinutes, minimumRequests } = stageSettings[stage].alarmThresholds.apiEvaluation;
      const properties = apiAlarm(stage, 'api-5xx-rate', 'api5xxRate');
      expect(watchedExpression(properties)).toBe(`IF(requests >= ${minimumRequests}, errors / requests, 0)`);
      const api = [{ Name: 'ApiName', Value: `${stackName(stage)}-api` }];
      expect(query(properties, 'requests').MetricStat).toEqual({
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: api },
        Period: periodMinutes * 60,
        Stat: 'Sum',
      });
      expect(query(properties, 'errors').MetricStat).toEqual({
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5XXError', Dimensions: api },
        Period: periodMinutes * 60,
        Stat: 'Sum',
      });
    },
  );

  it.each(stages)(
    'alarms on the %s API p99 latency, M of N periods, only in periods with enough requests',
    (stage) => {
      const { periodMinutes, minimumRequests } = stageSettings[stage].alarmThresholds.apiEvaluation;
      const properties = apiAlarm(stage, 'api-latency-p99', 'apiP99LatencyMs');
      expect(watchedExpression(properties)).toBe(`IF(requests >= ${minimumRequests}, latency, 0)`);
      expect(query(properties, 'latency').MetricStat).toMatchObject({
        Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Latency' },
        Period: periodMinutes * 60,
        Stat: 'p99',
      });
      expect(query(properties, 'requests').MetricStat).toMatchObject({
        Metric: { MetricName: 'Count' },
        Stat: 'Sum',
      });
    },
  );

  it('pages production on 3 bad minutes of 5, each with at least 50 requests', () => {
    expect(stageSettings.production.alarmThresholds.apiEvaluation).toEqual({
      periodMinutes: 1,
      datapointsToAlarm: 3,
      evaluationPeriods: 5,
      minimumRequests: 50,
    });
    for (const suffix of ['api-5xx-rate', 'api-latency-p99'] as const) {
      expect(alarm('production', suffix)).toMatchObject({ DatapointsToAlarm: 3, EvaluationPeriods: 5 });
    }
  });

  it('holds production to stricter API thresholds than the sandbox', () => {
    const { sandbox, production } = stageSettings;
    expect(production.alarmThresholds.api5xxRate).toBeLessThan(sandbox.alarmThresholds.api5xxRate);
    expect(production.alarmThresholds.apiP99LatencyMs).toBeLessThan(sandbox.alarmThresholds.apiP99LatencyMs);
    expect(alarm('production', 'api-5xx-rate').Threshold).not.toBe(
      alarm('sandbox', 'api-5xx-rate').Threshold,
    );
  });

  it.each(stages)(
    'alarms on table throttles and DynamoDB system errors of every operation in %s',
    (stage) => {
      for (const [suffix, metricName] of [
        ['table-throttles', 'ThrottledRequests'],
        ['table-system-errors', 'SystemErrors'],
      ] as const) {
        const metrics = alarm(stage, suffix).Metrics as CfnResource[];
        const operations = metrics
          .filter((metric) => metric.MetricStat?.Metric.MetricName === metricName)
          .map(
            (metric) =>
              metric.MetricStat.Metric.Dimensions.find((d: CfnResource) => d.Name === 'Operation').Value,
          );
        expect(operations).toEqual(
          expect.arrayContaining(['GetItem', 'Query', 'PutItem', 'UpdateItem', 'TransactWriteItems']),
        );
      }
      expect(alarm(stage, 'table-throttles').Threshold).toBe(
        stageSettings[stage].alarmThresholds.tableThrottledRequests,
      );
    },
  );
});

describe('alarms on what callers get and on Lambda capacity', () => {
  /** The one metric filter of the access log that writes `metricName`. */
  function metricFilter(stage: Stage, metricName: string): CfnResource {
    const filters = Object.values(templateOf(stage).findResources('AWS::Logs::MetricFilter')).filter(
      (filter) => filter.Properties.MetricTransformations[0].MetricName === metricName,
    );
    expect(filters).toHaveLength(1);
    return filters[0]?.Properties;
  }

  /** A count alarm on one plain metric: sum per 5 minutes, one period, no datapoint is healthy. */
  const countAlarm = (threshold: number) => ({
    Statistic: 'Sum',
    Period: 300,
    Threshold: threshold,
    ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    EvaluationPeriods: 1,
    TreatMissingData: 'notBreaching',
  });

  it.each(stages)('counts authorizer failures, never refused keys, from the %s access log', (stage) => {
    const filter = metricFilter(stage, AccessLogMetricNames.authorizerFailures);
    expect(filter).toEqual({
      LogGroupName: { Ref: expect.stringMatching(/^ApiAccessLogs/) },
      FilterPattern:
        '{ ($.errorResponseType = "AUTHORIZER_FAILURE") || ($.errorResponseType = "AUTHORIZER_CONFIGURATION_ERROR") }',
      MetricTransformations: [
        {
          MetricNamespace: 'MerchantPayments',
          MetricName: 'AuthorizerFailures',
          MetricValue: '1',
          Unit: 'Count',
          Dimensions: [{ Key: 'stage', Value: '$.stage' }],
        },
      ],
    });
    expect(filter.FilterPattern).not.toContain('UNAUTHORIZED');
    expect(alarm(stage, 'authorizer-failures')).toMatchObject({
      Namespace: 'MerchantPayments',
      MetricName: 'AuthorizerFailures',
      Dimensions: [{ Name: 'stage', Value: stage }],
      ...countAlarm(stageSettings[stage].alarmThresholds.authorizerFailures),
    });
  });

  it.each(stages)(
    'counts every 5xx of the %s pay routes, and of no merchant route, from the access log',
    (stage) => {
      const filter = metricFilter(stage, AccessLogMetricNames.payRouteServerErrors);
      // Stripe's webhook is no pay route: Stripe retries it, and it has alarms of its own.
      const payPaths = routesOfStage(routeList, stage)
        .filter((route) => route.access === 'public' && route.signedByProcessor === undefined)
        .map((route) => `($.resourcePath = "${route.path}")`);
      // The pay page's three and the portal's three: its page, its assets and the link's exchange.
      expect(payPaths).toHaveLength(6);
      expect(filter.FilterPattern).toBe(`{ ($.status = "5*") && (${payPaths.join(' || ')}) }`);
      // No wildcard on a path: `/pay*` would count the merchants' `/payments…` routes too.
      expect(filter.FilterPattern).not.toMatch(/resourcePath = "[^"]*\*"/);
      for (const route of routesOfStage(routeList, stage).filter(
        (route) => route.access !== 'public' || route.signedByProcessor !== undefined,
      )) {
        expect(filter.FilterPattern).not.toContain(`"${route.path}"`);
      }
      expect(filter.MetricTransformations[0].Dimensions).toEqual([{ Key: 'stage', Value: '$.stage' }]);
      expect(alarm(stage, 'pay-route-5xx')).toMatchObject({
        Namespace: 'MerchantPayments',
        MetricName: 'PayRouteServerErrors',
        Dimensions: [{ Name: 'stage', Value: stage }],
        ...countAlarm(stageSettings[stage].alarmThresholds.payRouteServerErrors),
      });
    },
  );

  it.each(stages)('logs the stage in every %s access log line, the filters’ dimension', (stage) => {
    const apiStage = Object.values(templateOf(stage).findResources('AWS::ApiGateway::Stage'))[0];
    expect(JSON.parse(apiStage?.Properties.AccessLogSetting.Format)).toMatchObject({
      stage: '$context.stage',
    });
    expect(JSON.stringify(apiStage?.Properties.AccessLogSetting.DestinationArn)).toMatch(/ApiAccessLogs/);
  });

  it.each(stages)(
    'alarms on the %s processor calls that got no answer, as the routes count them',
    (stage) => {
      expect(alarm(stage, 'processor-errors')).toMatchObject({
        Namespace: PipelineMetricNames.namespace,
        MetricName: ProcessorMetricNames.errors,
        Dimensions: [
          { Name: PipelineMetricNames.dimensions.service, Value: 'merchant-payments' },
          { Name: PipelineMetricNames.dimensions.stage, Value: stage },
        ],
        ...countAlarm(stageSettings[stage].alarmThresholds.processorErrors),
      });
    },
  );

  it('alarms in production on refused Stripe signatures, late events and unknown accounts or objects, as the webhook counts them', () => {
    const thresholds = stageSettings.production.alarmThresholds.stripeEvents;
    expect(thresholds).toBeDefined();
    const cases = [
      ['stripe-signature-failures', StripeEventMetricNames.signatureFailures, thresholds?.signatureFailures],
      ['stripe-events-late', StripeEventMetricNames.late, thresholds?.lateEvents],
      ['stripe-events-unknown', StripeEventMetricNames.unknown, thresholds?.unknownEvents],
    ] as const;
    for (const [suffix, metricName, threshold] of cases) {
      const properties = alarm('production', suffix);
      expect(properties).toMatchObject({
        Namespace: PipelineMetricNames.namespace,
        MetricName: metricName,
        // Exactly the dimensions Powertools writes: {service, stage}, nothing besides.
        Dimensions: [
          { Name: PipelineMetricNames.dimensions.service, Value: 'merchant-payments' },
          { Name: PipelineMetricNames.dimensions.stage, Value: 'production' },
        ],
        ...countAlarm(threshold as number),
      });
      expect(properties.AlarmDescription).toContain(String(threshold));
    }
    expect(thresholds).toEqual({ signatureFailures: 3, lateEvents: 1, unknownEvents: 1 });
    expect(alarm('production', 'stripe-events-late').AlarmDescription).toMatch(/15 minutes/);
    // The sandbox has no Stripe webhook and no threshold for one.
    expect(stageSettings.sandbox.alarmThresholds).not.toHaveProperty('stripeEvents');
    expect(routesOfStage(routeList, 'sandbox').map((route) => route.operationId)).not.toContain(
      'receiveStripeEvent',
    );
  });

  it.each(stages)(
    'alarms on the summed throttles of the %s authorizer, pay routes and pipeline functions',
    (stage) => {
      const template = templateOf(stage);
      const properties = alarm(stage, 'critical-function-throttles');
      expect(properties).toMatchObject({
        Threshold: stageSettings[stage].alarmThresholds.criticalFunctionThrottles,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
      const throttles = (properties.Metrics as CfnResource[]).filter(
        (metric) => metric.MetricStat !== undefined,
      );
      expect(watchedExpression(properties)).toBe(
        throttles.map((metric) => `FILL(${metric.Id}, 0)`).join(' + '),
      );
      const resources = template.toJSON().Resources as Record<string, CfnResource>;
      const names = throttles.map((metric) => {
        expect(metric.MetricStat).toMatchObject({
          Metric: { Namespace: 'AWS/Lambda', MetricName: 'Throttles' },
          Period: 300,
          Stat: 'Sum',
        });
        return resources[metric.MetricStat.Metric.Dimensions[0].Value.Ref]?.Properties.FunctionName;
      });
      expect(names.sort()).toEqual(
        [
          ...[
            'authorizer',
            'dispatcher',
            'getPayInvoice',
            // The stage's way of paying: the card form in the sandbox, Stripe's Checkout in production.
            stage === 'sandbox' ? 'payInvoice' : 'createCheckoutSession',
            'reconciler',
            'router',
            'servePayPage',
          ],
          ...['exchangePortalLink', 'servePortalAsset', 'servePortalPage'],
        ]
          .map((suffix) => `${stackName(stage)}-${suffix}`)
          .sort(),
      );
    },
  );

  it.each(stages)(
    'alarms when the account’s concurrency in the %s region nears the quota, 3 minutes of 5',
    (stage) => {
      const properties = alarm(stage, 'account-concurrency');
      expect(properties).toMatchObject({
        Namespace: 'AWS/Lambda',
        MetricName: 'ConcurrentExecutions',
        Statistic: 'Maximum',
        Period: 60,
        Threshold: stageSettings[stage].alarmThresholds.accountConcurrentExecutions,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        DatapointsToAlarm: 3,
        EvaluationPeriods: 5,
        TreatMissingData: 'notBreaching',
      });
      // No dimension: the account-wide series, which the quota applies to.
      expect(properties.Dimensions).toBeUndefined();
      expect(properties.Threshold).toBe(800);
    },
  );

  it.each(stages)('alarms on the requests every rule of the %s web ACL blocked', (stage) => {
    const template = templateOf(stage);
    const webAcl = Object.values(template.findResources('AWS::WAFv2::WebACL'))[0];
    expect(alarm(stage, 'waf-blocked-requests')).toMatchObject({
      Namespace: 'AWS/WAFV2',
      MetricName: 'BlockedRequests',
      Dimensions: expect.arrayContaining([
        { Name: 'WebACL', Value: webAcl?.Properties.VisibilityConfig.MetricName },
        { Name: 'Rule', Value: 'ALL' },
        // The stage file pins the region, so the dimension is the literal name.
        { Name: 'Region', Value: committedStageConfig(stage).env?.region },
      ]),
      ...countAlarm(stageSettings[stage].alarmThresholds.webAclBlockedRequests),
    });
    expect(alarm(stage, 'waf-blocked-requests').Dimensions).toHaveLength(3);
  });

  it.each(stages)('describes each %s alarm by what its metric counts', (stage) => {
    expect(alarm(stage, 'authorizer-failures').AlarmDescription).toMatch(/refused keys are not counted/);
    expect(alarm(stage, 'critical-function-throttles').AlarmDescription).toMatch(/throttled/);
    for (const [name, found] of alarmsOf(stage)) {
      // Lambda's Errors leaves throttled invocations out: an Errors alarm that says throttle misleads.
      if (found.Properties.MetricName === 'Errors') {
        expect({ name, description: found.Properties.AlarmDescription }).toEqual({
          name,
          description: expect.not.stringMatching(/throttl/i),
        });
      }
    }
  });
});

describe('alarm topic', () => {
  it.each(stages)('encrypts the %s topic with the data key and refuses publishing without TLS', (stage) => {
    const template = templateOf(stage);
    template.hasResourceProperties('AWS::SNS::Topic', {
      TopicName: `${stackName(stage)}-alarms`,
      KmsMasterKeyId: { 'Fn::GetAtt': [dataKeyId(template, stage), 'Arn'] },
    });
    const policy = Object.values(template.findResources('AWS::SNS::TopicPolicy')).find((candidate) =>
      isEqual(candidate.Properties.Topics, [{ Ref: topicId(template, stage) }]),
    ) as CfnResource;
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('lets CloudWatch alarms of this account encrypt notifications with the data key', () => {
    const template = templateOf('sandbox');
    const key = template.toJSON().Resources[dataKeyId(template, 'sandbox')] as CfnResource;
    expect(key.Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Principal: { Service: expect.arrayContaining(['cloudwatch.amazonaws.com']) },
        Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
        Condition: { StringEquals: { 'aws:SourceAccount': committedStageConfig('sandbox').env?.account } },
      }),
    );
  });

  it.each(stages)('subscribes every e-mail address and HTTPS endpoint of the %s stage file', (stage) => {
    const template = templateOf(stage);
    const { email, https } = committedStageConfig(stage).alarmSubscribers;
    const subscriptions = alarmSubscriptions(stage);
    expect(subscriptions.map(({ Protocol, Endpoint }) => `${Protocol} ${Endpoint}`).sort()).toEqual(
      [...email.map((address) => `email ${address}`), ...https.map((url) => `https ${url}`)].sort(),
    );
    // The stack's one other subscription is the SES events function's, to the email events topic.
    const others = Object.values(template.findResources('AWS::SNS::Subscription')).filter(
      (subscription) => !isEqual(subscription.Properties.TopicArn, { Ref: topicId(template, stage) }),
    );
    expect(others.map((subscription) => subscription.Properties.Protocol)).toEqual(['lambda']);
  });

  it('has production page someone by e-mail and through an HTTPS endpoint', () => {
    const protocols = alarmSubscriptions('production').map((subscription) => subscription.Protocol);
    expect(new Set(protocols)).toEqual(new Set(['email', 'https']));
  });
});

describe('dashboard', () => {
  const bodyOf = (stage: Stage): string => {
    const template = templateOf(stage);
    const dashboard = template.findResources('AWS::CloudWatch::Dashboard', {
      Properties: { DashboardName: stackName(stage) },
    });
    expect(Object.keys(dashboard)).toHaveLength(1);
    return JSON.stringify(
      template.toJSON().Resources[Object.keys(dashboard)[0] as string].Properties.DashboardBody,
    );
  };

  it.each(stages)('graphs requests, errors and latency of every %s route by its function', (stage) => {
    const body = bodyOf(stage);
    const titles = [
      'Requests by route',
      'Errors by route',
      'p99 duration by route',
      'API latency',
      '5xx answers by route',
    ];
    expect(missingFrom(body, titles)).toEqual([]);
    for (const route of routesOfStage(routeList, stage))
      expect(body).toContain(`"label\\":\\"${route.operationId}\\"`);
  });

  it.each(stages)(
    'graphs the %s deliveries attempted, succeeded, failed and exhausted, and the first-attempt lag',
    (stage) => {
      const body = bodyOf(stage);
      for (const metric of [
        PipelineMetricNames.attempts,
        PipelineMetricNames.succeeded,
        PipelineMetricNames.failedAttempts,
        PipelineMetricNames.exhausted,
        PipelineMetricNames.firstAttemptLag,
      ]) {
        expect(body).toContain(`\\"${PipelineMetricNames.namespace}\\",\\"${metric}\\"`);
      }
      expect(body).toContain(`\\"stage\\",\\"${stage}\\"`);
    },
  );

  it.each(stages)(
    'graphs the %s signals of the new alarms: authorizer, pay routes, processor, throttles, concurrency, WAF, webhook success',
    (stage) => {
      const body = bodyOf(stage);
      const metrics = [
        `\\"${PipelineMetricNames.namespace}\\",\\"${AccessLogMetricNames.authorizerFailures}\\"`,
        `\\"${PipelineMetricNames.namespace}\\",\\"${AccessLogMetricNames.payRouteServerErrors}\\"`,
        `\\"${PipelineMetricNames.namespace}\\",\\"${ProcessorMetricNames.errors}\\"`,
        `\\"${PipelineMetricNames.namespace}\\",\\"${ProcessorMetricNames.calls}\\"`,
        '\\"AWS/Lambda\\",\\"Throttles\\"',
        '\\"AWS/Lambda\\",\\"ConcurrentExecutions\\"',
        '\\"AWS/WAFV2\\",\\"BlockedRequests\\"',
        'FILL(succeeded, 0) / attempts',
      ];
      expect(missingFrom(body, metrics)).toEqual([]);
      // The threshold lines of the alarms whose metric a graph shows alone.
      const thresholds = stageSettings[stage].alarmThresholds;
      expect(body).toContain(`\\"value\\":${thresholds.accountConcurrentExecutions}`);
      expect(body).toContain(`\\"value\\":${thresholds.webAclBlockedRequests}`);
      expect(body.includes('webhook-success-rate alarm')).toBe(stage === 'production');
    },
  );

  it.each(stages)(
    'graphs Stripe’s refused signatures, late and unknown events where %s has its webhook',
    (stage) => {
      const body = bodyOf(stage);
      const graphed = Object.values(StripeEventMetricNames).filter((metric) =>
        body.includes(`\\"${PipelineMetricNames.namespace}\\",\\"${metric}\\"`),
      );
      expect(graphed).toEqual(stage === 'production' ? Object.values(StripeEventMetricNames) : []);
      expect(body.includes('\\"stat\\":\\"SampleCount\\"')).toBe(stage === 'production');
    },
  );

  it.each(stages)('graphs the %s queues’ depth and age, and the table’s capacity and throttles', (stage) => {
    const metrics = [
      'ApproximateNumberOfMessagesVisible',
      'ApproximateNumberOfMessagesDelayed',
      'ApproximateAgeOfOldestMessage',
      'IteratorAge',
      'ConsumedReadCapacityUnits',
      'ConsumedWriteCapacityUnits',
      'ThrottledRequests',
      'SystemErrors',
    ];
    expect(missingFrom(bodyOf(stage), metrics)).toEqual([]);
  });
});

describe('tracing', () => {
  /** The functions no API request reaches: the stream, the queue and the schedule invoke them. */
  const pipelineFunctions = ['router', 'dispatcher', 'reconciler', 'mailer', 'ses-events'];

  it.each(stages)(
    'traces the %s authorizer and routes as the API’s sampling rule decided, and the pipeline not at all',
    (stage) => {
      const functions = Object.values(templateOf(stage).findResources('AWS::Lambda::Function'));
      expect(functions.length).toBeGreaterThan(30);
      const pipeline = new Set(pipelineFunctions.map((suffix) => `${stackName(stage)}-${suffix}`));
      const modes = functions.map((fn) => ({
        name: fn.Properties.FunctionName as string,
        mode: fn.Properties.TracingConfig?.Mode as string | undefined,
      }));
      expect(modes.filter(({ name }) => pipeline.has(name))).toHaveLength(pipeline.size);
      expect(modes.find(({ name }) => name === `${stackName(stage)}-authorizer`)?.mode).toBe('Active');
      for (const { name, mode } of modes) {
        // Active follows the decision API Gateway sends; PassThrough traces only a sampled caller's
        // invocation, and a stream, a queue or a schedule samples nothing.
        expect({ name, mode }).toEqual({ name, mode: pipeline.has(name) ? 'PassThrough' : 'Active' });
      }
    },
  );

  it.each(stages)('samples the %s API stage with the stage file’s rule, scoped to that stage', (stage) => {
    const template = templateOf(stage);
    const { reservoirPerSecond, fixedRate } = committedStageConfig(stage).traceSampling;
    const rules = Object.values(template.findResources('AWS::XRay::SamplingRule'));
    expect(rules).toHaveLength(1);
    const rule = rules[0]?.Properties.SamplingRule as CfnResource;
    expect(rule).toMatchObject({
      RuleName: stackName(stage),
      ReservoirSize: reservoirPerSecond,
      FixedRate: fixedRate,
      ServiceName: `${stackName(stage)}-api/${stage}`,
      ServiceType: 'AWS::ApiGateway::Stage',
      Host: '*',
      HTTPMethod: '*',
      URLPath: '*',
      Version: 1,
    });
    // Before X-Ray's Default rule (priority 10000), which would otherwise decide.
    expect(rule.Priority).toBeLessThan(10_000);
    // The stage's own ARN: its API's id and its stage name.
    const restApiId = Object.keys(template.findResources('AWS::ApiGateway::RestApi'))[0];
    const stageId = Object.keys(template.findResources('AWS::ApiGateway::Stage'))[0];
    const arn = JSON.stringify(rule.ResourceARN);
    expect(arn).toContain(`{"Ref":"${restApiId}"}`);
    expect(arn).toContain(`{"Ref":"${stageId}"}`);
    expect(arn).toContain(':apigateway:');
  });

  it.each(stages)('traces the %s API stage', (stage) => {
    templateOf(stage).hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: stage,
      TracingEnabled: true,
    });
  });

  it('grants the X-Ray writes in one managed policy and nothing else in it', () => {
    // The other managed policy is the operators' (test/infra/operator-policy.test.ts), attached to no function.
    const policies = Object.values(templateOf('sandbox').findResources('AWS::IAM::ManagedPolicy')).filter(
      (policy) => policy.Properties.ManagedPolicyName !== 'merchant-payments-sandbox-operator',
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]?.Properties.PolicyDocument.Statement as CfnResource[];
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Resource: '*' });
    expect([...(statements[0]?.Action ?? [])].sort()).toEqual([
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
  });
});

describe('encryption and retention', () => {
  it.each(stages)('encrypts the %s table, its stream and backups with the data key', (stage) => {
    const template = templateOf(stage);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      SSESpecification: {
        SSEEnabled: true,
        SSEType: 'KMS',
        KMSMasterKeyId: { 'Fn::GetAtt': [dataKeyId(template, stage), 'Arn'] },
      },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it.each(stages)(
    'encrypts every %s log group with the data key and keeps it for the stage’s retention',
    (stage) => {
      const template = templateOf(stage);
      const logGroups = Object.values(template.findResources('AWS::Logs::LogGroup'));
      // The functions' one log group, the API's access and execution logs, the web ACL's blocked requests.
      expect(logGroups).toHaveLength(4);
      for (const logGroup of logGroups) {
        expect(logGroup.Properties.KmsKeyId).toEqual({ 'Fn::GetAtt': [dataKeyId(template, stage), 'Arn'] });
        expect(logGroup.Properties.RetentionInDays).toBe(stage === 'production' ? 365 : 30);
      }
    },
  );

  it('lets CloudWatch Logs use the data key only for log groups of this account and region', () => {
    const template = templateOf('production');
    const key = template.toJSON().Resources[dataKeyId(template, 'production')] as CfnResource;
    const statement = (key.Properties.KeyPolicy.Statement as CfnResource[]).find(
      (entry) => entry.Sid === 'CloudWatchLogsOfThisAccount',
    );
    expect(JSON.stringify(statement?.Principal)).toContain('logs.');
    expect(JSON.stringify(statement?.Condition.ArnLike)).toContain('kms:EncryptionContext:aws:logs:arn');
  });

  it.each(stages)(
    'logs only blocked requests of the %s web ACL, with the Authorization header redacted',
    (stage) => {
      const template = templateOf(stage);
      template.hasResourceProperties('AWS::WAFv2::LoggingConfiguration', {
        RedactedFields: [{ SingleHeader: { Name: 'authorization' } }],
        LoggingFilter: {
          DefaultBehavior: 'DROP',
          Filters: [{ Behavior: 'KEEP', Conditions: [{ ActionCondition: { Action: 'BLOCK' } }] }],
        },
      });
      template.hasResourceProperties('AWS::Logs::LogGroup', {
        LogGroupName: `aws-waf-logs-${stackName(stage)}-api`,
      });
    },
  );

  it('keeps deletion protection on the production table', () => {
    templateOf('production').hasResource('AWS::DynamoDB::Table', {
      Properties: { DeletionProtectionEnabled: true },
      DeletionPolicy: 'Retain',
    });
  });
});

describe('cdk-nag PCI DSS 3.2.1', () => {
  it.each(stages)('leaves no PCI DSS 3.2.1 violation unacknowledged in %s', (stage) => {
    const report = new PCIDSS321Checks().validateScope(synthesized(stage).stack);
    expect(report.violations).toEqual([]);
    expect(report.success).toBe(true);
  });
});

describe('docs/operations.md', () => {
  const runbook = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const section = (heading: string): string => {
    const start = runbook.indexOf(`\n## ${heading}\n`);
    expect(start).toBeGreaterThan(-1);
    const end = runbook.indexOf('\n## ', start + 1);
    return runbook.slice(start, end === -1 ? undefined : end);
  };
  const stackAlarms = (stage: Stage) =>
    [...alarmsOf(stage).keys()].map((name) => name.slice(`${stackName(stage)}-`.length)).sort();

  const alarmsOfEveryStage = () => [...new Set(stages.flatMap(stackAlarms))].sort();

  it('has a section for every alarm either stack defines, and for no other', () => {
    const headings = [...section('Alarms').matchAll(/^### `([a-z0-9-]+)`$/gm)].map((match) => match[1]);
    expect(headings.sort()).toEqual(alarmsOfEveryStage());
  });

  it('gives the threshold of every alarm either stack defines, and of no other', () => {
    const rows = [...section('Thresholds').matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((match) => match[1]);
    expect(rows.sort()).toEqual(alarmsOfEveryStage());
  });

  it.each(stages)('documents exactly the alarms the %s stack defines', (stage) => {
    expect(stackAlarms(stage)).toEqual([...expectedAlarms(stage)].sort());
  });

  it('says which alarm only production has, and says the first attempt goes without the queue’s delay', () => {
    expect(section('Thresholds')).toMatch(/^\| `webhook-success-rate` \|.*\| none \|/m);
    expect(runbook).not.toContain('about a minute: the queue');
  });

  it('starts new instances of exactly the production functions that read the Stripe secrets, moving the aliased ones', () => {
    const listed = (name: string) =>
      (new RegExp(`^${name}="([^"]*)"$`, 'm').exec(section('Rotating the Stripe secrets'))?.[1] ?? '')
        .split(' ')
        .sort();
    const prefix = `${stackName('production')}-`;
    const readers = Object.values(templateOf('production').findResources('AWS::Lambda::Function'))
      .filter((fn) => fn.Properties.Environment?.Variables?.STRIPE_SECRET_KEY_SECRET_NAME !== undefined)
      .map((fn) => String(fn.Properties.FunctionName).slice(prefix.length))
      .sort();
    expect(readers.length).toBeGreaterThan(0);
    expect(listed('stripeFunctions')).toEqual(readers);
    // The public routes roll out behind their `live` alias; a new version reaches them only through it.
    const aliased = routeList
      .filter((route) => readers.includes(route.operationId) && route.access === 'public')
      .map((route) => route.operationId)
      .sort();
    expect(listed('aliasedStripeFunctions')).toEqual(aliased);
  });

  it('says what each alarm means, how to confirm it and how to fix it', () => {
    const sections = section('Alarms').split(/^### /m).slice(1);
    for (const text of sections) {
      const name = text.slice(0, text.indexOf('\n'));
      expect({ name, means: text.includes('**Means:**') }).toEqual({ name, means: true });
      expect({ name, confirm: /\*\*Confirm( and fix)?:\*\*/.test(text) }).toEqual({ name, confirm: true });
      expect({ name, fix: /\*\*(Fix|Confirm and fix):\*\*/.test(text) }).toEqual({ name, fix: true });
    }
  });
});
