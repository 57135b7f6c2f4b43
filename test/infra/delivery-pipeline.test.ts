import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { PipelineMetricNames } from '../../functions/delivery/pipeline-metric-names';
import { routedEntityTypes } from '../../functions/delivery/router';
import { EntityType } from '../../functions/store/keys';
import { deliveryQueueAge, dispatcherQueue, routerStream } from '../../lib/constructs/delivery-pipeline';
import { stageSettings } from '../../lib/constructs/stage-settings';
import { queueNames, stackName } from '../../lib/stack-name';
import { dataKeyId, liveAliasId, secretsKeyId, synthesisTimeoutMs, templateOf } from './template';

const stages = Object.values(Stage);

// Both stages are synthesized once, up front (see stack.test.ts).
beforeAll(() => {
  for (const stage of stages) templateOf(stage);
}, synthesisTimeoutMs);

type CfnResource = { [key: string]: any };

const functionName = (name: 'router' | 'dispatcher' | 'reconciler', stage: Stage = 'sandbox') =>
  `MerchantPayments-${stage}-${name}`;

function onlyId(template: Template, type: string, props: CfnResource = {}): string {
  const ids = Object.keys(template.findResources(type, props));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

function functionId(template: Template, name: string): string {
  return onlyId(template, 'AWS::Lambda::Function', { Properties: { FunctionName: name } });
}

function resource(template: Template, id: string): CfnResource {
  return template.toJSON().Resources[id] as CfnResource;
}

/** The queue of this name; the stack's template tells its stage by its table's name. */
function queueId(template: Template, queue: 'delivery' | 'mail'): string {
  const stage = stages.find((candidate) => templateOf(candidate) === template) ?? 'sandbox';
  return onlyId(template, 'AWS::SQS::Queue', {
    Properties: { QueueName: queueNames(stackName(stage))[queue] },
  });
}

const deliveryQueueId = (template: Template) => queueId(template, 'delivery');
const mailQueueId = (template: Template) => queueId(template, 'mail');

const deadLetterQueueId = (template: Template): string =>
  resource(template, deliveryQueueId(template)).Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];

/** The stream mapping's on-failure destination. */
const routerFailuresQueueId = (template: Template): string =>
  streamMapping(template).Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];

