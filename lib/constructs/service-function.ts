import path from 'node:path';
import { ArnFormat, Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  NodejsFunction,
  OutputFormat,
  SourceMapMode,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { asNagNames } from './nag-names';

/** The repository root: the esbuild project root and the home of `functions/`. */
export const projectRoot = path.resolve(import.meta.dirname, '..', '..');

/** Lambda caps function names at 64 characters. */
const maxFunctionNameLength = 64;

/**
 * ESM output because middy 6 ships ESM only. The banner gives bundled CommonJS dependencies a real
 * `require` for Node built-ins, which esbuild's ESM output otherwise rejects at run time.
 * `externalModules: []` bundles the AWS SDK, so the SDK version is the one in our lock file and not
 * whatever the runtime carries; `module` first picks the SDK's ES builds, which tree-shake better.
 */
export const functionBundling: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node24',
  mainFields: ['module', 'main'],
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  externalModules: [],
  minify: true,
  // `index.mjs.map` ships beside the bundle for `originalStack`, which reads it on the first logged
  // error; stack traces need the mappings only, so the sources stay out of the artifact.
  sourceMap: true,
  sourceMapMode: SourceMapMode.DEFAULT,
  sourcesContent: false,
  // There is no Docker on the build machines: esbuild from devDependencies bundles locally.
  forceDockerBundling: false,
};

/**
 * Modules a function imports that a build step makes from other sources, by handler module. The
 * step runs in the project root, with the Node that runs the app, right before esbuild bundles
 * that function: the pay page's function serves the page built from `functions/pay/page/`, the
 * portal's two functions the document and assets built from `functions/portal/page/`.
 */
const buildStepsBeforeBundling: Readonly<Record<string, readonly string[]>> = {
  'pay/serve-pay-page': [`'${process.execPath}' --import tsx bin/pay-page.ts`],
  'portal/serve-portal-page': [`'${process.execPath}' --import tsx bin/portal-page.ts`],
  'portal/serve-portal-asset': [`'${process.execPath}' --import tsx bin/portal-page.ts`],
};

/** The bundling of one function: `functionBundling`, after the function's own build steps if it has any. */
export function bundlingOf(handlerModule: string): BundlingOptions {
  const steps = buildStepsBeforeBundling[handlerModule];
  if (steps === undefined) return functionBundling;
  return {
    ...functionBundling,
    commandHooks: { beforeBundling: () => [...steps], beforeInstall: () => [], afterBundling: () => [] },
  };
}

/**
 * The variables the construct gives every function besides its own. No `NODE_OPTIONS`:
 * `--enable-source-maps` would have Node parse the bundle's source map on every cold start, while
 * `functions/observability/original-stack.ts` maps a stack only when an error is logged.
 */
export const functionRuntimeEnvironment: Readonly<Record<string, string>> = {};

/**
 * What decides whether a function's invocation is traced. Lambda applies no X-Ray sampling rule of
 * its own: it follows the decision a caller sends, and without one samples at a fixed rate nobody
 * can set. So a function is traced only where the stage's sampling rule decides
 * (docs/decisions/x-ray-sampling-set-per-stage.md).
 */
export const InvocationTracing = {
  /**
   * Behind API Gateway (the authorizer and every route): `Active` records exactly the requests the
   * stage's sampling rule traced, whose decision comes with each one.
   */
  sampledByApi: lambda.Tracing.ACTIVE,
  /**
   * Invoked by the table stream, the delivery queue or a schedule, which sample nothing:
   * `PassThrough` records only an invocation whose caller traced it, and none of these callers does.
   */
  callerDecides: lambda.Tracing.PASS_THROUGH,
} as const;
export type InvocationTracing = (typeof InvocationTracing)[keyof typeof InvocationTracing];

export interface ServiceFunctionProps {
  /** Physical name, which also begins the name of each of its log streams. */
  readonly functionName: string;
  /** Module under `functions/` that exports `handler`, without extension. */
  readonly handlerModule: string;
  readonly description: string;
  readonly environment: Readonly<Record<string, string>>;
  /** The stack's one log group of every function, where this one writes its own streams only. */
  readonly logs: FunctionLogs;
  /** The stack's one policy that lets a function send X-Ray trace segments. */
  readonly tracing: TraceWriting;
  /** Who decides whether an invocation is traced (`InvocationTracing`). */
  readonly invocationTracing: InvocationTracing;
  /** @default 10 seconds */
  readonly timeout?: Duration;
  /**
   * Concurrency set aside for this function alone, which is also its most. @default none: the
   * function draws on the account's unreserved pool.
   */
  readonly reservedConcurrency?: number;
}

/**
 * One managed policy per stack with the two X-Ray actions active tracing needs. Those actions take
 * no resource, so the policy's `*` is acknowledged here once, instead of on every function role's
 * default policy, where the acknowledgement would also hide any other wildcard.
 */
export class TraceWriting extends Construct {
  readonly policy: iam.ManagedPolicy;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.policy = new iam.ManagedPolicy(this, 'Policy', {
      description: 'Lets the service functions send X-Ray trace segments of the requests sampled',
      statements: [
        new iam.PolicyStatement({
          actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
          resources: ['*'],
        }),
      ],
    });
    Validations.of(this.policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permission; they only ' +
        'write trace data of the calling function, and nothing in this policy reads or changes any resource.',
    });
  }
}

