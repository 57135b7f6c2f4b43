import type { Stage } from '../functions/config';

/** The stack of one stage. Its name is fixed so that tools can find its resources by name. */
export function stackName(stage: Stage): string {
  return `MerchantPayments-${stage}`;
}

/**
 * The name of a stack's REST API. API Gateway makes up the API's id at deploy time, so the admin
 * CLI finds the API by this name to flush its authorizer cache.
 */
export function restApiName(stack: string): string {
  return `${stack}-api`;
}
