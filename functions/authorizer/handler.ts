import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { functionEnvironment } from '../config';
import type { Principal } from '../domain/principal';
import { logger } from '../observability/logger';
import { getApiKey, getMerchantRecord } from '../store/merchants';
import { getPortalSession } from '../store/portal-sessions';
import { authorize } from './authorize';

/**
 * REQUEST authorizer. API Gateway caches the answer per Authorization header for 60 s, so the
 * policy allows every method of the stage rather than only the one being called. The answer carries
 * the merchant's write shard history (`merchantShards`, JSON), read once per cached answer, so no
 * route reads the merchant item for it: a raise takes effect ten minutes after it is written, far
 * longer than the cache keeps an answer.
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const authorization = event.headers?.Authorization ?? event.headers?.authorization;
  const result = await authorize(authorization, {
    stage: functionEnvironment().STAGE,
    now: new Date(),
    findKey: getApiKey,
    findPortalSession: getPortalSession,
  });
  if (!result.allowed) {
    logger.info('request refused by authorizer', {
      requestId: event.requestContext?.requestId,
      reason: result.reason,
    });
    // API Gateway answers this exact message with its UNAUTHORIZED (401) gateway response.
    throw new Error('Unauthorized');
  }
  const merchant = await getMerchantRecord(result.merchantId);
  return {
    principalId: result.merchantId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [
        { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWildcard(event.methodArn) },
      ],
    },
    context: {
      merchantId: result.merchantId,
      ...principalContext(result.principal),
      merchantShards: JSON.stringify(merchant?.writeShards ?? []),
    },
  };
}

/** The principal as the flat string fields an authorizer's context holds; `request-context.ts` reads them back. */
function principalContext(principal: Principal): Record<string, string> {
  const key = { principal: principal.kind, keyId: principal.keyId, keyPrefix: principal.keyPrefix };
  if (principal.kind === 'apiKey') return key;
  return { ...key, portalSessionId: principal.portalSessionId, portalScope: principal.scope };
}

/** arn:aws:execute-api:region:account:apiId/stage/METHOD/path → …/stage/* */
function stageWildcard(methodArn: string): string {
  const [arnPrefix = methodArn, stage = '*'] = methodArn.split('/');
  return `${arnPrefix}/${stage}/*`;
}
