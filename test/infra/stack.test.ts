import { isDeepStrictEqual as isEqual } from 'node:util';
import { ArnFormat, Validations } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import { isPublic, usesTable, writesTable } from '../../functions/route-definition';
import { routeList, routesOfStage } from '../../functions/routes';
import { createTableInput, TableDefinition } from '../../functions/store/table';
import { ServiceFunction } from '../../lib/constructs/service-function';
import { functionLogGroupName, queueNames, restApiName, stackName } from '../../lib/stack-name';
import { committedStageConfig } from '../../lib/stage-config';
import {
  dataKeyId,
  liveAliasId,
  resourcePaths,
  secretsKeyId,
  synthesized,
  synthesizeEveryStageFirst,
  templateOf,
} from './template';

const stages = Object.values(Stage);

/** The sandbox's routes, which its template is read for; production's own are checked on their own. */
const sandboxRoutes = routesOfStage(routeList, 'sandbox');
const productionOnlyRoutes = routesOfStage(routeList, 'production').filter(
  (route) => !sandboxRoutes.includes(route),
);

synthesizeEveryStageFirst();

type CfnResource = { [key: string]: any };

function onlyResource(template: Template, type: string): CfnResource {
  const resources = Object.values(template.findResources(type));
  expect(resources).toHaveLength(1);
  return resources[0] as CfnResource;
}

function logicalIdOfFunction(template: Template, functionName: string): string {
  const ids = Object.keys(
    template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: functionName } }),
  );
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

/** Every IAM action granted to the execution role of the named function. */
function statementsOfFunction(template: Template, functionName: string): CfnResource[] {
  const fn = template.findResources('AWS::Lambda::Function', { Properties: { FunctionName: functionName } });
  const roleId = (Object.values(fn)[0] as CfnResource).Properties.Role['Fn::GetAtt'][0] as string;
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } });
  return Object.values(policies).flatMap(
    (policy) => policy.Properties.PolicyDocument.Statement as CfnResource[],
  );
}

function actionsOfFunction(template: Template, functionName: string): string[] {
  return statementsOfFunction(template, functionName).flatMap((statement) => statement.Action);
}

describe('cdk-nag AwsSolutions', () => {
  it.each(stages)('synthesizes the %s stack with every finding fixed or acknowledged', (stage) => {
    expect(() => synthesized(stage)).not.toThrow();
  });

  it.each(stages)('leaves no AwsSolutions violation unacknowledged in %s', (stage) => {
    const report = new AwsSolutionsChecks().validateScope(synthesized(stage).stack);
    expect(report.violations).toEqual([]);
    expect(report.success).toBe(true);
  });

  it.each(stages)('adds no error annotation to the %s stack', (stage) => {
    expect(Annotations.fromStack(synthesized(stage).stack).findError('*', Match.anyValue())).toEqual([]);
  });

  it('acknowledges only the reviewed rules, each with a reason', () => {
    const { stack } = synthesized('production');
    const acknowledged = new Map<string, string>();
    const ownLogStreams: string[] = [];
    for (const construct of stack.node.findAll()) {
      // The operator policy's wildcards are reviewed one by one in operator-policy.test.ts.
      if (construct.node.path.includes('/OperatorPolicy/')) continue;
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          // The Control Tower rules' acknowledgements are checked by control-tower.test.ts.
          if (id.startsWith('cdk-validator-cfnguard::')) continue;
          const rule = id.replace(/^annotation::/i, '');
          // Each function role's streams in the shared log group, named for that function alone.
          const streams = /^AwsSolutions-IAM5\[Resource::.*:log-stream:\?{4}\/\?{2}\/\?{2}\/(.+)\[\*\]$/.exec(
            rule,
          );
          if (streams !== null) {
            ownLogStreams.push(`${construct.node.path} ${streams[1]}`);
            continue;
          }
          acknowledged.set(rule, reason);
        }
      }
    }
    // Acknowledged on the role of the function whose streams they are, and on no other construct.
    const functions = [...stack.node.findAll()].filter(
      (c): c is ServiceFunction => c instanceof ServiceFunction,
    );
    expect(ownLogStreams.sort()).toEqual(
      functions
        .map((fn) => `${fn.role.node.path} ${(fn.function.node.defaultChild as CfnFunction).functionName}`)
        .sort(),
    );
    // The two Stripe secrets' ARNs end in the six characters Secrets Manager adds to their names.
    const stripeSecrets = [...acknowledged.keys()].filter((rule) => rule.includes(':secretsmanager:'));
    for (const rule of stripeSecrets) acknowledged.delete(rule);
    const processor = committedStageConfig('production').processor;
    expect(stripeSecrets.map((rule) => /:secret:(.+)-\?{6}\]$/.exec(rule)?.[1]).sort()).toEqual(
      processor?.kind === 'stripe'
        ? [processor.secretKeySecretName, processor.webhookSigningSecretName].sort()
        : [],
    );
    expect([...acknowledged.keys()].sort()).toEqual([
      'AwsSolutions-APIG2',
      'AwsSolutions-APIG4',
      'AwsSolutions-COG4',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForRestores]',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'AwsSolutions-IAM5[Resource::*]',
      'AwsSolutions-SQS3',
      'PCI.DSS.321-APIGWCacheEnabledAndEncrypted',
      'PCI.DSS.321-APIGWSSLEnabled',
      'PCI.DSS.321-IAMNoInlinePolicy',
      'PCI.DSS.321-LambdaInsideVPC',
    ]);
    for (const reason of acknowledged.values()) expect(reason.length).toBeGreaterThan(60);
  });
});

