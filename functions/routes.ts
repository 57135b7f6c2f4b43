import { catalogRoutes } from './api/catalog/routes';
import { customerRoutes } from './api/customers/routes';
import { eventRoutes } from './api/events/routes';
import { invoiceRoutes } from './api/invoices/routes';
import { payPageRoutes } from './api/pay/routes';
import { paymentRoutes } from './api/payments/routes';
import { portalSessionRoutes } from './api/portal-sessions/routes';
import { processorAccountRoutes } from './api/processor-accounts/routes';
import { processorEventRoutes } from './api/processor-events/routes';
import { sandboxRoutes } from './api/sandbox/routes';
import { webhookDeliveryRoutes } from './api/webhook-deliveries/routes';
import { webhookRecoveryRoutes } from './api/webhook-recoveries/routes';
import { webhookRoutes } from './api/webhooks/routes';
import type { Stage } from './config';
import { portalPageRoutes } from './portal/routes';
import type { RouteDefinition } from './route-definition';

/**
 * The route table, assembled from the routes each resource declares beside its handlers. The CDK
 * stack, the local gateway and `docs/openapi.json` all derive from it; no function imports it, so
 * no function's bundle carries another resource's schemas.
 */
export const routes = {
  ...catalogRoutes,
  ...customerRoutes,
  ...invoiceRoutes,
  ...webhookRoutes,
  ...webhookDeliveryRoutes,
  ...webhookRecoveryRoutes,
  ...paymentRoutes,
  ...eventRoutes,
  ...sandboxRoutes,
  ...payPageRoutes,
  ...portalSessionRoutes,
  ...portalPageRoutes,
  ...processorAccountRoutes,
  ...processorEventRoutes,
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

export const routeList: readonly RouteDefinition[] = Object.values(routes);

/** The routes a stage serves: the deployed API and the local gateway register only these. */
export function routesOfStage(routes: readonly RouteDefinition[], stage: Stage): RouteDefinition[] {
  return routes.filter((route) => route.stages === undefined || route.stages.includes(stage));
}
