import {
  InvokeCommand,
  type InvokeCommandInput,
  type InvokeCommandOutput,
  LambdaClient,
} from '@aws-sdk/client-lambda';
import type { Stage } from '../../functions/config';
import { OperatorRoutes } from '../local/operator-channel';
import { functionName, stackName } from '../stack-name';
import { callLocalOperator } from './local-operator';
import { AdminError } from './operations';
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
  let output: InvokeCommandOutput;
  try {
    output = await client.send(new InvokeCommand(input));
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    throw new AdminError(
      `no function named ${input.FunctionName} in this account and region: is the stack ${stackName(stage)} deployed there?`,
      { cause: error },
    );
  }
  const payload = parsedPayload(output.Payload);
  if (output.FunctionError !== undefined) {
    const { errorType, errorMessage } = (payload ?? {}) as { errorType?: unknown; errorMessage?: unknown };
    const reason = [errorType, errorMessage].filter((part) => typeof part === 'string').join(': ');
    throw new AdminError(
      `the reconciler ${input.FunctionName} failed (${output.FunctionError}): ${reason || 'no error message'}`,
    );
  }
  if (typeof payload !== 'object' || payload === null) {
    throw new AdminError(`the reconciler ${input.FunctionName} returned no result object`);
  }
  return payload;
}

function parsedPayload(payload: Uint8Array | undefined): unknown {
  if (payload === undefined || payload.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return undefined;
  }
}