describe('table', () => {
  it.each(stages)('keys the %s table on string PK and SK from TableDefinition', (stage) => {
    templateOf(stage).hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: TableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: TableDefinition.partitionKey, AttributeType: 'S' },
        { AttributeName: TableDefinition.sortKey, AttributeType: 'S' },
      ]),
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('declares the merchant lists GSI1 and GSI2 with every attribute projected', () => {
    templateOf('sandbox').hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: Match.arrayWith(
        (['GSI1', 'GSI2'] as const).map((name) =>
          Match.objectLike({
            IndexName: name,
            KeySchema: [
              { AttributeName: `${name}PK`, KeyType: 'HASH' },
              { AttributeName: `${name}SK`, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          }),
        ),
      ),
    });
  });

  it('declares GSI3 keyed by the slug hash alone, projecting the pay view’s attributes and never the slug', () => {
    const table = Object.values(templateOf('sandbox').findResources('AWS::DynamoDB::Table'))[0];
    const gsi3 = table?.Properties.GlobalSecondaryIndexes.find((index: any) => index.IndexName === 'GSI3');
    expect(gsi3).toEqual({
      IndexName: 'GSI3',
      KeySchema: [{ AttributeName: 'GSI3PK', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: expect.any(Array) },
      ContributorInsightsSpecification: { Enabled: true, Mode: 'ACCESSED_AND_THROTTLED_KEYS' },
    });
    expect([...gsi3.Projection.NonKeyAttributes].sort()).toEqual(
      [
        'acceptedPaymentMethods',
        'amountPaid',
        'amountRemaining',
        'currency',
        'currentRevisionNumber',
        'customerId',
        'dueDate',
        'invoiceId',
        'invoiceNumber',
        'lineItems',
        'merchantId',
        'merchantName',
        'paidAt',
        'productTotal',
        'status',
        'total',
      ].sort(),
    );
    expect(gsi3.Projection.NonKeyAttributes).not.toContain('invoiceUrlSlug');
  });

  it('declares the same indexes and key attributes as the table the local runtime and the tests create', () => {
    const local = createTableInput('local');
    templateOf('sandbox').hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: local.GlobalSecondaryIndexes,
      AttributeDefinitions: Match.arrayWith(local.AttributeDefinitions),
    });
    const table = Object.values(templateOf('sandbox').findResources('AWS::DynamoDB::Table'))[0];
    expect(table?.Properties.AttributeDefinitions).toHaveLength(local.AttributeDefinitions.length);
  });

  it('streams new and old images to the router', () => {
    templateOf('sandbox').hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('expires items through the TableDefinition ttl attribute', () => {
    templateOf('sandbox').hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: TableDefinition.ttlAttribute, Enabled: true },
    });
  });

  it.each(stages)('keeps point-in-time recovery on in %s', (stage) => {
    templateOf(stage).hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('keeps the production table on stack deletion and protects it from deletion', () => {
    templateOf('production').hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
  });

  it('lets the sandbox table go with its stack', () => {
    const table = onlyResource(templateOf('sandbox'), 'AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties.DeletionProtectionEnabled).not.toBe(true);
  });
});

describe('keys', () => {
  it.each(stages)('rotates both %s keys, the secrets key and the data key', (stage) => {
    const template = templateOf(stage);
    const keys = template.findResources('AWS::KMS::Key');
    expect(Object.keys(keys).sort()).toEqual(
      [dataKeyId(template, stage), secretsKeyId(template, stage)].sort(),
    );
    for (const key of Object.values(keys)) expect(key.Properties.EnableKeyRotation).toBe(true);
  });

  it('keeps the production keys on stack deletion', () => {
    const keys = Object.values(templateOf('production').findResources('AWS::KMS::Key'));
    for (const key of keys) expect(key.DeletionPolicy).toBe('Retain');
  });
});

describe('delivery queue', () => {
  /** The delivery queue, by the name the admin CLI finds it by. */
  const deliveryQueue = (): CfnResource => {
    const queues = Object.values(
      templateOf('sandbox').findResources('AWS::SQS::Queue', {
        Properties: { QueueName: queueNames(stackName('sandbox')).delivery },
      }),
    );
    expect(queues).toHaveLength(1);
    return queues[0] as CfnResource;
  };

  it('delays every new message by 60 seconds', () => {
    expect(deliveryQueue().Properties.DelaySeconds).toBe(60);
  });

  it('moves a message to the dead-letter queue after 5 receives', () => {
    const template = templateOf('sandbox');
    const { RedrivePolicy } = deliveryQueue().Properties;
    expect(RedrivePolicy.maxReceiveCount).toBe(5);
    const dlqId = RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;
    expect(template.findResources('AWS::SQS::Queue')[dlqId]).toBeDefined();
  });

  it('keeps a message invisible for six dispatcher timeouts', () => {
    expect(deliveryQueue().Properties.VisibilityTimeout).toBe(180);
  });

  it.each(stages)(
    'encrypts every %s queue with the data key (delivery and mail, their dead-letter queues, three failure queues)',
    (stage) => {
      const template = templateOf(stage);
      const queues = Object.values(template.findResources('AWS::SQS::Queue'));
      expect(queues).toHaveLength(7);
      for (const queue of queues) {
        expect(queue.Properties.KmsMasterKeyId).toEqual({
          'Fn::GetAtt': [dataKeyId(template, stage), 'Arn'],
        });
        expect(queue.Properties.SqsManagedSseEnabled).toBeUndefined();
      }
    },
  );

  it.each(stages)('names the %s queues as the admin CLI looks them up', (stage) => {
    const names = Object.values(templateOf(stage).findResources('AWS::SQS::Queue')).map(
      (queue) => queue.Properties.QueueName,
    );
    expect(names.sort()).toEqual(Object.values(queueNames(stackName(stage))).sort());
  });

  it('refuses requests to any queue without TLS', () => {
    const policies = Object.values(templateOf('sandbox').findResources('AWS::SQS::QueuePolicy'));
    expect(policies).toHaveLength(7);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });
});

describe('table name', () => {
  it.each(stages)('names the %s table merchant-payments-<stage>, as the admin CLI expects', (stage) => {
    templateOf(stage).hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: `merchant-payments-${stage}`,
    });
  });
});