function statementsOf(template: Template, name: string): CfnResource[] {
  const roleId = resource(template, functionId(template, name)).Properties.Role['Fn::GetAtt'][0] as string;
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

function actionsOf(template: Template, name: string): string[] {
  return statementsOf(template, name).flatMap((statement) => statement.Action);
}

/** Resources of every statement of the function that allows `action`. */
function resourcesAllowing(template: Template, name: string, action: string): unknown[] {
  return statementsOf(template, name)
    .filter((statement) => [statement.Action].flat().includes(action))
    .flatMap((statement) => [statement.Resource].flat());
}

/** The KMS actions the function's role holds on one key. */
function kmsActionsOn(template: Template, name: string, keyId: string): string[] {
  return statementsOf(template, name)
    .filter((statement) =>
      [statement.Resource]
        .flat()
        .some((arn) => JSON.stringify(arn) === JSON.stringify({ 'Fn::GetAtt': [keyId, 'Arn'] })),
    )
    .flatMap((statement) => [statement.Action].flat())
    .filter((action) => action.startsWith('kms:'));
}

function streamMapping(template: Template): CfnResource {
  const id = onlyId(template, 'AWS::Lambda::EventSourceMapping', {
    Properties: { EventSourceArn: { 'Fn::GetAtt': [onlyId(template, 'AWS::DynamoDB::Table'), 'StreamArn'] } },
  });
  return resource(template, id);
}

function queueMapping(template: Template): CfnResource {
  const id = onlyId(template, 'AWS::Lambda::EventSourceMapping', {
    Properties: { EventSourceArn: { 'Fn::GetAtt': [deliveryQueueId(template), 'Arn'] } },
  });
  return resource(template, id);
}

/**
 * Lambda's event filtering for the patterns the stack uses: nested objects, and arrays of allowed
 * strings at the leaves. A record passes when any filter matches.
 */
function matches(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.includes(value);
  if (typeof pattern !== 'object' || pattern === null || typeof value !== 'object' || value === null)
    return false;
  return Object.entries(pattern).every(([key, inner]) => matches(inner, (value as CfnResource)[key]));
}

function passesFilters(template: Template, record: CfnResource): boolean {
  const filters = streamMapping(template).Properties.FilterCriteria.Filters as { Pattern: string }[];
  return filters.some((filter) => matches(JSON.parse(filter.Pattern), record));
}

const image = (entityType: string) => ({ PK: { S: 'X' }, SK: { S: 'Y' }, entityType: { S: entityType } });

describe('delivery functions', () => {
  const common = {
    Runtime: 'nodejs24.x',
    Architectures: ['arm64'],
    MemorySize: 256,
    Handler: 'index.handler',
  };

  it.each(stages)(
    'names the %s functions MerchantPayments-<stage>-router, -dispatcher, -reconciler',
    (stage) => {
      const template = templateOf(stage);
      for (const name of ['router', 'dispatcher', 'reconciler'] as const) {
        functionId(template, functionName(name, stage));
      }
    },
  );

  /**
   * The sandbox function `name` runs for `timeoutSeconds` with the table, stage and service name
   * every pipeline function gets, and the `variables` of its own.
   */
  function expectFunction(
    name: 'router' | 'dispatcher' | 'reconciler',
    timeoutSeconds: number,
    variables: (template: Template) => Record<string, unknown>,
  ) {
    const template = templateOf('sandbox');
    template.hasResourceProperties('AWS::Lambda::Function', {
      ...common,
      FunctionName: functionName(name),
      Timeout: timeoutSeconds,
      Environment: {
        Variables: {
          TABLE_NAME: { Ref: onlyId(template, 'AWS::DynamoDB::Table') },
          STAGE: 'sandbox',
          POWERTOOLS_SERVICE_NAME: 'merchant-payments',
          ...variables(template),
        },
      },
    });
  }

  it('runs the router for 60 s with the delivery and mail queue URLs', () => {
    expectFunction('router', routerStream.timeout.toSeconds(), (template) => ({
      DELIVERY_QUEUE_URL: { Ref: deliveryQueueId(template) },
      MAIL_QUEUE_URL: { Ref: mailQueueId(template) },
    }));
    expect(routerStream.timeout.toSeconds()).toBe(60);
  });

  it('runs the dispatcher for 30 s with the secrets key, a 10 s attempt timeout and a 60 s retry delay', () => {
    expectFunction('dispatcher', 30, (template) => ({
      SECRETS_KEY_ID: { 'Fn::GetAtt': [secretsKeyId(template, 'sandbox'), 'Arn'] },
      WEBHOOK_TIMEOUT_MS: '10000',
      WEBHOOK_RETRY_DELAY_SECONDS: '60',
    }));
  });

  it('retries a failed attempt after the delivery queue’s default delay', () => {
    const template = templateOf('sandbox');
    const dispatcher = resource(template, functionId(template, functionName('dispatcher')));
    const queue = resource(template, deliveryQueueId(template));
    expect(Number(dispatcher.Properties.Environment.Variables.WEBHOOK_RETRY_DELAY_SECONDS)).toBe(
      queue.Properties.DelaySeconds,
    );
  });

  it('gives the dispatcher room for a whole attempt and the queue six dispatcher timeouts', () => {
    const template = templateOf('sandbox');
    const dispatcher = resource(template, functionId(template, functionName('dispatcher')));
    const queue = resource(template, deliveryQueueId(template));
    const timeoutSeconds = dispatcher.Properties.Timeout as number;
    expect(timeoutSeconds * 1000).toBeGreaterThan(
      Number(dispatcher.Properties.Environment.Variables.WEBHOOK_TIMEOUT_MS),
    );
    expect(queue.Properties.VisibilityTimeout).toBe(timeoutSeconds * 6);
  });

  it('runs the reconciler for 60 s with the delivery and mail queue URLs', () => {
    expectFunction('reconciler', 60, (template) => ({
      DELIVERY_QUEUE_URL: { Ref: deliveryQueueId(template) },
      MAIL_QUEUE_URL: { Ref: mailQueueId(template) },
    }));
  });

  it.each(stages)('sets no local-only variable on any %s function', (stage) => {
    const functions = Object.values(templateOf(stage).findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(3);
    for (const fn of functions) {
      const variables = Object.keys(fn.Properties.Environment?.Variables ?? {});
      expect(variables).not.toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS');
      expect(variables).not.toContain('LOCAL_SECRETS_KEY');
      expect(variables).not.toContain('DYNAMODB_ENDPOINT');
      expect(variables).not.toContain('DYNAMODB_LOCAL_ACCESS_KEY_ID');
    }
  });
});

describe('event source mappings', () => {
  // A mapping invokes its function's live alias, which CodeDeploy moves on each deploy.
  it.each([
    ['table stream', 'router', streamMapping],
    ['delivery queue', 'dispatcher', queueMapping],
  ] as const)('feed the %s to the live alias of the %s', (_source, name, mappingOf) => {
    const template = templateOf('sandbox');
    const alias = liveAliasId(template, functionId(template, functionName(name)));
    expect(JSON.stringify(mappingOf(template).Properties.FunctionName)).toContain(`{"Ref":"${alias}"}`);
  });
});

describe('router stream mapping', () => {
  it('feeds the table stream to the router from the oldest record, 100 records at a time', () => {
    const { Properties } = streamMapping(templateOf('sandbox'));
    expect(Properties.StartingPosition).toBe('TRIM_HORIZON');
    expect(Properties.BatchSize).toBe(100);
  });

  it('bisects failing batches, retries 10 times and reports the failed record', () => {
    const { Properties } = streamMapping(templateOf('sandbox'));
    expect(Properties.BisectBatchOnFunctionError).toBe(true);
    expect(Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(Properties.MaximumRetryAttempts).toBe(10);
  });

  it('gives up on records 12 h old, while the 24 h stream still holds them for a replay', () => {
    const { Properties } = streamMapping(templateOf('sandbox'));
    expect(Properties.MaximumRecordAgeInSeconds).toBe(12 * 3600);
    expect(Properties.MaximumRecordAgeInSeconds).toBeLessThan(24 * 3600);
  });

  it('sends records it gives up on to the encrypted, TLS-only router failures queue', () => {
    const template = templateOf('sandbox');
    const failuresId = routerFailuresQueueId(template);
    expect(failuresId).not.toBe(deliveryQueueId(template));
    expect(failuresId).not.toBe(deadLetterQueueId(template));
    const failures = resource(template, failuresId);
    expect(failures.Properties.KmsMasterKeyId).toEqual({
      'Fn::GetAtt': [dataKeyId(template, 'sandbox'), 'Arn'],
    });
    expect(failures.Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    const [policy] = Object.values(
      template.findResources('AWS::SQS::QueuePolicy', { Properties: { Queues: [{ Ref: failuresId }] } }),
    );
    expect(policy?.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    // Lambda writes to the destination with the function's role.
    expect(resourcesAllowing(template, functionName('router'), 'sqs:SendMessage')).toContainEqual({
      'Fn::GetAtt': [failuresId, 'Arn'],
    });
  });

  it('filters on the entity type of the new or the old image, with the types the router handles', () => {
    const filters = streamMapping(templateOf('sandbox')).Properties.FilterCriteria.Filters as {
      Pattern: string;
    }[];
    // Lambda allows 5 filters per mapping by default.
    expect(filters.length).toBeLessThanOrEqual(5);
    const patterns = filters.map((filter) => JSON.parse(filter.Pattern));
    expect(patterns).toEqual([
      { dynamodb: { NewImage: { entityType: { S: [...routedEntityTypes] } } } },
      { dynamodb: { OldImage: { entityType: { S: [...routedEntityTypes] } } } },
    ]);
    expect([...routedEntityTypes].sort()).toEqual([
      'Event',
      'WebhookDelivery',
      'WebhookEndpoint',
      'WebhookRecovery',
    ]);
  });

  it.each([
    { eventName: 'INSERT', entityType: EntityType.event, images: ['NewImage'] },
    { eventName: 'MODIFY', entityType: EntityType.webhookDelivery, images: ['NewImage', 'OldImage'] },
    { eventName: 'MODIFY', entityType: EntityType.webhookEndpoint, images: ['NewImage', 'OldImage'] },
    { eventName: 'REMOVE', entityType: EntityType.webhookDelivery, images: ['OldImage'] },
  ])('lets a $eventName of a $entityType through', ({ eventName, entityType, images }) => {
    const dynamodb = Object.fromEntries(images.map((name) => [name, image(entityType)]));
    expect(passesFilters(templateOf('sandbox'), { eventName, dynamodb })).toBe(true);
  });

  it.each([EntityType.invoice, EntityType.merchant, EntityType.apiKey, EntityType.webhookEndpointCounter])(
    'keeps %s records away from the router',
    (entityType) => {
      const template = templateOf('sandbox');
      const dynamodb = { NewImage: image(entityType), OldImage: image(entityType) };
      expect(passesFilters(template, { eventName: 'MODIFY', dynamodb })).toBe(false);
    },
  );

  it('lets the router read this table’s stream and nothing else, with no wildcard resource', () => {
    const template = templateOf('sandbox');
    const streamArn = { 'Fn::GetAtt': [onlyId(template, 'AWS::DynamoDB::Table'), 'StreamArn'] };
    for (const action of ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']) {
      expect(resourcesAllowing(template, functionName('router'), action)).toEqual([streamArn]);
    }
    for (const name of ['router', 'dispatcher', 'reconciler'] as const) {
      const wildcards = statementsOf(template, functionName(name)).filter((statement) =>
        [statement.Resource].flat().includes('*'),
      );
      // The one exception: ListStreams, which has no resource-level permission.
      const expected =
        name === 'router' ? [{ Action: 'dynamodb:ListStreams', Effect: 'Allow', Resource: '*' }] : [];
      expect(wildcards).toEqual(expected);
    }
  });
});

describe('dispatcher queue mapping', () => {
  it.each(['sandbox', 'production'] as const)(
    'feeds the %s delivery queue to the dispatcher in batches of up to 10, holding no message back',
    (stage) => {
      const { Properties } = queueMapping(templateOf(stage));
      expect(Properties.BatchSize).toBe(dispatcherQueue.batchSize);
      expect(Properties.BatchSize).toBe(10);
      expect(Properties.MaximumBatchingWindowInSeconds ?? 0).toBe(0);
    },
  );

  it('reports failed messages one by one', () => {
    expect(queueMapping(templateOf('sandbox')).Properties.FunctionResponseTypes).toEqual([
      'ReportBatchItemFailures',
    ]);
  });

  it("caps the dispatcher at 50 concurrent invocations, the service's attempt ceiling", () => {
    expect(queueMapping(templateOf('sandbox')).Properties.ScalingConfig).toEqual({ MaximumConcurrency: 50 });
  });

  it('consumes only the delivery queue', () => {
    const template = templateOf('sandbox');
    expect(resourcesAllowing(template, functionName('dispatcher'), 'sqs:ReceiveMessage')).toEqual([
      { 'Fn::GetAtt': [deliveryQueueId(template), 'Arn'] },
    ]);
  });
});

describe('reconciler schedule', () => {
  it('invokes the reconciler every 5 minutes', () => {
    const template = templateOf('sandbox');
    const reconcilerArn = { 'Fn::GetAtt': [functionId(template, functionName('reconciler')), 'Arn'] };
    const ruleId = onlyId(template, 'AWS::Events::Rule');
    const rule = resource(template, ruleId);
    expect(rule.Properties.ScheduleExpression).toBe('rate(5 minutes)');
    expect(rule.Properties.State).toBe('ENABLED');
    expect(rule.Properties.Targets).toEqual([expect.objectContaining({ Arn: reconcilerArn })]);
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: reconcilerArn,
      Principal: 'events.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [ruleId, 'Arn'] },
    });
  });

  it('leaves retries of a failed run to the next tick', () => {
    const template = templateOf('sandbox');
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionId(template, functionName('reconciler')) },
      MaximumRetryAttempts: 0,
    });
  });
});

