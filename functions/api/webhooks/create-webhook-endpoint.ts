import { randomBytes } from 'node:crypto';
import { RuleViolation } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { isoTimestamp } from '../../domain/time';
import { maxEndpointsPerMerchant, newWebhookEndpoint } from '../../domain/webhook-endpoint';
import { newSigningSecret } from '../../domain/webhook-secret';
import { httpHandler } from '../../http/http-handler';
import { commitWithIdempotency } from '../../store/idempotency';
import { TransactionConditionFailed } from '../../store/transaction';
import { buildAdjustEndpointCount, buildPutNewEndpoint } from '../../store/webhook-endpoints';
import { reviveSecretReplay, sealSigningSecret, withSecret } from './endpoint-secret';
import { webhookRoutes } from './routes';

/** 201 with the only plaintext copy of the signing secret; the 21st live endpoint is a 409. */
export const handler = httpHandler(
  webhookRoutes.createWebhookEndpoint,
  async ({ params, body, idempotency, now }) => {
    const endpoint = newWebhookEndpoint({
      webhookEndpointId: newId('whk'),
      merchantId: params.merchantId,
      url: body.url,
      name: body.name,
      eventTypes: body.eventTypes,
      now: isoTimestamp(now),
    });
    const signingSecret = newSigningSecret((size) => randomBytes(size));
    const sealed = await sealSigningSecret(endpoint, signingSecret);
    const { response, storedBody } = withSecret(endpoint, signingSecret, sealed);
    try {
      return await commitWithIdempotency(
        idempotency,
        { status: 201, body: response },
        [buildAdjustEndpointCount(endpoint.merchantId, 1), ...buildPutNewEndpoint(endpoint, sealed)],
        storedBody,
      );
    } catch (error) {
      if (error instanceof TransactionConditionFailed && error.failureAt(0) !== undefined) {
        throw new RuleViolation(
          'limit_exceeded',
          `A merchant can have at most ${maxEndpointsPerMerchant} webhook endpoints.`,
        );
      }
      throw error;
    }
  },
  { reviveReplay: reviveSecretReplay },
);
