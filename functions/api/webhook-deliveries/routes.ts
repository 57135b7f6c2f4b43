import { TestDeliveryLimit } from '../../domain/endpoint-quotas';
import { defineRoute, type RouteDefinition } from '../../route-definition';
import { listResponse } from '../shared-schemas';
import {
  DeliveryPathParams,
  EmptyBody,
  ListDeliveriesQuery,
  TestDeliveryBody,
  WebhookDelivery,
  WebhookEndpointPathParams,
} from './schemas';

/**
 * An endpoint's deliveries: listed with their attempts, redelivered, and test deliveries. A resource
 * of its own, so the endpoint routes' functions carry none of the delivery schemas.
 */
export const webhookDeliveryRoutes = {
  listWebhookDeliveries: defineRoute({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/deliveries',
    summary: 'List the deliveries of an endpoint with their attempts, newest first',
    tag: 'Webhooks',
    handler: 'api/webhook-deliveries/list-webhook-deliveries',
    merchantScope: 'path',
    portal: 'read',
    request: { params: WebhookEndpointPathParams, query: ListDeliveriesQuery },
    successStatus: 200,
    response: listResponse(WebhookDelivery),
  }),
  redeliverWebhook: defineRoute({
    operationId: 'redeliverWebhook',
    method: 'POST',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/deliveries/{webhookDeliveryId}/redeliver',
    summary: 'Deliver an event again as a new delivery linked to the original',
    tag: 'Webhooks',
    handler: 'api/webhook-deliveries/redeliver-webhook',
    merchantScope: 'path',
    portal: 'manage',
    request: { params: DeliveryPathParams, body: EmptyBody },
    successStatus: 201,
    response: WebhookDelivery,
  }),
  sendTestWebhook: defineRoute({
    operationId: 'sendTestWebhook',
    method: 'POST',
    path: '/merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}/test',
    summary: 'Send a test delivery of sample data of an event type, marked by Merchant-Webhook-Test: true',
    tag: 'Webhooks',
    handler: 'api/webhook-deliveries/send-test-webhook',
    merchantScope: 'path',
    portal: 'manage',
    request: { params: WebhookEndpointPathParams, body: TestDeliveryBody },
    successStatus: 201,
    response: WebhookDelivery,
    ownRateLimit:
      `the endpoint had ${TestDeliveryLimit.cap} test deliveries within the last ${TestDeliveryLimit.windowMs / 60_000} ` +
      'minutes; it takes another when the oldest of them is that old. Nothing is sent or written.',
  }),
} as const satisfies Record<string, RouteDefinition>;