describe('REST API name', () => {
  it.each(stages)('names the %s REST API MerchantPayments-<stage>-api, as the admin CLI expects', (stage) => {
    const apis = Object.values(templateOf(stage).findResources('AWS::ApiGateway::RestApi'));
    expect(apis.map((api) => api.Properties.Name)).toEqual([`MerchantPayments-${stage}-api`]);
    expect(restApiName(stackName(stage))).toBe(`MerchantPayments-${stage}-api`);
  });
});

describe('authorizer', () => {
  it('checks the Authorization header with a REQUEST authorizer cached for 60 seconds', () => {
    templateOf('sandbox').hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 60,
    });
  });

  it('runs the authorizer from functions/authorizer/handler.ts with read-only table access', () => {
    const template = templateOf('sandbox');
    const authorizer = onlyResource(template, 'AWS::ApiGateway::Authorizer');
    const functionId = logicalIdOfFunction(template, 'MerchantPayments-sandbox-authorizer');
    // API Gateway calls the authorizer's live alias, which CodeDeploy moves on each deploy.
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(
      `{"Ref":"${liveAliasId(template, functionId)}"}`,
    );
    expect(actionsOfFunction(template, 'MerchantPayments-sandbox-authorizer')).not.toContain(
      'dynamodb:PutItem',
    );
  });
});

