import { defineRoute, type RouteDefinition } from '../../route-definition';
import {
  LinkedProcessorAccount,
  LinkProcessorAccountBody,
  ProcessorAccount,
  ProcessorAccountPathParams,
} from './schemas';

/**
 * A merchant's account at the payment processor (docs/processor.md,
 * docs/decisions/stripe-connect-accounts.md): linked once, onboarded through the processor's own pages.
 */
export const processorAccountRoutes = {
  linkProcessorAccount: defineRoute({
    operationId: 'linkProcessorAccount',
    method: 'POST',
    path: '/merchants/{merchantId}/processor-account',
    summary:
      "Open the merchant's processor account, or reuse it, and answer a link that onboards the merchant onto it",
    tag: 'Processor account',
    handler: 'api/processor-accounts/link-processor-account',
    merchantScope: 'path',
    request: { params: ProcessorAccountPathParams, body: LinkProcessorAccountBody },
    successStatus: 201,
    response: LinkedProcessorAccount,
    callsProcessor: true,
    // Seals the onboarding link in the stored response, as a portal link is sealed.
    usesSecretsKey: true,
    // Two processor calls in a row, each with the SDK's timeout and one retry.
    timeoutSeconds: 25,
  }),
  getProcessorAccount: defineRoute({
    operationId: 'getProcessorAccount',
    method: 'GET',
    path: '/merchants/{merchantId}/processor-account',
    summary: "Get the merchant's processor account and its state",
    tag: 'Processor account',
    handler: 'api/processor-accounts/get-processor-account',
    merchantScope: 'path',
    request: { params: ProcessorAccountPathParams },
    successStatus: 200,
    response: ProcessorAccount,
  }),
} as const satisfies Record<string, RouteDefinition>;
