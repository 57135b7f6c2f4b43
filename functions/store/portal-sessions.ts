import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecordState, ApiKeyStatus } from '../domain/api-key';
import { PortalSessionLimits, type PortalSessionRecord } from '../domain/portal-session';
import { epochSeconds } from '../domain/time';
import { documentClient, tableName } from './client';
import { merchantKeys } from './merchants';
import { batchGet } from './reads';
import { EntityType } from './table';
import { oldImage } from './transaction';

export const portalSessionKeys = {
  /** Looked up by the id every portal token embeds, without a merchant (as API keys are). */
  portalSession: (portalSessionId: string) => ({
    PK: `PORTALSESSION#${portalSessionId}`,
    SK: 'PORTALSESSION',
  }),
} as const;

/** The put of a new session, for the create route's transaction with its idempotency record. */
export function buildPutPortalSession(record: PortalSessionRecord) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...portalSessionKeys.portalSession(record.portalSessionId),
        entityType: EntityType.portalSession,
        ...record,
        ttl: epochSeconds(new Date(record.expiresAt)) + PortalSessionLimits.keptAfterExpirySeconds,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** A strongly consistent read, so a revocation or an exchange is seen at once. */
export async function getPortalSession(portalSessionId: string): Promise<PortalSessionRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: portalSessionKeys.portalSession(portalSessionId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined ? undefined : toPortalSessionRecord(Item);
}

export interface PortalSessionWithKey {
  readonly session: PortalSessionRecord | undefined;
  /** The status and expiry of the key that made the session; undefined when the key is gone. */
  readonly key: ApiKeyRecordState | undefined;
}

/**
 * The session and the API key that made it, in one strongly consistent BatchGetItem: what each call of
 * a portal session re-reads, so a revocation ends it at once whatever the authorizer's cache holds.
 */
export async function getPortalSessionWithKey(
  portalSessionId: string,
  keyId: string,
): Promise<PortalSessionWithKey> {
  const sessionKey = portalSessionKeys.portalSession(portalSessionId);
  const apiKey = merchantKeys.apiKey(keyId);
  const items = await batchGet([sessionKey, apiKey]);
  const session = items.find((item) => item.PK === sessionKey.PK);
  const key = items.find((item) => item.PK === apiKey.PK);
  return {
    session: session === undefined ? undefined : toPortalSessionRecord(session),
    key:
      key === undefined
        ? undefined
        : {
            status: key.status as ApiKeyStatus,
            ...(typeof key.expiresAt === 'string' ? { expiresAt: key.expiresAt } : {}),
          },
  };
}

export type LinkExchange =
  | { readonly exchanged: true; readonly session: PortalSessionRecord }
  /** The session as it was when the condition failed; undefined when there is none. */
  | { readonly exchanged: false; readonly session: PortalSessionRecord | undefined };

/**
 * Exchanges the link once, in one conditional write: the session must exist, hold this link's hash,
 * be unrevoked, unexpired and not yet exchanged. Of two exchanges of one link exactly one succeeds.
 * A refusal returns the item as it was, so the caller tells why without a second read.
 */
export async function exchangePortalLink(
  portalSessionId: string,
  change: { linkTokenHash: string; sessionTokenHash: string; exchangedAt: string },
): Promise<LinkExchange> {
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: portalSessionKeys.portalSession(portalSessionId),
        UpdateExpression: 'SET sessionTokenHash = :session, exchangedAt = :at',
        ConditionExpression:
          'linkTokenHash = :link AND attribute_not_exists(exchangedAt) AND ' +
          'attribute_not_exists(revokedAt) AND expiresAt > :at',
        ExpressionAttributeValues: {
          ':link': change.linkTokenHash,
          ':session': change.sessionTokenHash,
          ':at': change.exchangedAt,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { exchanged: true, session: toPortalSessionRecord(Attributes ?? {}) };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const old = oldImage(error.Item);
    return { exchanged: false, session: old === undefined ? undefined : toPortalSessionRecord(old) };
  }
}

/**
 * The update that revokes a session of `merchantId`, for the revoke route's transaction. A session
 * already revoked keeps its first `revokedAt`; another merchant's session fails the condition.
 */
export function buildRevokePortalSession(merchantId: string, portalSessionId: string, revokedAt: string) {
  return {
    Update: {
      TableName: tableName(),
      Key: portalSessionKeys.portalSession(portalSessionId),
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
      ConditionExpression: 'merchantId = :merchant',
      ExpressionAttributeValues: { ':at': revokedAt, ':merchant': merchantId },
    },
  };
}

function toPortalSessionRecord(item: Record<string, unknown>): PortalSessionRecord {
  const optional = (name: string) => (typeof item[name] === 'string' ? { [name]: item[name] as string } : {});
  return {
    portalSessionId: String(item.portalSessionId),
    merchantId: String(item.merchantId),
    scope: item.scope as PortalSessionRecord['scope'],
    allowedOrigins: Array.isArray(item.allowedOrigins) ? item.allowedOrigins.map(String) : [],
    createdAt: String(item.createdAt),
    expiresAt: String(item.expiresAt),
    keyId: String(item.keyId),
    linkTokenHash: String(item.linkTokenHash),
    ...optional('sessionTokenHash'),
    ...optional('exchangedAt'),
    ...optional('revokedAt'),
  };
}