describe('gateway responses', () => {
  const expected = [
    { type: 'UNAUTHORIZED', status: '401', code: 'unauthorized' },
    { type: 'ACCESS_DENIED', status: '401', code: 'unauthorized' },
    { type: 'MISSING_AUTHENTICATION_TOKEN', status: '404', code: 'not_found' },
    { type: 'RESOURCE_NOT_FOUND', status: '404', code: 'not_found' },
    { type: 'REQUEST_TOO_LARGE', status: '413', code: 'payload_too_large' },
    { type: 'THROTTLED', status: '429', code: 'rate_limited' },
    { type: 'DEFAULT_4XX', status: undefined, code: 'bad_request' },
    { type: 'DEFAULT_5XX', status: undefined, code: 'internal_error' },
  ];

  it.each(expected)(
    'answers $type with status $status and code $code in our error shape',
    ({ type, status, code }) => {
      const [response] = Object.values(
        templateOf('sandbox').findResources('AWS::ApiGateway::GatewayResponse', {
          Properties: { ResponseType: type },
        }),
      );
      expect(response?.Properties.StatusCode).toBe(status);
      const body = response?.Properties.ResponseTemplates['application/json'] as string;
      // The template is JSON once API Gateway substitutes $context.requestId.
      expect(JSON.parse(body.replace('$context.requestId', 'req-1'))).toEqual({
        error: { code, message: expect.any(String), requestId: 'req-1' },
      });
      expect(response?.Properties.ResponseParameters['gatewayresponse.header.Content-Type']).toBe(
        "'application/json'",
      );
    },
  );
});

