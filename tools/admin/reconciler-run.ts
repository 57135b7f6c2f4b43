import { type InvokeCommandInput, LambdaClient } from '@aws-sdk/client-lambda';
import type { Stage } from '../../functions/config';
import { functionName, stackName } from '../../lib/stack-name';
import { OperatorRoutes } from '../local/operator-channel';
import { callLocalOperator } from './local-operator';
import { AdminError } from './operations';
import { invokeStageFunction } from './stage-function';
import type { AdminTarget } from './target';

/**
 * Runs the reconciler once, now, and returns what it answers (`{requeued: n}`): on a stage its
 * Lambda function, invoked and waited for; locally the running runtime's, over its operator channel.
 */
export async function runReconciler(target: AdminTarget): Promise<object> {
  if (target.stateDir !== undefined) return callLocalOperator(target.stateDir, OperatorRoutes.reconcile);
  const client = new LambdaClient({});
  try {
    return await invokeStageReconciler(client, target.stage);
  } finally {
    client.destroy();
  }
}

/** RequestResponse: the command waits for the run and reports its result or its error. */
export function buildInvokeReconciler(stage: Stage): InvokeCommandInput {
  return { FunctionName: functionName(stackName(stage), 'reconciler'), InvocationType: 'RequestResponse' };
}

export async function invokeStageReconciler(client: LambdaClient, stage: Stage): Promise<object> {
  const input = buildInvokeReconciler(stage);
  const { functionError, payload } = await invokeStageFunction(client, input, stage);
  if (functionError !== undefined) {
    const { errorType, errorMessage } = (payload ?? {}) as { errorType?: unknown; errorMessage?: unknown };
    const reason = [errorType, errorMessage].filter((part) => typeof part === 'string').join(': ');
    throw new AdminError(
      `the reconciler ${input.FunctionName} failed (${functionError}): ${reason || 'no error message'}`,
    );
  }
  if (typeof payload !== 'object' || payload === null) {
    throw new AdminError(`the reconciler ${input.FunctionName} returned no result object`);
  }
  return payload;
}
