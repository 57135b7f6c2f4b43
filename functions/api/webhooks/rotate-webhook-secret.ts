import { randomBytes } from 'node:crypto';
import { isoTimestamp } from '../../domain/time';
import { newSigningSecret } from '../../domain/webhook-secret';
import { httpHandler } from '../../http/http-handler';
import { commitWithIdempotency } from '../../store/idempotency';
import { buildReplaceEndpoint } from '../../store/webhook-endpoints';
import { changeLiveEndpoint } from './endpoint-change';
import { reviveSecretReplay, sealSigningSecret, withSecret } from './endpoint-secret';
import { webhookRoutes } from './routes';

/** A new secret at once: the next delivery attempt signs with it, the old one verifies nothing more. */
export const handler = httpHandler(
  webhookRoutes.rotateWebhookSecret,
  async ({ params, idempotency, now }) =>
    changeLiveEndpoint(params.merchantId, params.webhookEndpointId, async (stored) => {
      const endpoint = { ...stored.endpoint, updatedAt: isoTimestamp(now) };
      const signingSecret = newSigningSecret((size) => randomBytes(size));
      const sealed = await sealSigningSecret(endpoint, signingSecret);
      const { response, storedBody } = withSecret(endpoint, signingSecret, sealed);
      return commitWithIdempotency(
        idempotency,
        { status: 200, body: response },
        buildReplaceEndpoint(stored, { endpoint, sealedSigningSecret: sealed }),
        storedBody,
      );
    }),
  { reviveReplay: reviveSecretReplay },
);
