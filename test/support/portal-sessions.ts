import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { documentClient, tableName } from '../../functions/store/client';
import { portalSessionKeys } from '../../functions/store/portal-sessions';
import { type ApiClient, newKey } from './local-runtime';

export interface OpenedPortalSession {
  /** The create route's answer, with its `url`. */
  readonly created: Record<string, any>;
  /** The link token: what the url holds after `#`. */
  readonly linkToken: string;
  readonly sessionToken: string;
  /** `Bearer <session token>`, for the `authorization` option of a request. */
  readonly bearer: string;
}

/** The link token a portal session's url carries in its fragment. */
export const linkTokenOf = (url: string) => new URL(url).hash.slice(1);

/** Creates a portal session with `api` (a merchant's key) and returns its answer, checked 201. */
export async function createPortalSession(
  api: ApiClient,
  merchantId: string,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const result = await api('POST', `/merchants/${merchantId}/portal-sessions`, {
    body,
    idempotencyKey: newKey(),
  });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  return result.body;
}

/** Creates a portal session and opens its link, as the portal page does. */
export async function openPortalSession(
  api: ApiClient,
  merchantId: string,
  body: Record<string, unknown> = { scope: 'manage' },
): Promise<OpenedPortalSession> {
  const created = await createPortalSession(api, merchantId, body);
  const linkToken = linkTokenOf(created.url);
  const exchanged = await api('POST', '/portal/exchange', {
    authorization: null,
    body: { token: linkToken },
  });
  expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  const { sessionToken } = exchanged.body;
  return { created, linkToken, sessionToken, bearer: `Bearer ${sessionToken}` };
}

/** Moves a session's expiry to the past, as time would, in the table of the runtime in this process. */
export async function expirePortalSession(portalSessionId: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: portalSessionKeys.portalSession(portalSessionId),
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
    }),
  );
}
