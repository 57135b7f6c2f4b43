import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { mailerQueue, reputationThresholds } from '../../lib/constructs/email-pipeline';
import { emailResourceNames, queueNames, stackName } from '../../lib/stack-name';
import { committedStageConfig } from '../../lib/stage-config';
import { dataKeyId, synthesizeEveryStageFirst, templateOf } from './template';

const stages = Object.values(Stage);

synthesizeEveryStageFirst();

type CfnResource = { [key: string]: any };

function onlyId(template: Template, type: string, props: CfnResource = {}): string {
  const ids = Object.keys(template.findResources(type, props));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

const resource = (template: Template, id: string): CfnResource => template.toJSON().Resources[id];

const functionId = (stage: Stage, suffix: string) =>
  onlyId(templateOf(stage), 'AWS::Lambda::Function', {
    Properties: { FunctionName: `${stackName(stage)}-${suffix}` },
  });

const queueId = (stage: Stage, queue: keyof ReturnType<typeof queueNames>) =>
  onlyId(templateOf(stage), 'AWS::SQS::Queue', {
    Properties: { QueueName: queueNames(stackName(stage))[queue] },
  });

const configurationSetId = (stage: Stage) => onlyId(templateOf(stage), 'AWS::SES::ConfigurationSet');
const eventsTopicId = (stage: Stage) =>
  onlyId(templateOf(stage), 'AWS::SNS::Topic', {
    Properties: { TopicName: emailResourceNames(stackName(stage)).eventsTopic },
  });

/** Every statement of the inline policies of the function's role. */
function statementsOf(stage: Stage, suffix: string): CfnResource[] {
  const template = templateOf(stage);
  const roleId = resource(template, functionId(stage, suffix)).Properties.Role['Fn::GetAtt'][0];
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return Object.values(policies).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

const actions = (statement: CfnResource): string[] => [statement.Action].flat();

/** The configuration set's ARN as the stack writes it: by its name, in the stack's account and region. */
function configurationSetArn(stage: Stage): CfnResource {
  const { account, region } = committedStageConfig(stage).env ?? {};
  return {
    'Fn::Join': [
      '',
      [`arn:aws:ses:${region}:${account}:configuration-set/`, { Ref: configurationSetId(stage) }],
    ],
  };
}

describe('the mailer', () => {
  it('gives the sandbox mailer no SES action at all', () => {
    const sesActions = statementsOf('sandbox', 'mailer')
      .flatMap(actions)
      .filter((action) => action.startsWith('ses:'));
    expect(sesActions).toEqual([]);
  });

  it('lets the production mailer send only from its identity, through its configuration set, from its address', () => {
    const sending = statementsOf('production', 'mailer').filter((statement) =>
      actions(statement).some((action) => action.startsWith('ses:')),
    );
    expect(sending).toHaveLength(1);
    const { Action, Resource, Condition, Effect } = sending[0] as CfnResource;
    expect({ Action, Effect }).toEqual({ Action: 'ses:SendEmail', Effect: 'Allow' });
    const { account, region } = committedStageConfig('production').env ?? {};
    const identityId = onlyId(templateOf('production'), 'AWS::SES::EmailIdentity');
    expect(Resource).toHaveLength(2);
    expect(Resource).toEqual(
      expect.arrayContaining([
        { 'Fn::Join': ['', [`arn:aws:ses:${region}:${account}:identity/`, { Ref: identityId }]] },
        configurationSetArn('production'),
      ]),
    );
    expect(Condition).toEqual({
      StringEquals: { 'ses:FromAddress': committedStageConfig('production').email.fromAddress },
    });
  });

  it('gives no other function of either stage an SES action', () => {
    for (const stage of stages) {
      const roles = Object.values(templateOf(stage).findResources('AWS::IAM::Policy'));
      const withSes = roles.filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as CfnResource[])
          .flatMap(actions)
          .some((action) => action.startsWith('ses:')),
      );
      expect(withSes).toHaveLength(stage === 'production' ? 1 : 0);
    }
  });

  it.each(stages)('carries the %s stage file’s email settings in its environment', (stage) => {
    const { email, customDomain } = committedStageConfig(stage);
    expect(customDomain).toBeUndefined();
    const variables = resource(templateOf(stage), functionId(stage, 'mailer')).Properties.Environment
      .Variables;
    expect(variables).toMatchObject({
      MAIL_QUEUE_URL: { Ref: queueId(stage, 'mail') },
      EMAIL_DELIVERY: stage === 'sandbox' ? 'capture' : 'ses',
      EMAIL_FROM_ADDRESS: email.fromAddress,
      SES_CONFIGURATION_SET: { Ref: configurationSetId(stage) },
      EMAILS_PER_MERCHANT_PER_HOUR: String(email.emailsPerMerchantPerHour),
      STAGE: stage,
    });
    expect(email.delivery).toBe(variables.EMAIL_DELIVERY);
    // The API stage's own URL, without the trailing slash of `ApiUrl`.
    const restApiId = onlyId(templateOf(stage), 'AWS::ApiGateway::RestApi');
    expect(variables.PUBLIC_BASE_URL).toEqual({
      'Fn::Join': [
        '',
        [
          'https://',
          { Ref: restApiId },
          `.execute-api.${committedStageConfig(stage).env?.region}.`,
          { Ref: 'AWS::URLSuffix' },
          `/${stage}`,
        ],
      ],
    });
  });

  it.each(stages)('reads the %s mail queue in batches of 10, reporting failures one by one', (stage) => {
    templateOf(stage).hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId(stage, 'mail'), 'Arn'] },
      FunctionName: { Ref: functionId(stage, 'mailer') },
      BatchSize: mailerQueue.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: mailerQueue.maxConcurrency },
    });
  });

  it.each(stages)('lets the %s mailer, router and reconciler send to the mail queue', (stage) => {
    for (const suffix of ['mailer', 'router', 'reconciler']) {
      const sends = statementsOf(stage, suffix)
        .filter((statement) => actions(statement).includes('sqs:SendMessage'))
        .flatMap((statement) => [statement.Resource].flat());
      expect({ suffix, sends }).toEqual({
        suffix,
        sends: expect.arrayContaining([{ 'Fn::GetAtt': [queueId(stage, 'mail'), 'Arn'] }]),
      });
    }
  });
});