describe('route functions', () => {
  it.each(sandboxRoutes)('lets $operationId use the secrets key only when it seals secrets', (route) => {
    const template = templateOf('sandbox');
    const secretsKeyArn = { 'Fn::GetAtt': [secretsKeyId(template, 'sandbox'), 'Arn'] };
    const kmsActions = statementsOfFunction(template, `MerchantPayments-sandbox-${route.operationId}`)
      .filter((statement) => [statement.Resource].flat().some((arn) => isEqual(arn, secretsKeyArn)))
      .flatMap((statement) => statement.Action);
    if (route.usesSecretsKey)
      expect(kmsActions).toEqual(expect.arrayContaining(['kms:Encrypt', 'kms:Decrypt']));
    else expect(kmsActions).toEqual([]);
  });

  it('creates one function per route plus the authorizer, the three delivery and the two email functions', () => {
    templateOf('sandbox').resourceCountIs('AWS::Lambda::Function', sandboxRoutes.length + 1 + 3 + 2);
  });

  it.each(sandboxRoutes)(
    'runs $operationId on nodejs24.x arm64 with 256 MB, its timeout and JSON logs',
    (route) => {
      const tableEnvironment = !usesTable(route)
        ? {}
        : { TABLE_NAME: { Ref: Match.anyValue() }, STAGE: 'sandbox' };
      templateOf('sandbox').hasResourceProperties('AWS::Lambda::Function', {
        FunctionName: `MerchantPayments-sandbox-${route.operationId}`,
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 256,
        Timeout: route.timeoutSeconds ?? 10,
        Handler: 'index.handler',
        LoggingConfig: Match.objectLike({ LogFormat: 'JSON' }),
        Environment: {
          Variables: {
            ...tableEnvironment,
            POWERTOOLS_SERVICE_NAME: 'merchant-payments',
          },
        },
      });
    },
  );

  it.each(sandboxRoutes.filter((route) => usesTable(route)))(
    'grants $operationId only the table access its method needs',
    (route) => {
      const actions = actionsOfFunction(
        templateOf('sandbox'),
        `MerchantPayments-sandbox-${route.operationId}`,
      );
      expect(actions).toContain('dynamodb:Query');
      if (writesTable(route)) expect(actions).toContain('dynamodb:PutItem');
      else
        expect(actions.filter((action) => /^dynamodb:(Update|Delete|BatchWrite)/.test(action))).toEqual([]);
    },
  );

  it.each(['servePayPage', 'servePortalAsset'])(
    'serves %s from a function with no DynamoDB permission and no table name',
    (operationId) => {
      expect(routeList.filter((route) => !usesTable(route)).map((route) => route.operationId)).toEqual([
        'servePayPage',
        'servePortalAsset',
      ]);
      const template = templateOf('sandbox');
      const actions = actionsOfFunction(template, `MerchantPayments-sandbox-${operationId}`);
      expect(actions.filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
      const fn = template.findResources('AWS::Lambda::Function', {
        Properties: { FunctionName: `MerchantPayments-sandbox-${operationId}` },
      });
      expect(Object.values(fn)[0]?.Properties.Environment.Variables.TABLE_NAME).toBeUndefined();
    },
  );

  it('lets the public invoice read (a POST that changes nothing) read the table but not write it', () => {
    const actions = actionsOfFunction(templateOf('sandbox'), 'MerchantPayments-sandbox-getPayInvoice');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:BatchGetItem']));
    expect(actions.filter((action) => /^dynamodb:(Update|Delete|BatchWrite)/.test(action))).toEqual([]);
  });

  it.each(sandboxRoutes.filter((route) => !writesTable(route) && usesTable(route)))(
    'lets reader $operationId put items only in the CONFIG partition (the cursor signing key)',
    (route) => {
      const statements = statementsOfFunction(
        templateOf('sandbox'),
        `MerchantPayments-sandbox-${route.operationId}`,
      );
      const puts = statements.filter((statement) => [statement.Action].flat().includes('dynamodb:PutItem'));
      expect(puts).toHaveLength(1);
      expect(puts[0]?.Condition).toEqual({
        'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['CONFIG'] },
      });
    },
  );

  it.each(stages)('sends the logs of every %s function to the stage’s one function log group', (stage) => {
    const template = templateOf(stage);
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    const logGroups = template.findResources('AWS::Logs::LogGroup');
    for (const fn of functions) {
      const logGroup = logGroups[fn.Properties.LoggingConfig.LogGroup.Ref] as CfnResource;
      expect(logGroup.Properties.LogGroupName).toBe(functionLogGroupName(stackName(stage)));
      expect(logGroup.Properties.RetentionInDays).toBe(stage === 'production' ? 365 : 30);
    }
  });

  it.each(stages)('lets each %s function put log events only into the streams named after it', (stage) => {
    const template = templateOf(stage);
    const { stack } = synthesized(stage);
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    for (const fn of functions) {
      const name = fn.Properties.FunctionName as string;
      const logStatements = statementsOfFunction(template, name).filter((statement) =>
        [statement.Action].flat().some((action: string) => action.startsWith('logs:')),
      );
      // Lambda names each stream of a shared group `YYYY/MM/DD/<function name>[<version>]…`.
      const ownStreams = stack.resolve(
        stack.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: `${functionLogGroupName(stackName(stage))}:log-stream:????/??/??/${name}[*`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      );
      expect({ name, logStatements }).toEqual({
        name,
        logStatements: [
          {
            Action: 'logs:CreateLogStream',
            Effect: 'Allow',
            Resource: { 'Fn::GetAtt': [fn.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] },
          },
          { Action: 'logs:PutLogEvents', Effect: 'Allow', Resource: ownStreams },
        ],
      });
    }
  });

  it('attaches no AWS managed policy to a function role, only the stack’s own trace-writing policy', () => {
    const roles = Object.values(
      templateOf('sandbox').findResources('AWS::IAM::Role', {
        Properties: {
          AssumeRolePolicyDocument: {
            Statement: [Match.objectLike({ Principal: { Service: 'lambda.amazonaws.com' } })],
          },
        },
      }),
    );
    expect(roles).toHaveLength(sandboxRoutes.length + 1 + 3 + 2);
    // The operators' policy (operator-policy.test.ts) is attached to no function role.
    const ownPolicies = Object.keys(
      templateOf('sandbox').findResources('AWS::IAM::ManagedPolicy', {
        Properties: { ManagedPolicyName: Match.absent() },
      }),
    );
    expect(ownPolicies).toHaveLength(1);
    for (const role of roles) expect(role.Properties.ManagedPolicyArns).toEqual([{ Ref: ownPolicies[0] }]);
  });

  it.each(stages)('starts no %s function with Node mapping stacks, which parses the source map', (stage) => {
    const functions = Object.values(templateOf(stage).findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThan(4);
    for (const fn of functions) {
      const nodeOptions = String(fn.Properties.Environment?.Variables?.NODE_OPTIONS ?? '');
      expect(nodeOptions).not.toMatch(/--enable-source-maps|--experimental-source-maps/);
    }
  });
});

describe('routes', () => {
  it.each(sandboxRoutes.filter((route) => !isPublic(route)))(
    'serves $method $path from the $operationId function behind the authorizer',
    (route) => {
      const template = templateOf('sandbox');
      const paths = resourcePaths(template);
      const functionId = logicalIdOfFunction(template, `MerchantPayments-sandbox-${route.operationId}`);
      const authorizerId = Object.keys(template.findResources('AWS::ApiGateway::Authorizer'))[0];
      const methods = Object.values(
        template.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: route.method } }),
      ).filter((method) => paths.get(method.Properties.ResourceId.Ref) === route.path);

      expect(methods).toHaveLength(1);
      const [method] = methods as [CfnResource];
      expect(method.Properties.AuthorizationType).toBe('CUSTOM');
      expect(method.Properties.AuthorizerId).toEqual({ Ref: authorizerId });
      expect(method.Properties.Integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(method.Properties.Integration.Uri)).toContain(`"${functionId}"`);
    },
  );

  it('declares no method that is not in the route table', () => {
    templateOf('sandbox').resourceCountIs('AWS::ApiGateway::Method', sandboxRoutes.length);
  });
});

