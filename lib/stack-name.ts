import type { Stage } from '../functions/config';

/** The stack of one stage. Its name is fixed so that tools can find its resources by name. */
export function stackName(stage: Stage): string {
  return `MerchantPayments-${stage}`;
}

/** The release pipeline's stack, and its CodePipeline pipeline (`lib/release-pipeline.ts`). */
export const releasePipelineName = 'MerchantPayments-release';

/**
 * The name of a stack's REST API. API Gateway makes up the API's id at deploy time, so the admin
 * CLI finds the API by this name to flush its authorizer cache.
 */
export function restApiName(stack: string): string {
  return `${stack}-api`;
}

/**
 * The physical names of a stack's queues, fixed so the admin CLI finds them by name (GetQueueUrl)
 * for the operator commands, as it finds the reconciler function by `<stack>-reconciler`.
 */
export function queueNames(stack: string) {
  return {
    delivery: `${stack}-delivery`,
    deliveryDeadLetters: `${stack}-delivery-dlq`,
    routerFailures: `${stack}-router-failures`,
    reconcilerFailures: `${stack}-reconciler-failures`,
    mail: `${stack}-mail`,
    mailDeadLetters: `${stack}-mail-dlq`,
    sesEventsFailures: `${stack}-ses-events-failures`,
  } as const;
}

/** The physical name of one of a stack's functions (`<stack>-router`, `<stack>-reconciler`, …). */
export function functionName(stack: string, suffix: string): string {
  return `${stack}-${suffix}`;
}

/**
 * The one log group of a stack's functions (`<stack>-functions`), where each function writes the
 * streams Lambda names after it. Not under `/aws/lambda/`, the prefix Lambda keeps for a
 * function's own group.
 */
export function functionLogGroupName(stack: string): string {
  return `${stack}-functions`;
}

/**
 * The stack's SES configuration set (every email is sent through it) and the SNS topic its event
 * destination publishes bounces, complaints, deliveries and rejects to.
 */
export function emailResourceNames(stack: string) {
  return {
    configurationSet: `${stack}-email`,
    eventsTopic: `${stack}-email-events`,
  } as const;
}
