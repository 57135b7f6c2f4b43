import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Stage } from '../../functions/config';
import { isPublic, type RouteDefinition } from '../../functions/route-definition';
import { restApiName } from '../stack-name';
import type { CustomDomain } from '../stage-config';
import { ApiTraceSampling } from './api-trace-sampling';
import { addGatewayErrorResponses } from './gateway-responses';
import { PublicRoutesWebAcl } from './public-routes-web-acl';
import type { StageSettings } from './stage-settings';

/** The authorizer's answer for one bearer key is cached 60 s. */
export const authorizerCacheTtl = Duration.seconds(60);

/**
 * One JSON line per request; never headers or bodies, so no API key and no pay-link slug (which
 * travels in JSON bodies and the URL fragment only) reaches the access log.
 */
export const accessLogFormat = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: apigateway.AccessLogField.contextRequestId(),
    // The stage is the dimension of the metrics the stack's alarms count from this log.
    stage: apigateway.AccessLogField.contextStage(),
    requestTimeEpoch: apigateway.AccessLogField.contextRequestTimeEpoch(),
    sourceIp: apigateway.AccessLogField.contextIdentitySourceIp(),
    userAgent: apigateway.AccessLogField.contextIdentityUserAgent(),
    httpMethod: apigateway.AccessLogField.contextHttpMethod(),
    resourcePath: apigateway.AccessLogField.contextResourcePath(),
    path: apigateway.AccessLogField.contextPath(),
    status: apigateway.AccessLogField.contextStatus(),
    responseLength: apigateway.AccessLogField.contextResponseLength(),
    responseLatency: apigateway.AccessLogField.contextResponseLatency(),
    integrationLatency: apigateway.AccessLogField.contextIntegrationLatency(),
    authorizerLatency: apigateway.AccessLogField.contextAuthorizerLatency(),
    authorizerError: apigateway.AccessLogField.contextAuthorizerError(),
    principalId: apigateway.AccessLogField.contextAuthorizerPrincipalId(),
    // The key's safe name (never the key), so a leaked key's requests can be found
    // (docs/operations.md, "A merchant's API key leaked").
    keyPrefix: apigateway.AccessLogField.contextAuthorizer('keyPrefix'),
    errorResponseType: apigateway.AccessLogField.contextErrorResponseType(),
  }),
);

export interface PaymentsApiProps {
  readonly stage: Stage;
  readonly settings: StageSettings;
  readonly authorizerFunction: lambda.IFunction;
  /** Encrypts the access and execution log groups (the stage's data key). */
  readonly logEncryptionKey: kms.IKey;
  /** The routes the stage serves: the public ones get their own, lower throttle. */
  readonly routes: readonly RouteDefinition[];
  /** A name of the operator's own for the stage, besides API Gateway's `execute-api` URL. */
  readonly customDomain?: CustomDomain | undefined;
}

/**
 * The REST API: one stage named after the environment, the bearer-key REQUEST authorizer on every
 * route but the public pay routes, which a web ACL and their own throttle limit instead, and API
 * Gateway's own errors in our error shape. Request validation happens in the handlers, so
 * the API has no models or validators.
 */
export class PaymentsApi extends Construct {
  readonly restApi: apigateway.RestApi;
  readonly authorizer: apigateway.RequestAuthorizer;
  readonly webAcl: PublicRoutesWebAcl;
  /** The stage's X-Ray sampling rule, from the stage file's `traceSampling`. */
  readonly traceSampling: ApiTraceSampling;
  /** One JSON line per request (`accessLogFormat`); the stack's alarms count authorizer failures and pay-route 5xx in it. */
  readonly accessLogs: logs.LogGroup;
  /** Set when the stage file names a custom domain. */
  readonly domainName: apigateway.DomainName | undefined;
  /**
   * The role API Gateway invokes the authorizer and every route's function with: it may invoke
   * exactly those (a rolled-out function's `live` alias), nothing else, and only API Gateway can
   * assume it (docs/decisions/room-in-the-stacks.md).
   */
  readonly invokeRole: iam.Role;
  /** The role's one statement, to which each route adds the function it integrates. */
  private readonly invokeStatement: iam.PolicyStatement;
  /** `METHOD /path` of the public routes the stage throttles on their own. */
  private readonly throttledPublicRoutes: ReadonlySet<string>;

