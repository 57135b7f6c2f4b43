import { App, CfnOutput, Duration, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { AwsSolutionsChecks, PCIDSS321Checks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { type FunctionEnvironment, Stage } from '../functions/config';
import {
  defaultRouteTimeoutSeconds,
  isPublic,
  type RouteDefinition,
  usesTable,
  writesTable,
} from '../functions/route-definition';
import { routeList, routesOfStage } from '../functions/routes';
import { AlarmTopic } from './constructs/alarm-topic';
import { acknowledgeControlTowerFindings } from './constructs/control-tower-acknowledgements';
import { DataKey } from './constructs/data-key';
import { DeliveryPipeline } from './constructs/delivery-pipeline';
import { DeliveryQueue } from './constructs/delivery-queue';
import { EmailPipeline } from './constructs/email-pipeline';
import { MailQueue } from './constructs/mail-queue';
import { OperatorPolicy } from './constructs/operator-policy';
import { PaymentsApi } from './constructs/payments-api';
import { PaymentsTable, TableAccess } from './constructs/payments-table';
import { SafeRollout } from './constructs/safe-rollout';
import { ServiceAlarms } from './constructs/service-alarms';
import { ServiceDashboard } from './constructs/service-dashboard';
import {
  FunctionLogs,
  InvocationTracing,
  ServiceFunction,
  TraceWriting,
} from './constructs/service-function';
import { ServiceKey } from './constructs/service-key';
import { type StageSettings, settingsOf } from './constructs/stage-settings';
import { grantStripeSecretsRead, usesStripe } from './constructs/stripe-secrets';
import { TableBackup } from './constructs/table-backup';
import { ControlTowerRules } from './control-tower-rules';
import { emailResourceNames, functionLogGroupName, functionName, queueNames, stackName } from './stack-name';
import {
  type CustomDomain,
  committedStageConfig,
  environmentOf,
  type ProcessorConfig,
  type StageConfig,
  stageProcessor,
} from './stage-config';

/** Service name in every structured log line (Powertools Logger) and in the Service tag. */
export const serviceName = 'merchant-payments';

/** The authorizer's module under `functions/`; every other function's is its route's `handler`. */
export const authorizerHandlerModule = 'authorizer/handler';

/** What a route's function may do to the table: nothing, read (and create CONFIG items), or write. */
export function tableAccessOf(route: RouteDefinition): TableAccess | 'none' {
  if (!usesTable(route)) return 'none';
  return writesTable(route) ? TableAccess.readWrite : TableAccess.read;
}

export interface MerchantPaymentsStackProps extends StackProps {
  readonly stage: Stage;
  /**
   * The checked stage file: the stack's `env` (unless `env` is given), alarm subscribers,
   * throttles, custom domain and log retention.
   */
  readonly config: StageConfig;
}

/**
 * One environment of the service (docs/architecture.md#the-request-path): table, secrets key, delivery
 * queue, REST API with its authorizer, one function per route of `functions/routes.ts`, and the webhook
 * delivery pipeline (router, dispatcher, reconciler and their alarms).
 */
export class MerchantPaymentsStack extends Stack {
  readonly stage: Stage;
  readonly settings: StageSettings;
  readonly table: PaymentsTable;
  readonly secretsKey: ServiceKey;
  /** Daily backups of the table into a locked vault; production only (docs/operations.md). */
  readonly tableBackup?: TableBackup;
  /** Encrypts the table, the queues, the alarm topic and every log group. */
  readonly dataKey: DataKey;
  /** The one log group of every function (`<stack>-functions`), each writing its own streams. */
  readonly functionLogs: FunctionLogs;
  readonly deliveryQueue: DeliveryQueue;
  readonly deliveryPipeline: DeliveryPipeline;
  /** Customer emails: router and reconciler → mail queue → mailer (docs/decisions/email-infrastructure.md). */
  readonly mailQueue: MailQueue;
  readonly emailPipeline: EmailPipeline;
  readonly api: PaymentsApi;
  /** Route functions by operationId. */
  readonly routeFunctions: ReadonlyMap<string, ServiceFunction>;
  /** Versions, aliases and canary deployments of the functions a bad deploy would hurt most. */
  readonly rollout: SafeRollout;
  readonly alarmTopic: AlarmTopic;
  readonly serviceAlarms: ServiceAlarms;
  readonly dashboard: ServiceDashboard;
  /** Every alarm of the stack, each notifying `alarmTopic` (docs/operations.md names each one). */
  readonly alarms: readonly cloudwatch.Alarm[];
  /** What the people who run the stage may do (docs/operations.md, "The operator's permissions"). */
  readonly operatorPolicy: OperatorPolicy;
  /** The stage's base URL (`ApiUrl`), which the release pipeline hands to the smoke test. */
  readonly apiUrlOutput: CfnOutput;
  private readonly tracing: TraceWriting;

  constructor(scope: Construct, id: string, props: MerchantPaymentsStackProps) {
    const { stage, config, ...stackProps } = props;
    const settings = settingsOf(stage, config);
    const env = stackProps.env ?? environmentOf(config);
    const tags = { Stage: stage, Service: serviceName };
    super(scope, id, {
      description: `Merchant payments service (${stage})`,
      terminationProtection: settings.stackTerminationProtection,
      analyticsReporting: false,
      ...stackProps,
      ...(env === undefined ? {} : { env }),
      // Stack tags reach every resource at deploy time; the aspect also writes them into the
      // template, where the tests can see them.
      tags: { ...stackProps.tags, ...tags },
    });
    this.stage = stage;
    this.settings = settings;
    // CloudFormation refuses Tags on a dashboard in some regions (us-east-1 among them); the stack's
    // own tags still reach it at deploy time wherever dashboards take tags.
    for (const [key, value] of Object.entries(tags)) {
      Tags.of(this).add(key, value, { excludeResourceTypes: ['AWS::CloudWatch::Dashboard'] });
    }

    this.dataKey = new DataKey(this, 'DataKey', {
      description: `Data at rest of ${serviceName} (${this.stage}): table, queues, alarm topic, logs`,
      alias: `alias/${serviceName}/${this.stage}/data`,
      removalPolicy: settings.removalPolicy,
    });
    this.tracing = new TraceWriting(this, 'Tracing');
    this.functionLogs = new FunctionLogs(this, 'FunctionLogs', {
      logGroupName: functionLogGroupName(this.stackName),
      retention: settings.logRetention,
      encryptionKey: this.dataKey.key,
      removalPolicy: settings.removalPolicy,
    });
    this.rollout = new SafeRollout(this, 'Rollout', { namePrefix: this.stackName, pace: settings.rollout });
    this.table = this.createTable();
    if (this.stage === Stage.production) this.tableBackup = this.createTableBackup();
    this.secretsKey = this.createSecretsKey();
    const queues = queueNames(this.stackName);
    this.deliveryQueue = new DeliveryQueue(this, 'Delivery', {
      queueName: queues.delivery,
      deadLetterQueueName: queues.deliveryDeadLetters,
      dataKey: this.dataKey,
      deadLetterRemovalPolicy: settings.removalPolicy,
    });
    this.mailQueue = new MailQueue(this, 'Mail', {
      queueName: queues.mail,
      deadLetterQueueName: queues.mailDeadLetters,
      dataKey: this.dataKey,
      deadLetterRemovalPolicy: settings.removalPolicy,
    });

    const environment = this.functionEnvironment();
    const authorizer = this.createAuthorizer(environment);
    const stageRoutes = routesOfStage(routeList, this.stage);
    this.api = new PaymentsApi(this, 'Api', {
      stage: this.stage,
      settings,
      // Every request's first step, so it rolls out behind an alias like the pay routes do.
      authorizerFunction: this.rollout.rollOut(authorizer, 'Authorizer'),
      routes: stageRoutes,
      logEncryptionKey: this.dataKey.key,
      customDomain: config.customDomain,
    });
    this.routeFunctions = this.addRouteFunctions(
      stageRoutes,
      environment,
      stageProcessor(this.stage, config),
      this.publicBaseUrl(config.customDomain),
    );
    this.deliveryPipeline = this.createDeliveryPipeline(queues, environment);
    this.emailPipeline = this.createEmailPipeline(config, queues, environment);
    this.rollout.seal();

    // The payers' and portal visitors' routes; Stripe's webhook is retried by Stripe, and its own
    // alarms count what its route writes (stripe-signature-failures, stripe-events-late, …).
    const payRoutes = stageRoutes.filter((route) => isPublic(route) && route.signedByProcessor === undefined);
    this.serviceAlarms = this.createServiceAlarms(payRoutes, authorizer);
    this.dashboard = this.createDashboard();
    // Last, so no alarm added above is left without someone to tell.
    this.alarmTopic = new AlarmTopic(this, 'AlarmTopic', {
      topicName: `${this.stackName}-alarms`,
      dataKey: this.dataKey,
      subscribers: config.alarmSubscribers,
    });
    this.alarms = this.alarmTopic.notifyOnEveryAlarm(this);
    acknowledgeControlTowerFindings(this, { logRetention: settings.logRetention });
    this.operatorPolicy = this.createOperatorPolicy();
    this.apiUrlOutput = this.addOutputs(config);
  }

  private createTable(): PaymentsTable {
    return new PaymentsTable(this, 'Table', {
      tableName: `${serviceName}-${this.stage}`,
      removalPolicy: this.settings.removalPolicy,
      deletionProtection: this.settings.tableDeletionProtection,
      dataKey: this.dataKey,
    });
  }

  private createTableBackup(): TableBackup {
    return new TableBackup(this, 'TableBackup', {
      table: this.table,
      dataKey: this.dataKey,
      name: `${serviceName}-${this.stage}`,
      removalPolicy: this.settings.removalPolicy,
    });
  }

  /**
   * Encrypts webhook signing secrets (and replayed responses holding one) at rest
   * (docs/security.md "A stolen log or table dump"). Only the roles it is granted to can use it:
   * no IAM policy of the account can.
   */
  private createSecretsKey(): ServiceKey {
    return new ServiceKey(this, 'SecretsKey', {
      description: `Webhook signing secrets of ${serviceName} (${this.stage})`,
      alias: `alias/${serviceName}/${this.stage}/secrets`,
      removalPolicy: this.settings.removalPolicy,
    });
  }

  /** TABLE_NAME, STAGE and the Powertools service name, which every function that reads the table gets. */
  private functionEnvironment(): Readonly<Record<string, string>> {
    // Typed against the functions' own env schema, so renaming a variable there breaks the build here.
    const functionEnvironment: Pick<Record<keyof FunctionEnvironment, string>, 'TABLE_NAME' | 'STAGE'> = {
      TABLE_NAME: this.table.tableName,
      STAGE: this.stage,
    };
    return { ...functionEnvironment, POWERTOOLS_SERVICE_NAME: serviceName };
  }

  private createAuthorizer(environment: Readonly<Record<string, string>>): ServiceFunction {
    // Reserved so that no flood elsewhere in the account leaves merchants without authorization.
    const authorizer = this.serviceFunction('Authorizer', 'authorizer', {
      handlerModule: authorizerHandlerModule,
      description: 'Bearer API key authorizer',
      environment,
      reservedConcurrency: this.settings.reservedConcurrency.authorizer,
    });
    this.table.grantAccess(authorizer.role, TableAccess.read);
    return authorizer;
  }

  /** One function per route of the stage, with exactly the table and key access its route needs. */
  private addRouteFunctions(
    stageRoutes: readonly RouteDefinition[],
    environment: Readonly<Record<string, string>>,
    processor: ProcessorConfig | undefined,
    publicBaseUrl: string,
  ): ReadonlyMap<string, ServiceFunction> {
    const routeFunctions = new Map<string, ServiceFunction>();
    for (const route of stageRoutes) {
      const tableAccess = tableAccessOf(route);
      // A function that never reads the table is not told its name either.
      const routeEnvironment: Record<string, string> =
        tableAccess === 'none' ? { POWERTOOLS_SERVICE_NAME: serviceName } : { ...environment };
      if (route.usesSecretsKey) routeEnvironment.SECRETS_KEY_ID = this.secretsKey.keyArn;
      const stripe = usesStripe(route, processor);
      if (stripe !== undefined) {
        routeEnvironment.STRIPE_SECRET_KEY_SECRET_NAME = stripe.secretKeySecretName;
        routeEnvironment.STRIPE_WEBHOOK_SECRET_SECRET_NAME = stripe.webhookSigningSecretName;
        // Stripe's Checkout sends the payer back to the pay page.
        if (route.callsProcessor === true) routeEnvironment.PUBLIC_BASE_URL = publicBaseUrl;
      }
      const routeFunction = this.serviceFunction(`${pascalCase(route.operationId)}Route`, route.operationId, {
        handlerModule: route.handler,
        description: `${route.method} ${route.path}: ${route.summary}`,
        environment: routeEnvironment,
        timeout: Duration.seconds(route.timeoutSeconds ?? defaultRouteTimeoutSeconds),
        ...reservedConcurrencyOf(route, this.settings),
      });
      if (tableAccess !== 'none') this.table.grantAccess(routeFunction.role, tableAccess);
      // A reader's first list call creates the cursor signing key in the CONFIG partition.
      if (tableAccess === TableAccess.read) this.table.grantConfigCreate(routeFunction.role);
      // Exactly the two calls the sealer makes; no GenerateDataKey* or ReEncrypt* wildcards.
      if (route.usesSecretsKey) this.secretsKey.grant(routeFunction.role, 'kms:Encrypt', 'kms:Decrypt');
      if (stripe !== undefined) grantStripeSecretsRead(routeFunction.role, stripe);
      // A bad pay route loses payments, so it rolls out behind an alias; the merchants' routes, which
      // a client retries, deploy at once (`docs/operations.md#rolling-out-and-back`).
      const invoked = isPublic(route)
        ? this.rollout.rollOut(routeFunction, `${pascalCase(route.operationId)}Route`)
        : routeFunction.function;
      this.api.addRoute(route, invoked);
      routeFunctions.set(route.operationId, routeFunction);
    }
    return routeFunctions;
  }

  private createDeliveryPipeline(
    queues: ReturnType<typeof queueNames>,
    environment: Readonly<Record<string, string>>,
  ): DeliveryPipeline {
    const settings = this.settings;
    return new DeliveryPipeline(this, 'DeliveryPipeline', {
      namePrefix: this.stackName,
      settings,
      table: this.table,
      deliveryQueue: this.deliveryQueue,
      mailQueue: this.mailQueue,
      secretsKey: this.secretsKey,
      environment,
      dataKey: this.dataKey,
      functionLogs: this.functionLogs,
      tracing: this.tracing,
      routerFailuresQueueName: queues.routerFailures,
      reconcilerFailuresQueueName: queues.reconcilerFailures,
      metricDimensions: this.metricDimensions(),
      rollOut: (fn, id) => this.rollout.rollOut(fn, id),
    });
  }

  private createEmailPipeline(
    config: StageConfig,
    queues: ReturnType<typeof queueNames>,
    environment: Readonly<Record<string, string>>,
  ): EmailPipeline {
    const names = emailResourceNames(this.stackName);
    return new EmailPipeline(this, 'EmailPipeline', {
      namePrefix: this.stackName,
      settings: this.settings,
      email: config.email,
      table: this.table,
      mailQueue: this.mailQueue,
      dataKey: this.dataKey,
      functionLogs: this.functionLogs,
      tracing: this.tracing,
      environment,
      publicBaseUrl: this.publicBaseUrl(config.customDomain),
      configurationSetName: names.configurationSet,
      eventsTopicName: names.eventsTopic,
      sesEventsFailuresQueueName: queues.sesEventsFailures,
    });
  }

  /**
   * The base URL merchants and payers are given, without a trailing slash: the custom domain where
   * the stage file names one, else the API stage's own URL (`ApiUrl` without its final `/`). The
   * stage's name is written out rather than referenced, so the mailer does not wait on the API stage.
   */
  private publicBaseUrl(customDomain: CustomDomain | undefined): string {
    if (customDomain !== undefined) {
      const basePath = customDomain.basePath === undefined ? '' : `/${customDomain.basePath}`;
      return `https://${customDomain.domainName}${basePath}`;
    }
    return `https://${this.api.restApi.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${this.stage}`;
  }

  /** The dimensions of the service's own metrics on this stage. */
  private metricDimensions() {
    return { service: serviceName, stage: this.stage };
  }

  private createServiceAlarms(
    payRoutes: readonly RouteDefinition[],
    authorizer: ServiceFunction,
  ): ServiceAlarms {
    const pipeline = this.deliveryPipeline;
    const payRouteFunctions = payRoutes.map((route) => {
      const routeFunction = this.routeFunctions.get(route.operationId);
      if (routeFunction === undefined) throw new Error(`No function serves ${route.operationId}`);
      return [route.operationId, routeFunction.function] as const;
    });
    return new ServiceAlarms(this, 'Alarms', {
      namePrefix: this.stackName,
      stage: this.stage,
      restApi: this.api.restApi,
      accessLogs: this.api.accessLogs,
      payRoutePaths: payRoutes.map((route) => route.path),
      criticalFunctions: new Map([
        ['authorizer', authorizer.function],
        ...payRouteFunctions,
        ['router', pipeline.router.function],
        ['dispatcher', pipeline.dispatcher.function],
        ['reconciler', pipeline.reconciler.function],
      ]),
      webAcl: this.api.webAcl.webAcl,
      table: this.table,
      thresholds: this.settings.alarmThresholds,
      metricDimensions: this.metricDimensions(),
    });
  }

  private createDashboard(): ServiceDashboard {
    const pipeline = this.deliveryPipeline;
    return new ServiceDashboard(this, 'Dashboard', {
      dashboardName: this.stackName,
      restApi: this.api.restApi,
      routeFunctions: new Map(
        [...this.routeFunctions].map(([operationId, fn]) => [operationId, fn.function]),
      ),
      router: pipeline.router.function,
      dispatcher: pipeline.dispatcher.function,
      reconciler: pipeline.reconciler.function,
      deliveryQueue: this.deliveryQueue.queue,
      deadLetterQueues: [
        { label: 'delivery dead letters', queue: this.deliveryQueue.deadLetterQueue },
        { label: 'router failures', queue: pipeline.routerFailures },
        { label: 'reconciler failures', queue: pipeline.reconcilerFailures },
        { label: 'mail dead letters', queue: this.mailQueue.deadLetterQueue },
        { label: 'SES events failures', queue: this.emailPipeline.sesEventsFailures },
      ],
      table: this.table,
      metricDimensions: this.metricDimensions(),
      signals: this.serviceAlarms.signals,
      accessLogs: this.api.accessLogs,
      thresholds: this.settings.alarmThresholds,
    });
  }

  private createOperatorPolicy(): OperatorPolicy {
    return new OperatorPolicy(this, 'OperatorPolicy', {
      managedPolicyName: `${serviceName}-${this.stage}-operator`,
      namePrefix: this.stackName,
      stage: this.stage,
      tableName: `${serviceName}-${this.stage}`,
      tableStreamArn: this.streamArn(),
      dataKey: this.dataKey.key,
      secretsKey: this.secretsKey,
      restApi: this.api.restApi,
      alarmTopicName: `${this.stackName}-alarms`,
      logGroups: [this.functionLogs.logGroup, this.api.accessLogs, this.api.webAcl.blockedRequestsLog],
      backup: this.tableBackup,
    });
  }

  /** The stack's outputs, for operators and the release pipeline; returns the base URL's. */
  private addOutputs(config: StageConfig): CfnOutput {
    const apiUrl = new CfnOutput(this, 'ApiUrl', {
      value: this.api.restApi.url,
      description: 'Base URL of the API stage',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'QueueUrl', { value: this.deliveryQueue.queue.queueUrl });
    this.addEmailOutputs(config);
    if (this.tableBackup !== undefined) {
      new CfnOutput(this, 'BackupVaultName', { value: this.tableBackup.vault.backupVaultName });
      new CfnOutput(this, 'BackupRoleArn', {
        value: this.tableBackup.role.roleArn,
        description: 'The role to restore a recovery point of the table with (docs/operations.md)',
      });
    }
    new CfnOutput(this, 'OperatorPolicyArn', {
      value: this.operatorPolicy.policy.managedPolicyArn,
      description:
        'Attach to the role or permission set of the people who run this stage (docs/operations.md)',
    });
    new CfnOutput(this, 'DataKeyArn', {
      value: this.dataKey.key.keyArn,
      description: 'The data key, for aws kms rotate-key-on-demand --key-id, which takes no alias',
    });
    new CfnOutput(this, 'SecretsKeyArn', {
      value: this.secretsKey.keyArn,
      description: 'The secrets key, for aws kms rotate-key-on-demand --key-id, which takes no alias',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarmTopic.topic.topicArn,
      description: 'Every alarm notifies it on ALARM and on OK; its subscribers are in the stage file',
    });
    const domainName = this.api.domainName;
    if (domainName !== undefined && config.customDomain !== undefined) {
      this.addCustomDomainOutputs(config.customDomain, domainName);
    }
    return apiUrl;
  }

  /** The mail queue, the configuration set and, for a domain identity, its three DKIM records. */
  private addEmailOutputs(config: StageConfig): void {
    const email = this.emailPipeline;
    new CfnOutput(this, 'MailQueueUrl', { value: this.mailQueue.queue.queueUrl });
    new CfnOutput(this, 'EmailConfigurationSetName', {
      value: email.configurationSet.configurationSetName,
      description: 'Every customer email is sent through it: its suppression, events and reputation metrics',
    });
    const identity = email.identity;
    if (identity === undefined) return;
    new CfnOutput(this, 'EmailIdentityName', {
      value: identity.emailIdentityName,
      description: 'The SES identity the stage sends from; it sends nothing until SES has verified it',
    });
    // Only a domain identity has Easy DKIM records; an address is verified by the mail SES sends it.
    if (config.email.identity?.domain !== undefined) {
      identity.dkimRecords.forEach((record, index) => {
        new CfnOutput(this, `EmailDkim${index + 1}`, {
          value: `${record.name} CNAME ${record.value}`,
          description: `Easy DKIM record ${index + 1} of 3: add it to the domain's DNS to verify the identity`,
        });
      });
    }
  }

  /** The table's stream, which `router replay` reads; the table is defined with one. */
  private streamArn(): string {
    const arn = this.table.tableStreamArn;
    if (arn === undefined) throw new Error('The table has no stream for the router to read');
    return arn;
  }

  /** What an operator needs to add the domain's DNS record and to tell merchants the new URL. */
  private addCustomDomainOutputs(customDomain: CustomDomain, domainName: apigateway.DomainName): void {
    const { domainName: host, basePath = '' } = customDomain;
    new CfnOutput(this, 'CustomDomainUrl', {
      value: `https://${host}/${basePath}`,
      description: 'Base URL of the API stage under the custom domain, once its DNS record exists',
    });
    new CfnOutput(this, 'CustomDomainTarget', {
      value: domainName.domainNameAliasDomainName,
      description: 'Point the custom domain here: a CNAME, or an alias record with CustomDomainHostedZoneId',
    });
    new CfnOutput(this, 'CustomDomainHostedZoneId', { value: domainName.domainNameAliasHostedZoneId });
  }

  private serviceFunction(
    id: string,
    nameSuffix: string,
    props: {
      handlerModule: string;
      description: string;
      environment: Record<string, string>;
      timeout?: Duration;
      reservedConcurrency?: number;
    },
  ): ServiceFunction {
    return new ServiceFunction(this, id, {
      ...props,
      functionName: functionName(this.stackName, nameSuffix),
      logs: this.functionLogs,
      tracing: this.tracing,
      // The authorizer and every route run behind API Gateway, whose sampling rule decides.
      invocationTracing: InvocationTracing.sampledByApi,
    });
  }
}

/**
 * A public route's reserved concurrency: a flood of payers or portal visitors then waits on its own
 * share and never on the pool the merchant routes draw from. Every public route must have one; the others have none.
 */
export function reservedConcurrencyOf(
  route: RouteDefinition,
  settings: StageSettings,
): { reservedConcurrency?: number } {
  if (!isPublic(route)) return {};
  const publicRoutes: Readonly<Record<string, number>> = settings.reservedConcurrency.publicRoutes;
  const reserved = publicRoutes[route.operationId];
  if (reserved === undefined) {
    throw new Error(`Public route ${route.operationId} has no reserved concurrency in the stage settings`);
  }
  return { reservedConcurrency: reserved };
}

function pascalCase(camelCase: string): string {
  return camelCase.charAt(0).toUpperCase() + camelCase.slice(1);
}

export interface BuildAppOptions {
  /**
   * The app to add the stack to. Tests pass one with the context `aws:cdk:bundling-stacks: []`
   * to skip esbuild. @default a new App
   */
  readonly app?: App;
  /** The checked stage file. @default the committed `stages/<stage>.ts` */
  readonly config?: StageConfig;
  /**
   * Also run the Control Tower proactive controls (cfn-guard), which take tens of seconds, so only
   * where asked: `cdk synth -c controlTowerRules=true`, and test/infra/control-tower.test.ts.
   * @default the `controlTowerRules` context value
   */
  readonly controlTowerRules?: boolean;
}

/** The CDK context key that turns the Control Tower rules on (`-c controlTowerRules=true`). */
export const controlTowerRulesContextKey = 'controlTowerRules';

/**
 * Builds the stack of one stage into an app, with cdk-nag's AwsSolutions and PCI DSS 3.2.1 checks
 * (and, when asked, the Control Tower rules) as validations: an unacknowledged finding of any of
 * them fails the synthesis.
 */
export function buildApp(
  stage: Stage,
  options: BuildAppOptions = {},
): { app: App; stack: MerchantPaymentsStack } {
  const app = options.app ?? new App();
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new PCIDSS321Checks(app));
  const controlTower =
    options.controlTowerRules ?? `${app.node.tryGetContext(controlTowerRulesContextKey)}` === 'true';
  if (controlTower) Validations.of(app).addPlugins(new ControlTowerRules());
  const config = options.config ?? committedStageConfig(stage);
  const stack = new MerchantPaymentsStack(app, stackName(stage), { stage, config });
  return { app, stack };
}