describe('routes of one stage only', () => {
  it('are Stripe’s Checkout and webhook, which the sandbox has no function or method for', () => {
    expect(productionOnlyRoutes.map((route) => route.operationId).sort()).toEqual([
      'createCheckoutSession',
      'receiveStripeEvent',
    ]);
    templateOf('production').resourceCountIs(
      'AWS::ApiGateway::Method',
      routesOfStage(routeList, 'production').length,
    );
    const names = (stage: Stage) =>
      Object.values(templateOf(stage).findResources('AWS::Lambda::Function')).map(
        (fn) => fn.Properties.FunctionName,
      );
    expect(names('sandbox')).not.toContain('MerchantPayments-sandbox-receiveStripeEvent');
    expect(names('production')).toContain('MerchantPayments-production-receiveStripeEvent');
    expect(names('sandbox')).not.toContain('MerchantPayments-sandbox-createCheckoutSession');
    // The card form takes numbers: only the sandbox, with its test numbers, has it.
    expect(names('production')).not.toContain('MerchantPayments-production-payInvoice');
    expect(names('sandbox')).toContain('MerchantPayments-sandbox-payInvoice');
  });

  it.each(productionOnlyRoutes)(
    'runs $operationId on nodejs24.x arm64 with 256 MB and lets it write the table, without the secrets key',
    (route) => {
      const template = templateOf('production');
      const name = `MerchantPayments-production-${route.operationId}`;
      template.hasResourceProperties('AWS::Lambda::Function', {
        FunctionName: name,
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 256,
        Timeout: route.timeoutSeconds ?? 10,
        Environment: {
          Variables: Match.objectLike({ TABLE_NAME: { Ref: Match.anyValue() }, STAGE: 'production' }),
        },
      });
      expect(actionsOfFunction(template, name)).toContain('dynamodb:PutItem');
      const secretsKeyArn = { 'Fn::GetAtt': [secretsKeyId(template, 'production'), 'Arn'] };
      const onSecretsKey = statementsOfFunction(template, name).filter((statement) =>
        [statement.Resource].flat().some((arn) => isEqual(arn, secretsKeyArn)),
      );
      expect(onSecretsKey).toEqual([]);
    },
  );
});