  constructor(scope: Construct, id: string, props: PaymentsApiProps) {
    super(scope, id);
    const { stage, settings } = props;
    const publicRoutes = props.routes.filter(isPublic);
    this.throttledPublicRoutes = new Set(publicRoutes.map(routeKey));
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      encryptionKey: props.logEncryptionKey,
      removalPolicy: settings.removalPolicy,
    });

    this.invokeStatement = new iam.PolicyStatement({
      actions: ['lambda:InvokeFunction'],
      // The exact ARN each caller names: no other version or alias (`resourceArnsForGrantInvoke` adds `:*`).
      resources: [props.authorizerFunction.functionArn],
    });
    this.invokeRole = new iam.Role(this, 'InvokeRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: `API Gateway invokes the authorizer and the route functions of ${Stack.of(this).stackName} as this role`,
      inlinePolicies: { Invoke: new iam.PolicyDocument({ statements: [this.invokeStatement] }) },
    });
    Validations.of(this.invokeRole).acknowledge({
      id: 'PCI.DSS.321-IAMNoInlinePolicy',
      reason:
        'One statement, lambda:InvokeFunction on the authorizer and each route function (the live alias of a ' +
        'rolled-out one) by ARN, inside the role API Gateway assumes to call them; a managed policy would hold the ' +
        'same statement while being attachable to other principals.',
    });
    this.restApi = this.createRestApi(props, publicRoutes);
    this.traceSampling = new ApiTraceSampling(this, 'TraceSampling', {
      ruleName: Stack.of(this).stackName,
      restApiName: restApiName(Stack.of(this).stackName),
      stage: this.restApi.deploymentStage,
      stageName: stage,
      sampling: settings.traceSampling,
    });

    // Created here so the execution logs get a retention; API Gateway would create it without one.
    const executionLogGroup = new logs.LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${stage}`,
      retention: settings.logRetention,
      encryptionKey: props.logEncryptionKey,
      removalPolicy: settings.removalPolicy,
    });
    this.restApi.deploymentStage.node.addDependency(executionLogGroup);

    this.authorizer = new apigateway.RequestAuthorizer(this, 'BearerKeyAuthorizer', {
      authorizerName: 'bearer-api-key',
      handler: props.authorizerFunction,
      // The role as a reference: given the role itself, CDK would attach a policy of its own to it for
      // the same statement the role already holds.
      assumeRole: iam.Role.fromRoleArn(this, 'AuthorizerInvokeRole', this.invokeRole.roleArn, {
        mutable: false,
      }),
      identitySources: [apigateway.IdentitySource.header('Authorization')],
      resultsCacheTtl: authorizerCacheTtl,
    });

    addGatewayErrorResponses(this.restApi);
    this.domainName = props.customDomain === undefined ? undefined : this.addCustomDomain(props.customDomain);

    this.acknowledgeFindings();

    this.webAcl = new PublicRoutesWebAcl(this, 'PublicRoutesFirewall', {
      stage: this.restApi.deploymentStage,
      stageName: stage,
      name: `${Stack.of(this).stackName}-api`,
      apiKeyCeiling: settings.apiKeyCeiling,
      logRetention: settings.logRetention,
      logEncryptionKey: props.logEncryptionKey,
      removalPolicy: settings.removalPolicy,
    });
  }

  /** The stage's API: regional, logged without bodies, throttled, the public routes on their own limits. */
  private createRestApi(
    props: PaymentsApiProps,
    publicRoutes: readonly RouteDefinition[],
  ): apigateway.RestApi {
    const { stage, settings } = props;
    // ERROR-level execution logs without data trace: failures are visible, bodies and headers
    // (API keys, signing secrets, pay-link slugs) never are.
    const methodLogging = {
      loggingLevel: apigateway.MethodLoggingLevel.ERROR,
      dataTraceEnabled: false,
      metricsEnabled: settings.detailedMetrics,
    } as const;

    return new apigateway.RestApi(this, 'RestApi', {
      restApiName: restApiName(Stack.of(this).stackName),
      description: `Merchant payments API (${stage})`,
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      // Access and execution logging need the account-level CloudWatch role of API Gateway.
      cloudWatchRole: true,
      deployOptions: {
        stageName: stage,
        throttlingRateLimit: settings.throttle.rateLimit,
        throttlingBurstLimit: settings.throttle.burstLimit,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogs),
        accessLogFormat,
        ...methodLogging,
        methodOptions: Object.fromEntries(
          publicRoutes.map((route) => [
            `${route.path}/${route.method}`,
            {
              throttlingRateLimit: settings.publicRouteThrottle.rateLimit,
              throttlingBurstLimit: settings.publicRouteThrottle.burstLimit,
              // A method's own setting does not inherit the stage's, so it repeats the logging rules.
              ...methodLogging,
            },
          ]),
        ),
        // X-Ray traces the requests the stage's sampling rule picks, from the stage through the
        // authorizer to the route's function.
        tracingEnabled: true,
      },
    });
  }

  /** The API findings of cdk-nag and the PCI checks that do not apply here, each with its reason. */
  private acknowledgeFindings(): void {
    Validations.of(this.restApi).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated in each Lambda handler with strict schemas declared beside each route, ' +
        'which return our validation_error shape with one details entry per problem; ' +
        'API Gateway validators would answer in their own shape.',
    });
    Validations.of(this.restApi.deploymentStage).acknowledge(
      {
        id: 'PCI.DSS.321-APIGWCacheEnabledAndEncrypted',
        reason:
          'The stage has no response cache, so there is no cached data to encrypt: every answer belongs to one ' +
          'merchant and one moment (balances, statuses, idempotent replays), and a cache keyed on the path would ' +
          'serve stale or another request’s answer.',
      },
      {
        id: 'PCI.DSS.321-APIGWSSLEnabled',
        reason:
          'A client certificate authenticates API Gateway to an HTTP backend; every integration here is a Lambda ' +
          'function invoked through AWS IAM, so there is no backend that could check one.',
      },
    );
    const cloudWatchRole = this.restApi.node.findChild('CloudWatchRole');
    Validations.of(cloudWatchRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        'The account-level role API Gateway needs for access and execution logging; AWS documents this ' +
        'managed policy for exactly that role and keeps it current, and only apigateway.amazonaws.com assumes it.',
    });
  }

  /**
   * A regional custom domain mapped to the stage. The `execute-api` URL keeps working, so tools and
   * merchants can move over at their own pace; DNS (a CNAME or alias to the domain's regional name,
   * the stack output `CustomDomainTarget`) is the operator's to add.
   */
  private addCustomDomain(domain: CustomDomain): apigateway.DomainName {
    const domainName = new apigateway.DomainName(this, 'CustomDomain', {
      domainName: domain.domainName,
      certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
      endpointType: apigateway.EndpointType.REGIONAL,
      securityPolicy: apigateway.SecurityPolicy.TLS_1_2,
    });
    domainName.addBasePathMapping(this.restApi, {
      stage: this.restApi.deploymentStage,
      ...(domain.basePath === undefined ? {} : { basePath: domain.basePath }),
    });
    return domainName;
  }

  /**
   * Wires one route of the route table to its function: behind the authorizer, or with no
   * authorization at all for a public route.
   */
  addRoute(route: RouteDefinition, handler: lambda.IFunction): apigateway.Method {
    // LambdaIntegration would add a Lambda permission per route; API Gateway calls the function as
    // the invoke role instead, which may invoke this handler from now on.
    this.invokeStatement.addResources(handler.functionArn);
    const integration = new apigateway.AwsIntegration({
      proxy: true,
      service: 'lambda',
      path: `2015-03-31/functions/${handler.functionArn}/invocations`,
      options: { credentialsRole: this.invokeRole },
    });
    const resource = this.restApi.root.resourceForPath(route.path);
    if (isPublic(route)) {
      // The method throttle is part of what makes an open route acceptable; none, no route.
      if (!this.throttledPublicRoutes.has(routeKey(route))) {
        throw new Error(
          `Public route ${routeKey(route)} is not in PaymentsApiProps.routes, so it has no throttle`,
        );
      }
      const method = resource.addMethod(route.method, integration, {
        operationName: route.operationId,
        authorizationType: apigateway.AuthorizationType.NONE,
      });
      acknowledgePublicMethod(
        method,
        route.signedByProcessor === undefined ? publicByDesign : signedByStripe,
      );
      return method;
    }
    const method = resource.addMethod(route.method, integration, {
      operationName: route.operationId,
      authorizer: this.authorizer,
      authorizationType: apigateway.AuthorizationType.CUSTOM,
    });
    Validations.of(method).acknowledge({
      id: 'AwsSolutions-COG4',
      reason:
        'Merchants authenticate machine-to-machine with bearer API keys, checked by the ' +
        'Lambda REQUEST authorizer; there are no end users, so there is no Cognito user pool.',
    });
    return method;
  }
}

function routeKey(route: RouteDefinition): string {
  return `${route.method} ${route.path}`;
}

const publicByDesign =
  'The hosted pay page and the two routes it calls are public by design: a payer ' +
  'has no account and no API key; the pay-link slug (at least 128 random bits, sent in the JSON body, ' +
  'never in a URL) is the credential, and a wrong slug gets the same 404 as a missing invoice. The ' +
  'routes are rate-limited per client address by the stage web ACL and throttled per method below the ' +
  'stage default.';

const signedByStripe =
  "Stripe's Connect webhook is public by design: Stripe calls it with no API key or AWS credential. " +
  "Every request is verified by Stripe's signature over its exact body with the platform's webhook " +
  'secret, within 5 minutes, before anything is read or written, and de-duplicated by its event id. The ' +
  'route is rate-limited per client address by the stage web ACL and throttled per method below the ' +
  'stage default.';

/** The two findings a method without authorization raises, acknowledged on that method only. */
function acknowledgePublicMethod(method: apigateway.Method, reason: string): void {
  Validations.of(method).acknowledge(
    { id: 'AwsSolutions-APIG4', reason },
    { id: 'AwsSolutions-COG4', reason },
  );
}