describe('delivery alarms', () => {
  const alarmNamed = (template: Template, name: string): CfnResource =>
    resource(template, onlyId(template, 'AWS::CloudWatch::Alarm', { Properties: { AlarmName: name } }));

  const queueAlarms = [
    { name: 'delivery-dlq-not-empty', queue: deadLetterQueueId },
    { name: 'router-failures-not-empty', queue: routerFailuresQueueId },
  ];

  it.each(queueAlarms)('raises MerchantPayments-sandbox-$name for one visible message', ({ name, queue }) => {
    const template = templateOf('sandbox');
    expect(alarmNamed(template, `MerchantPayments-sandbox-${name}`).Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue(template), 'QueueName'] } }],
      Statistic: 'Maximum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it.each([
    { name: 'dispatcher-errors', fn: 'dispatcher' },
    { name: 'reconciler-errors', fn: 'reconciler' },
  ] as const)('raises MerchantPayments-sandbox-$name for one error in 5 minutes', ({ name, fn }) => {
    const template = templateOf('sandbox');
    expect(alarmNamed(template, `MerchantPayments-sandbox-${name}`).Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId(template, functionName(fn)) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('raises MerchantPayments-sandbox-router-iterator-age when the router is 5 minutes behind', () => {
    const template = templateOf('sandbox');
    expect(alarmNamed(template, 'MerchantPayments-sandbox-router-iterator-age').Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId(template, functionName('router')) } }],
      Statistic: 'Maximum',
      Threshold: 5 * 60 * 1000,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it.each(stages)(
    'raises MerchantPayments-%s-delivery-queue-age when the oldest message is over 5 minutes old for 3 minutes',
    (stage) => {
      const template = templateOf(stage);
      const properties = alarmNamed(template, `MerchantPayments-${stage}-delivery-queue-age`).Properties;
      expect(properties).toEqual(
        expect.objectContaining({
          Namespace: 'AWS/SQS',
          MetricName: 'ApproximateAgeOfOldestMessage',
          Dimensions: [
            { Name: 'QueueName', Value: { 'Fn::GetAtt': [deliveryQueueId(template), 'QueueName'] } },
          ],
          Statistic: 'Maximum',
          Period: 60,
          Threshold: deliveryQueueAge.threshold.toSeconds(),
          ComparisonOperator: 'GreaterThanThreshold',
          EvaluationPeriods: 3,
          TreatMissingData: 'notBreaching',
        }),
      );
      expect(properties.DatapointsToAlarm).toBeUndefined();
      // Every retry is sent with the queue's delay and its age counts from the send: a line at or
      // under the delay would go off whenever retries flow.
      const delaySeconds = resource(template, deliveryQueueId(template)).Properties.DelaySeconds;
      expect(delaySeconds).toBe(60);
      expect(properties.Threshold).toBeGreaterThanOrEqual(delaySeconds * 5);
    },
  );

  describe('webhook success rate', () => {
    const successAlarm = () =>
      alarmNamed(templateOf('production'), 'MerchantPayments-production-webhook-success-rate');
    const threshold = stageSettings.production.alarmThresholds.webhookSuccess;

    it('alarms in production when under half the attempts succeed, 2 of 3 periods of 5 minutes', () => {
      expect(successAlarm().Properties).toMatchObject({
        Threshold: threshold.minimumRate,
        ComparisonOperator: 'LessThanThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
        TreatMissingData: 'notBreaching',
      });
      expect(threshold).toEqual({ minimumRate: 0.5, minimumAttempts: 50 });
    });

    it('divides the dispatcher’s succeeded attempts by all attempts, healthy below 50 attempts', () => {
      const metrics = successAlarm().Properties.Metrics as CfnResource[];
      const returned = metrics.filter((metric) => metric.ReturnData !== false);
      expect(returned).toEqual([
        expect.objectContaining({ Expression: 'IF(attempts >= 50, FILL(succeeded, 0) / attempts, 1)' }),
      ]);
      const stat = (id: string) => metrics.find((metric) => metric.Id === id)?.MetricStat;
      const dimensions = [
        { Name: PipelineMetricNames.dimensions.service, Value: 'merchant-payments' },
        { Name: PipelineMetricNames.dimensions.stage, Value: 'production' },
      ];
      expect(stat('attempts')).toEqual({
        Metric: {
          Namespace: 'MerchantPayments',
          MetricName: PipelineMetricNames.attempts,
          Dimensions: dimensions,
        },
        Period: 300,
        Stat: 'Sum',
      });
      expect(stat('succeeded')).toEqual({
        Metric: {
          Namespace: 'MerchantPayments',
          MetricName: PipelineMetricNames.succeeded,
          Dimensions: dimensions,
        },
        Period: 300,
        Stat: 'Sum',
      });
    });

    it('has no webhook success rate alarm in the sandbox, whose receivers are merchants’ tests', () => {
      expect(stageSettings.sandbox.alarmThresholds).not.toHaveProperty('webhookSuccess');
      expect(
        templateOf('sandbox').findResources('AWS::CloudWatch::Alarm', {
          Properties: { AlarmName: 'MerchantPayments-sandbox-webhook-success-rate' },
        }),
      ).toEqual({});
    });
  });

  it.each(stages)(
    'describes the pipeline functions’ Errors alarms without throttles, which Errors does not count',
    (stage) => {
      const template = templateOf(stage);
      for (const name of ['router-errors', 'dispatcher-errors', 'reconciler-errors']) {
        const properties = alarmNamed(template, `MerchantPayments-${stage}-${name}`).Properties;
        expect({ name, metric: properties.MetricName }).toEqual({ name, metric: 'Errors' });
        expect({ name, description: properties.AlarmDescription }).toEqual({
          name,
          description: expect.not.stringMatching(/throttl/i),
        });
      }
    },
  );

  it.each(stages)('names every %s alarm after its stack', (stage) => {
    const alarms = Object.values(templateOf(stage).findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThanOrEqual(8);
    for (const alarm of alarms) expect(alarm.Properties.AlarmName).toMatch(`MerchantPayments-${stage}-`);
  });
});

describe('delivery permissions', () => {
  it('lets the dispatcher decrypt signing secrets but never encrypt', () => {
    const template = templateOf('sandbox');
    expect(kmsActionsOn(template, functionName('dispatcher'), secretsKeyId(template, 'sandbox'))).toEqual([
      'kms:Decrypt',
    ]);
  });

  it.each(['router', 'dispatcher', 'reconciler'] as const)('lets the %s read the table', (name) => {
    expect(actionsOf(templateOf('sandbox'), functionName(name))).toEqual(
      expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']),
    );
  });

  it.each(['router', 'dispatcher'] as const)('lets the %s write deliveries', (name) => {
    expect(actionsOf(templateOf('sandbox'), functionName(name))).toContain('dynamodb:PutItem');
  });

  it('lets the reconciler write only UpdateItem, and only in merchant partitions (nudging a stalled recovery)', () => {
    const template = templateOf('sandbox');
    const actions = actionsOf(template, functionName('reconciler'));
    expect(actions.filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action))).toEqual([
      'dynamodb:UpdateItem',
    ]);
    const updates = statementsOf(template, functionName('reconciler')).filter((statement) =>
      [statement.Action].flat().includes('dynamodb:UpdateItem'),
    );
    expect(updates).toEqual([
      expect.objectContaining({
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['MERCHANT#*'] } },
      }),
    ]);
  });

  it.each(['router', 'reconciler'] as const)('lets the %s send to the delivery and mail queues', (name) => {
    const template = templateOf('sandbox');
    expect(resourcesAllowing(template, functionName(name), 'sqs:SendMessage')).toEqual(
      expect.arrayContaining([
        { 'Fn::GetAtt': [deliveryQueueId(template), 'Arn'] },
        { 'Fn::GetAtt': [mailQueueId(template), 'Arn'] },
      ]),
    );
  });

  it('never lets the dispatcher send messages or use the stream: the router owns the queue writes', () => {
    const actions = actionsOf(templateOf('sandbox'), functionName('dispatcher'));
    expect(actions).not.toContain('sqs:SendMessage');
    expect(
      actions.filter((action) => /^dynamodb:(GetRecords|GetShardIterator|DescribeStream)/.test(action)),
    ).toEqual([]);
  });

  it('keeps the signing-secrets key away from the router and the reconciler', () => {
    const template = templateOf('sandbox');
    for (const name of ['router', 'reconciler'] as const) {
      expect(kmsActionsOn(template, functionName(name), secretsKeyId(template, 'sandbox'))).toEqual([]);
    }
  });
});
