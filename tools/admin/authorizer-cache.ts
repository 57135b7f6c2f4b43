import {
  APIGatewayClient,
  FlushStageAuthorizersCacheCommand,
  type FlushStageAuthorizersCacheCommandInput,
  paginateGetRestApis,
  type RestApi,
} from '@aws-sdk/client-api-gateway';
import type { Stage } from '../../functions/config';
import { restApiName, stackName } from '../../lib/stack-name';
import { failureLine } from '../cli/command-failure';
import { flushLocalAuthorizerCache } from '../local/authorizer-cache-flush';
import { AdminError } from './operations';
import type { AdminTarget } from './target';

/**
 * A key change reached the table but not the authorizer cache: the command printed its result
 * (a rotated key is shown only then) and still fails, since the old key may keep working a while.
 */
export class AuthorizerCacheFlushError extends AdminError {
  override name = 'AuthorizerCacheFlushError';
  readonly result: object;

  constructor(message: string, options: { result: object; cause: unknown }) {
    super(message, { cause: options.cause });
    this.result = options.result;
  }
}

/**
 * Runs after a key is revoked or expired in the table, so the key is refused from the very next
 * request instead of after the authorizer's 60 s cache. `change` says what the table now holds.
 */
export async function flushAuthorizerCacheAfter<T extends object>(
  target: AdminTarget,
  result: T,
  change: string,
): Promise<T> {
  try {
    if (target.stateDir === undefined) await flushStageAuthorizerCache(target.stage);
    else await flushLocalAuthorizerCache(target.stateDir);
    return result;
  } catch (error) {
    const reason = failureLine(error);
    throw new AuthorizerCacheFlushError(flushFailure(target, change, reason), { result, cause: error });
  }
}

function flushFailure(target: AdminTarget, change: string, reason: string): string {
  if (target.stateDir !== undefined) {
    return `${change}, but the local runtime's authorizer cache was not flushed (${reason}), so cached answers may still pass until they expire (AUTH_CACHE_SECONDS, 60 s by default)`;
  }
  const api = restApiName(stackName(target.stage));
  return `${change}, but the authorizer cache of stage ${target.stage} was not flushed (${reason}), so cached answers may still pass for up to 60 s; flush it with: aws apigateway flush-stage-authorizers-cache --rest-api-id <id of ${api}> --stage-name ${target.stage}`;
}

export function buildFlushStageAuthorizersCache(
  restApiId: string,
  stage: Stage,
): FlushStageAuthorizersCacheCommandInput {
  // The stack deploys each stage's API to an API Gateway stage of the same name.
  return { restApiId, stageName: stage };
}

/** The id of the one REST API called `name`; none or several is an error, never a guess. */
export function restApiIdNamed(apis: readonly RestApi[], name: string): string {
  const ids = apis.flatMap((api) => (api.name === name && api.id !== undefined ? [api.id] : []));
  if (ids.length === 1) return ids[0] as string;
  if (ids.length === 0) throw new AdminError(`no REST API named ${name} in this account and region`);
  throw new AdminError(`${ids.length} REST APIs are named ${name} (${ids.join(', ')})`);
}

/** Finds the stage's REST API by its fixed name, as the table is found by its name. */
async function flushStageAuthorizerCache(stage: Stage): Promise<void> {
  const client = new APIGatewayClient({});
  try {
    const apis: RestApi[] = [];
    for await (const page of paginateGetRestApis({ client, pageSize: 500 }, {})) {
      apis.push(...(page.items ?? []));
    }
    const restApiId = restApiIdNamed(apis, restApiName(stackName(stage)));
    await client.send(
      new FlushStageAuthorizersCacheCommand(buildFlushStageAuthorizersCache(restApiId, stage)),
    );
  } finally {
    client.destroy();
  }
}
