import { functionEnvironment } from '../config';
import { type PaymentProcessor, ProcessorUnavailableError } from './payment-processor';
import { SandboxProcessor } from './sandbox-processor';

let sandbox: SandboxProcessor | undefined;

/**
 * The processor of this stage: the simulator in the sandbox; none in production yet,
 * which every processor path answers with 503.
 */
export function paymentProcessor(): PaymentProcessor {
  if (functionEnvironment().STAGE !== 'sandbox') throw new ProcessorUnavailableError();
  return sandboxProcessor();
}

/** The simulator itself, for the sandbox-only routes that use more of it than the port offers. */
export function sandboxProcessor(): SandboxProcessor {
  sandbox ??= new SandboxProcessor({ now: () => new Date() });
  return sandbox;
}
