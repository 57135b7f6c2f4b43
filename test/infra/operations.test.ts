import { readFileSync } from 'node:fs';
import type { Template } from 'aws-cdk-lib/assertions';
import { PCIDSS321Checks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { PipelineMetricNames } from '../../functions/delivery/pipeline-metric-names';
import { routeList, routesOfStage } from '../../functions/routes';
import { stageSettings } from '../../lib/constructs/stage-settings';
import { queueNames, stackName } from '../../lib/stack-name';
import { committedStageConfig } from '../../lib/stage-config';
import { dataKeyId, synthesized, templateOf } from './template';

const stages = Object.values(Stage);

beforeAll(() => {
  for (const stage of stages) synthesized(stage);
}, 60_000);

type CfnResource = { [key: string]: any };

/** Every alarm the stack defines, by the suffix after `MerchantPayments-<stage>-`. */
const expectedAlarms = [
  'api-5xx-rate',
  'api-latency-p99',
  'delivery-dlq-not-empty',
  'dispatcher-errors',
  'overdue-deliveries',
  'reconciler-errors',
  'reconciler-failures-not-empty',
  'router-errors',
  'router-failures-not-empty',
  'router-iterator-age',
  'table-system-errors',
  'table-throttles',
] as const;

function alarmsOf(stage: Stage): Map<string, CfnResource> {
  const alarms = Object.values(templateOf(stage).findResources('AWS::CloudWatch::Alarm'));
  return new Map(alarms.map((alarm) => [String(alarm.Properties.AlarmName), alarm]));
}

function alarm(stage: Stage, suffix: (typeof expectedAlarms)[number]): CfnResource {
  const found = alarmsOf(stage).get(`${stackName(stage)}-${suffix}`);
  if (found === undefined) throw new Error(`no alarm ${suffix} in ${stage}`);
  return found.Properties;
}

function onlyId(template: Template, type: string, props: CfnResource = {}): string {
  const ids = Object.keys(template.findResources(type, props));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

const topicId = (template: Template) => onlyId(template, 'AWS::SNS::Topic');

describe('alarms', () => {
  it.each(stages)('defines exactly the documented alarms in %s', (stage) => {
    expect([...alarmsOf(stage).keys()].sort()).toEqual(
      expectedAlarms.map((suffix) => `${stackName(stage)}-${suffix}`).sort(),
    );
  });

  it.each(stages)(
    'notifies the %s alarm topic from every alarm, when it goes off and when it clears',
    (stage) => {
      const template = templateOf(stage);
      const topic = { Ref: topicId(template) };
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

  it.each(stages)('alarms on the %s API 5xx rate and p99 latency at the stage’s thresholds', (stage) => {
    const thresholds = stageSettings[stage].alarmThresholds;
    expect(alarm(stage, 'api-5xx-rate')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      Dimensions: expect.arrayContaining([{ Name: 'ApiName', Value: `${stackName(stage)}-api` }]),
      Statistic: 'Average',
      Threshold: thresholds.api5xxRate,
      EvaluationPeriods: thresholds.apiEvaluationPeriods,
    });
    expect(alarm(stage, 'api-latency-p99')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Threshold: thresholds.apiP99LatencyMs,
    });
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

describe('alarm topic', () => {
  it.each(stages)('encrypts the %s topic with the data key and refuses publishing without TLS', (stage) => {
    const template = templateOf(stage);
    template.hasResourceProperties('AWS::SNS::Topic', {
      TopicName: `${stackName(stage)}-alarms`,
      KmsMasterKeyId: { 'Fn::GetAtt': [dataKeyId(template, stage), 'Arn'] },
    });
    const policy = Object.values(template.findResources('AWS::SNS::TopicPolicy'))[0] as CfnResource;
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
    const subscriptions = Object.values(template.findResources('AWS::SNS::Subscription')).map(
      (subscription) => subscription.Properties,
    );
    expect(subscriptions.map(({ Protocol, Endpoint }) => `${Protocol} ${Endpoint}`).sort()).toEqual(
      [...email.map((address) => `email ${address}`), ...https.map((url) => `https ${url}`)].sort(),
    );
    for (const subscription of subscriptions)
      expect(subscription.TopicArn).toEqual({ Ref: topicId(template) });
  });

  it('has production page someone by e-mail and through an HTTPS endpoint', () => {
    const protocols = Object.values(templateOf('production').findResources('AWS::SNS::Subscription')).map(
      (subscription) => subscription.Properties.Protocol,
    );
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
    for (const title of ['Requests by route', 'Errors by route', 'p99 duration by route', 'API latency']) {
      expect(body).toContain(title);
    }
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

  it.each(stages)('graphs the %s queues’ depth and age, and the table’s capacity and throttles', (stage) => {
    const body = bodyOf(stage);
    for (const metric of [
      'ApproximateNumberOfMessagesVisible',
      'ApproximateNumberOfMessagesDelayed',
      'ApproximateAgeOfOldestMessage',
      'IteratorAge',
      'ConsumedReadCapacityUnits',
      'ConsumedWriteCapacityUnits',
      'ThrottledRequests',
      'SystemErrors',
    ]) {
      expect(body).toContain(metric);
    }
  });
});

describe('tracing', () => {
  it.each(stages)('traces every %s function actively', (stage) => {
    const functions = Object.values(templateOf(stage).findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(30);
    for (const fn of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });

  it.each(stages)('traces the %s API stage', (stage) => {
    templateOf(stage).hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: stage,
      TracingEnabled: true,
    });
  });

  it('grants the X-Ray writes in one managed policy and nothing else in it', () => {
    const policies = Object.values(templateOf('sandbox').findResources('AWS::IAM::ManagedPolicy'));
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
      // One per function, the API's access and execution logs, and the web ACL's blocked requests.
      expect(logGroups.length).toBeGreaterThan(routesOfStage(routeList, stage).length + 4 + 2);
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

  it.each(stages)('has a section for every alarm the %s stack defines, and for no other', (stage) => {
    const headings = [...section('Alarms').matchAll(/^### `([a-z0-9-]+)`$/gm)].map((match) => match[1]);
    expect(headings.sort()).toEqual(stackAlarms(stage));
  });

  it.each(stages)('gives the threshold of every alarm the %s stack defines', (stage) => {
    const rows = [...section('Thresholds').matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((match) => match[1]);
    expect(rows.sort()).toEqual(stackAlarms(stage));
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
