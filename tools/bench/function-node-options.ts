import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  FunctionLogs,
  InvocationTracing,
  ServiceFunction,
  TraceWriting,
} from '../../lib/constructs/service-function';
import { authorizerHandlerModule } from '../../lib/stack';

/**
 * The NODE_OPTIONS the stack gives its functions, read from a `ServiceFunction` built in a
 * throwaway app (bundling skipped), so a change to the construct's setting reaches the bench as it
 * is. Undefined when the construct sets none.
 */
export function functionNodeOptions(): string | undefined {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'NodeOptionsProbe');
  const probe = new ServiceFunction(stack, 'Probe', {
    functionName: 'node-options-probe',
    handlerModule: authorizerHandlerModule,
    description: 'Reads the environment the construct sets',
    environment: {},
    logs: new FunctionLogs(stack, 'Logs', {
      logGroupName: 'node-options-probe',
      retention: RetentionDays.ONE_DAY,
      encryptionKey: new kms.Key(stack, 'LogKey'),
      removalPolicy: RemovalPolicy.DESTROY,
    }),
    tracing: new TraceWriting(stack, 'Tracing'),
    invocationTracing: InvocationTracing.sampledByApi,
  });
  const cfn = probe.function.node.defaultChild as CfnFunction;
  const environment = stack.resolve(cfn.environment) as { variables?: Record<string, string> } | undefined;
  return environment?.variables?.NODE_OPTIONS;
}