describe('API stage', () => {
  it.each(stages)('names the API stage %s', (stage) => {
    templateOf(stage).hasResourceProperties('AWS::ApiGateway::Stage', { StageName: stage });
  });

  it.each([
    { stage: 'sandbox', rate: 100, burst: 200 },
    { stage: 'production', rate: 1000, burst: 2000 },
  ] as const)(
    'throttles $stage at $rate requests per second with bursts of $burst',
    ({ stage, rate, burst }) => {
      templateOf(stage).hasResourceProperties('AWS::ApiGateway::Stage', {
        MethodSettings: Match.arrayWith([
          Match.objectLike({
            HttpMethod: '*',
            ResourcePath: '/*',
            ThrottlingRateLimit: rate,
            ThrottlingBurstLimit: burst,
          }),
        ]),
      });
    },
  );

  it('writes JSON access logs to a log group and never data traces', () => {
    const template = templateOf('sandbox');
    const stage = onlyResource(template, 'AWS::ApiGateway::Stage');
    expect(JSON.stringify(stage.Properties.AccessLogSetting.DestinationArn)).toMatch(/ApiAccessLogs/);
    expect(JSON.parse(stage.Properties.AccessLogSetting.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
    });
    expect(stage.Properties.MethodSettings[0]).toMatchObject({
      LoggingLevel: 'ERROR',
      DataTraceEnabled: false,
    });
  });

  it.each(stages)(
    'logs ERRORs and no data trace for every method setting of %s, overrides included',
    (stage) => {
      const { MethodSettings } = onlyResource(templateOf(stage), 'AWS::ApiGateway::Stage').Properties;
      expect(MethodSettings.length).toBeGreaterThan(1);
      for (const setting of MethodSettings)
        expect(setting).toMatchObject({ LoggingLevel: 'ERROR', DataTraceEnabled: false });
    },
  );

  // The pay-link slug travels in JSON bodies and the URL fragment only, API keys in a
  // header: a format that names only context variables can hold neither.
  it.each(stages)('builds the %s access log from context variables only, never a body or header', (stage) => {
    const { Format } = onlyResource(templateOf(stage), 'AWS::ApiGateway::Stage').Properties.AccessLogSetting;
    const values = Object.values(JSON.parse(Format) as Record<string, string>);
    expect(values.length).toBeGreaterThan(5);
    for (const value of values) {
      expect(value).toMatch(/^\$context\.[A-Za-z.]+$/);
      expect(value).not.toMatch(/body|header|requestOverride|responseOverride/i);
    }
    expect(Format).not.toMatch(/\$input|\$request\.|\$method\.request|\$util/);
  });
});

describe('stack', () => {
  it.each(stages)('tags every taggable %s resource with its stage', (stage) => {
    const resources = Object.values(templateOf(stage).toJSON().Resources as Record<string, CfnResource>);
    const tagged = resources.filter((resource) => Array.isArray(resource.Properties?.Tags));
    expect(tagged.length).toBeGreaterThan(10);
    for (const resource of tagged)
      expect(resource.Properties.Tags).toContainEqual({ Key: 'Stage', Value: stage });
  });

  it('protects the production stack from termination', () => {
    expect(synthesized('production').stack.terminationProtection).toBe(true);
    expect(synthesized('sandbox').stack.terminationProtection).toBe(false);
  });

  it.each(stages)('outputs the API URL, table name and queue URL of %s', (stage) => {
    const outputs = templateOf(stage).findOutputs('*');
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'QueueUrl']));
  });
});
