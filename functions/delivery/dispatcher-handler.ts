import { functionEnvironment } from '../config';
import { secretSealer } from '../secrets/secret-sealer-from-env';
import { createDispatcher } from './dispatcher';
import { sendWebhook } from './send-webhook';

const environment = functionEnvironment();

export const handler = createDispatcher({
  send: sendWebhook,
  sealer: secretSealer,
  timeoutMs: environment.WEBHOOK_TIMEOUT_MS,
  retryDelaySeconds: environment.WEBHOOK_RETRY_DELAY_SECONDS,
  allowLoopback: environment.WEBHOOK_ALLOW_PRIVATE_TARGETS,
});
