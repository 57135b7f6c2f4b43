import { GetCommand, type GetCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';

/**
 * Portal sessions as the portal page reads them: only the lookup its framing needs
 * (docs/decisions/merchant-portal-page.md). The sessions API owns these items and their writes.
 */
export interface PortalSessionRecord {
  readonly id: string;
  readonly merchantId: string;
  readonly scope: 'read' | 'manage';
  readonly allowedOrigins: string[];
  readonly expiresAt: string;
  readonly createdAt: string;
  readonly revokedAt?: string;
  readonly exchangedAt?: string;
}

export function buildGetPortalSession(portalSessionId: string): GetCommandInput {
  return {
    TableName: tableName(),
    Key: { PK: `PORTALSESSION#${portalSessionId}`, SK: 'PORTALSESSION' },
    ConsistentRead: true,
  };
}

export async function getPortalSession(portalSessionId: string): Promise<PortalSessionRecord | undefined> {
  const { Item } = await documentClient().send(new GetCommand(buildGetPortalSession(portalSessionId)));
  return Item === undefined ? undefined : (Item as PortalSessionRecord);
}