describe('the mail queue', () => {
  it.each(stages)(
    'parks a %s message after 5 receives, encrypted, invisible for six mailer timeouts',
    (stage) => {
      const template = templateOf(stage);
      const queue = resource(template, queueId(stage, 'mail')).Properties;
      const mailer = resource(template, functionId(stage, 'mailer')).Properties;
      expect(queue.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [queueId(stage, 'mailDeadLetters'), 'Arn'] },
        maxReceiveCount: 5,
      });
      expect(queue.VisibilityTimeout).toBe(mailer.Timeout * 6);
      expect(queue.DelaySeconds).toBeUndefined();
      for (const id of [queueId(stage, 'mail'), queueId(stage, 'mailDeadLetters')]) {
        expect(resource(template, id).Properties.KmsMasterKeyId).toEqual({
          'Fn::GetAtt': [dataKeyId(template, stage), 'Arn'],
        });
      }
      expect(resource(template, queueId(stage, 'mailDeadLetters')).Properties.MessageRetentionPeriod).toBe(
        14 * 24 * 3600,
      );
    },
  );
});

describe('the configuration set and its events', () => {
  it.each(stages)(
    'publishes the %s bounces, complaints, deliveries and rejects to the encrypted events topic',
    (stage) => {
      const template = templateOf(stage);
      template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
        ConfigurationSetName: { Ref: configurationSetId(stage) },
        EventDestination: {
          Enabled: true,
          MatchingEventTypes: ['bounce', 'complaint', 'delivery', 'reject'],
          SnsDestination: { TopicARN: { Ref: eventsTopicId(stage) } },
        },
      });
      expect(resource(template, eventsTopicId(stage)).Properties.KmsMasterKeyId).toEqual({
        'Fn::GetAtt': [dataKeyId(template, stage), 'Arn'],
      });
    },
  );

  it.each(stages)(
    'suppresses bounced and complaining addresses and keeps reputation metrics in %s',
    (stage) => {
      templateOf(stage).hasResourceProperties('AWS::SES::ConfigurationSet', {
        Name: emailResourceNames(stackName(stage)).configurationSet,
        SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
        ReputationOptions: { ReputationMetricsEnabled: true },
        SendingOptions: { SendingEnabled: true },
        DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      });
    },
  );

  it.each(stages)('lets SES publish to the %s topic and use the data key for this set only', (stage) => {
    const template = templateOf(stage);
    const { account } = committedStageConfig(stage).env ?? {};
    const topicPolicy = Object.values(template.findResources('AWS::SNS::TopicPolicy')).find(
      (policy) =>
        JSON.stringify(policy.Properties.Topics) === JSON.stringify([{ Ref: eventsTopicId(stage) }]),
    );
    expect(topicPolicy?.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Action: 'sns:Publish',
        Principal: { Service: 'ses.amazonaws.com' },
        Condition: { StringEquals: expect.objectContaining({ 'AWS:SourceAccount': account }) },
      }),
    );
    const key = resource(template, dataKeyId(template, stage));
    const statement = (key.Properties.KeyPolicy.Statement as CfnResource[]).find(
      (entry) => entry.Sid === 'EmailEventsOfThisConfigurationSet',
    );
    expect(statement).toMatchObject({
      Principal: { Service: 'ses.amazonaws.com' },
      Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
      Condition: {
        StringEquals: { 'aws:SourceAccount': account, 'aws:SourceArn': configurationSetArn(stage) },
      },
    });
  });

  it.each(stages)(
    'subscribes the %s SES events function, and sends what it fails to record to its failures queue',
    (stage) => {
      const template = templateOf(stage);
      const sesEvents = functionId(stage, 'ses-events');
      template.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'lambda',
        TopicArn: { Ref: eventsTopicId(stage) },
        Endpoint: { 'Fn::GetAtt': [sesEvents, 'Arn'] },
      });
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: sesEvents },
        MaximumRetryAttempts: 2,
        DestinationConfig: {
          OnFailure: { Destination: { 'Fn::GetAtt': [queueId(stage, 'sesEventsFailures'), 'Arn'] } },
        },
      });
    },
  );

  it('creates an identity for production, signed with Easy DKIM and sending through the set, and none in the sandbox', () => {
    templateOf('sandbox').resourceCountIs('AWS::SES::EmailIdentity', 0);
    templateOf('production').hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: committedStageConfig('production').email.identity?.domain,
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: configurationSetId('production') } },
    });
    const outputs = Object.keys(templateOf('production').toJSON().Outputs);
    expect(outputs).toEqual(expect.arrayContaining(['EmailDkim1', 'EmailDkim2', 'EmailDkim3']));
  });
});

describe('the email alarms', () => {
  const alarm = (stage: Stage, suffix: string): CfnResource | undefined =>
    Object.values(
      templateOf(stage).findResources('AWS::CloudWatch::Alarm', {
        Properties: { AlarmName: `${stackName(stage)}-${suffix}` },
      }),
    )[0]?.Properties;

  it.each([
    ['email-bounce-rate', 'Reputation.BounceRate', reputationThresholds.bounceRate],
    ['email-complaint-rate', 'Reputation.ComplaintRate', reputationThresholds.complaintRate],
  ] as const)(
    'raises %s at the rate SES reviews an account at, in production only',
    (suffix, metric, threshold) => {
      expect(alarm('sandbox', suffix)).toBeUndefined();
      expect(alarm('production', suffix)).toMatchObject({
        Namespace: 'AWS/SES',
        MetricName: metric,
        Threshold: threshold,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      expect(alarm('production', suffix)?.Dimensions).toBeUndefined();
      expect([threshold]).toEqual([suffix === 'email-bounce-rate' ? 0.05 : 0.001]);
    },
  );
});
