import { defineRoute, type RouteDefinition } from '../../route-definition';
import { StripeEventBody, StripeEventReceipt } from './schemas';

/** The payment processors' webhooks (docs/processor.md#stripes-events-in): production only. */
export const processorEventRoutes = {
  receiveStripeEvent: defineRoute({
    operationId: 'receiveStripeEvent',
    method: 'POST',
    path: '/processors/stripe/events',
    summary: "Public: Stripe's Connect webhook, verified by its Stripe-Signature (production only)",
    tag: 'Processor events',
    handler: 'api/processor-events/receive-stripe-event',
    merchantScope: 'none',
    request: { body: StripeEventBody },
    successStatus: 200,
    response: StripeEventReceipt,
    access: 'public',
    signedByProcessor: 'stripe',
    stages: ['production'],
  }),
} as const satisfies Record<string, RouteDefinition>;
