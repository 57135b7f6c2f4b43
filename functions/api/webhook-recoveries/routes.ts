import { RecoveryLimit } from '../../domain/endpoint-quotas';
import { defineRoute, type RouteDefinition } from '../../route-definition';
import {
  RecoverDeliveriesBody,
  RecoveryPathParams,
  WebhookEndpointPathParams,
  WebhookRecovery,
} from './schemas';

/**
 * Bulk recovery of an endpoint's exhausted deliveries (docs/decisions/bulk-recovery.md): a resource of its
 * own, so the endpoint routes' functions carry none of its schemas.
 */
export const webhookRecoveryRoutes = {
  recoverWebhookDeliveries: defineRoute({
    operationId: 'recoverWebhookDeliveries',
    method: 'POST',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/recover',
    summary:
      'Redeliver, in the background, the exhausted deliveries of a window of up to 90 days, once per event',
    tag: 'Webhooks',
    handler: 'api/webhook-recoveries/recover-webhook-deliveries',
    merchantScope: 'path',
    portal: 'manage',
    request: { params: WebhookEndpointPathParams, body: RecoverDeliveriesBody },
    successStatus: 201,
    response: WebhookRecovery,
    needsAnsweringEndpoint: true,
    ownRateLimit:
      `the endpoint had ${RecoveryLimit.cap} recoveries started within the last ${RecoveryLimit.windowMs / 60_000} ` +
      'minutes; it takes another when the oldest of them is that old. Nothing is started or written.',
  }),
  getWebhookRecovery: defineRoute({
    operationId: 'getWebhookRecovery',
    method: 'GET',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/recoveries/{recoveryId}',
    summary: "Get a recovery's status and counts as it progresses",
    tag: 'Webhooks',
    handler: 'api/webhook-recoveries/get-webhook-recovery',
    merchantScope: 'path',
    portal: 'read',
    request: { params: RecoveryPathParams },
    successStatus: 200,
    response: WebhookRecovery,
  }),
} as const satisfies Record<string, RouteDefinition>;