export interface FunctionLogsProps {
  /** A fixed name (`functionLogGroupName` of lib/stack-name.ts), so operators and tools find it. */
  readonly logGroupName: string;
  readonly retention: logs.RetentionDays;
  /** Encrypts the log group (the stage's data key). */
  readonly encryptionKey: kms.IKey;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The one log group every function of the stack writes to, through Lambda's logging config
 * (docs/decisions/room-in-the-stacks.md). Lambda names each stream of a custom log group
 * `YYYY/MM/DD/<function name>[<version>][<environment id>]`, so a function's role may put events
 * into the streams that begin with its own name and into no other function's.
 */
export class FunctionLogs extends Construct {
  readonly logGroup: logs.LogGroup;
  private readonly logGroupName: string;

  constructor(scope: Construct, id: string, props: FunctionLogsProps) {
    super(scope, id);
    this.logGroupName = props.logGroupName;
    this.logGroup = new logs.LogGroup(this, 'LogGroup', {
      logGroupName: props.logGroupName,
      retention: props.retention,
      encryptionKey: props.encryptionKey,
      removalPolicy: props.removalPolicy,
    });
  }

  /**
   * The ARN of the streams Lambda writes for `functionName`: a date of ten characters, the name,
   * then its version in brackets. `?` matches one character, so the name must follow the date.
   */
  streamsOf(functionName: string): string {
    return Stack.of(this).formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: `${this.logGroupName}:log-stream:????/??/??/${functionName}[*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  /**
   * What Lambda does with the role of `functionName` to ship its logs: create a stream in the
   * group (CloudWatch Logs checks that against the group, not the stream), and put events into
   * the function's own streams.
   */
  grantWrite(role: iam.Role, functionName: string): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['logs:CreateLogStream'], resources: [this.logGroup.logGroupArn] }),
    );
    const streams = this.streamsOf(functionName);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['logs:PutLogEvents'], resources: [streams] }),
    );
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${asNagNames(Stack.of(this).resolve(streams))}]`,
      reason:
        `Lambda names each stream after the function, the version and an id it makes up: the wildcard ` +
        `covers the streams of ${functionName} only, in the one log group the stack's functions share.`,
    });
  }
}

/**
 * A bundled Node.js function with its own role, writing to the stack's shared function log group.
 * The role has no managed policy but the trace-writing one: it may write its own log streams and
 * gets everything else through explicit grants.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  /** The module under `functions/` its bundle is built from, e.g. `delivery/router-handler`. */
  readonly handlerModule: string;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.handlerModule = props.handlerModule;
    if (props.functionName.length > maxFunctionNameLength) {
      throw new Error(
        `Function name ${props.functionName} is longer than ${maxFunctionNameLength} characters; shorten its operationId`,
      );
    }

    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.functionName}`,
      managedPolicies: [props.tracing.policy],
    });
    props.logs.grantWrite(this.role, props.functionName);

    this.function = new NodejsFunction(this, 'Function', {
      functionName: props.functionName,
      description: props.description,
      entry: path.join(projectRoot, 'functions', `${props.handlerModule}.ts`),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      // Lambda allots CPU in proportion to memory. Loading the bundled SDK + middy graph is
      // CPU-bound, so 256 MB roughly halves cold-start init against 128 MB; the handlers themselves
      // use a fraction of it (a few DynamoDB round trips each).
      memorySize: 256,
      timeout: props.timeout ?? Duration.seconds(10),
      ...(props.reservedConcurrency === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrency }),
      role: this.role,
      logGroup: props.logs.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      environment: { ...props.environment, ...functionRuntimeEnvironment },
      bundling: bundlingOf(props.handlerModule),
    });
    // The tracing mode set on the resource itself: the construct's `tracing` prop would also put the
    // X-Ray statement into this role's default policy, beside the shared TraceWriting policy.
    const cfnFunction = this.function.node.defaultChild as lambda.CfnFunction;
    cfnFunction.tracingConfig = { mode: props.invocationTracing };
    Validations.of(this).acknowledge(
      {
        id: 'PCI.DSS.321-LambdaInsideVPC',
        reason:
          'No resource of the service lives in a VPC: the function calls AWS APIs (DynamoDB, SQS, KMS) over TLS with ' +
          'IAM-signed requests, and the dispatcher calls merchants’ public HTTPS endpoints. A VPC would add NAT ' +
          'gateways and VPC endpoints to reach the same public services, with no private network to protect.',
      },
      {
        id: 'cdk-validator-cfnguard::lambda_inside_vpc_check',
        reason:
          'CT.LAMBDA.PR.3: no resource of the service lives in a VPC (as for PCI.DSS.321-LambdaInsideVPC): ' +
          'every call the function makes is an IAM-signed TLS request to a public AWS or merchant endpoint.',
      },
      {
        id: 'PCI.DSS.321-IAMNoInlinePolicy',
        reason:
          'Each function’s role gets its grants in one policy of its own, attached to that role only and written ' +
          'from the explicit grants the stack tests check one by one; a managed policy would hold the same ' +
          'statements while being attachable to other principals.',
      },
    );
  }
}
