import { describe, expect, it } from 'vitest';
import { catalogRoutes } from '../../functions/api/catalog/routes';
import { customerRoutes } from '../../functions/api/customers/routes';
import { eventRoutes } from '../../functions/api/events/routes';
import { invoiceRoutes } from '../../functions/api/invoices/routes';
import { payPageRoutes } from '../../functions/api/pay/routes';
import { paymentRoutes } from '../../functions/api/payments/routes';
import { portalSessionRoutes } from '../../functions/api/portal-sessions/routes';
import { processorAccountRoutes } from '../../functions/api/processor-accounts/routes';
import { processorEventRoutes } from '../../functions/api/processor-events/routes';
import { sandboxRoutes } from '../../functions/api/sandbox/routes';
import { webhookDeliveryRoutes } from '../../functions/api/webhook-deliveries/routes';
import { webhookRecoveryRoutes } from '../../functions/api/webhook-recoveries/routes';
import { webhookRoutes } from '../../functions/api/webhooks/routes';
import { portalPageRoutes } from '../../functions/portal/routes';
import type { RouteDefinition } from '../../functions/route-definition';
import { routeList, routes, routesOfStage } from '../../functions/routes';

describe('routesOfStage', () => {
  const everywhere = routeList[0] as RouteDefinition;
  const sandboxOnly: RouteDefinition = { ...everywhere, operationId: 'sandboxOnly', stages: ['sandbox'] };

  it('serves a route without stages on every stage', () => {
    expect(routesOfStage([everywhere], 'sandbox')).toEqual([everywhere]);
    expect(routesOfStage([everywhere], 'production')).toEqual([everywhere]);
  });

  it('leaves a sandbox-only route out of production', () => {
    expect(routesOfStage([everywhere, sandboxOnly], 'sandbox')).toEqual([everywhere, sandboxOnly]);
    expect(routesOfStage([everywhere, sandboxOnly], 'production')).toEqual([everywhere]);
  });

  it('keeps operation ids and method + path pairs unique across the table', () => {
    const ids = routeList.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const endpoints = routeList.map((route) => `${route.method} ${route.path}`);
    expect(new Set(endpoints).size).toBe(endpoints.length);
  });
});

describe('routes', () => {
  const resourceRoutes = [
    catalogRoutes,
    customerRoutes,
    invoiceRoutes,
    webhookRoutes,
    webhookDeliveryRoutes,
    webhookRecoveryRoutes,
    paymentRoutes,
    eventRoutes,
    sandboxRoutes,
    payPageRoutes,
    portalSessionRoutes,
    portalPageRoutes,
    processorAccountRoutes,
    processorEventRoutes,
  ].flatMap((declared) => Object.entries(declared));

  it('holds every route each resource declares, none shadowed by another of the same name', () => {
    expect(routeList).toEqual(resourceRoutes.map(([, route]) => route));
  });

  it('names each route by its operationId', () => {
    for (const [name, route] of Object.entries(routes)) expect(route.operationId).toBe(name);
    for (const [name, route] of resourceRoutes) expect(route.operationId).toBe(name);
  });
});
