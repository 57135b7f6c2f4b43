import { InvokeCommand, type InvokeCommandInput, type LambdaClient } from '@aws-sdk/client-lambda';
import type { Stage } from '../../functions/config';
import { stackName } from '../../lib/stack-name';
import { AdminError } from './operations';

/** What a RequestResponse invocation answered: the function's error kind, if any, and its JSON. */
export interface InvocationAnswer {
  /** `Unhandled` or `Handled` when the function failed; the payload then holds `errorType`. */
  readonly functionError: string | undefined;
  readonly payload: unknown;
}

/** Invokes a stage function found by its fixed name; a missing function says which stack to look for. */
export async function invokeStageFunction(
  client: LambdaClient,
  input: InvokeCommandInput,
  stage: Stage,
): Promise<InvocationAnswer> {
  try {
    const output = await client.send(new InvokeCommand(input));
    return { functionError: output.FunctionError, payload: parsedPayload(output.Payload) };
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    throw new AdminError(
      `no function named ${input.FunctionName} in this account and region: is the stack ${stackName(stage)} deployed there?`,
      { cause: error },
    );
  }
}

function parsedPayload(payload: Uint8Array | undefined): unknown {
  if (payload === undefined || payload.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return undefined;
  }
}
