import { functionEnvironment } from '../config';
import type { ProcessorAccounts } from './processor-accounts';
import { sandboxProcessorAccounts } from './sandbox-processor-accounts';
import { stripeProcessorAccounts } from './stripe/stripe-processor-accounts';

/**
 * The merchants' processor accounts of this stage: simulated in the sandbox, Stripe Connect in
 * production (whose client is built once per process, on first use).
 */
export function processorAccounts(): ProcessorAccounts {
  return functionEnvironment().STAGE === 'sandbox'
    ? sandboxProcessorAccounts(() => new Date())
    : stripeProcessorAccounts();
}
