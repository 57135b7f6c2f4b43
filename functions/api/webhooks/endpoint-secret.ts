import type { WebhookEndpoint } from '../../domain/webhook-endpoint';
import { secretSealer } from '../../secrets/secret-sealer-from-env';

const contextOf = (endpoint: Pick<WebhookEndpoint, 'merchantId' | 'webhookEndpointId'>) => ({
  merchantId: endpoint.merchantId,
  webhookEndpointId: endpoint.webhookEndpointId,
});

export function sealSigningSecret(endpoint: WebhookEndpoint, signingSecret: string): Promise<string> {
  return secretSealer().seal(signingSecret, contextOf(endpoint));
}

/**
 * The response of create and rotate holds the plaintext secret; the idempotency record keeps it
 * sealed instead (docs/decisions/endpoint-management.md), and a replay opens it again.
 */
export function withSecret(endpoint: WebhookEndpoint, signingSecret: string, sealedSigningSecret: string) {
  return {
    response: { ...endpoint, signingSecret },
    storedBody: { ...endpoint, sealedSigningSecret },
  };
}

export async function reviveSecretReplay(storedBody: unknown): Promise<unknown> {
  const { sealedSigningSecret, ...endpoint } = storedBody as WebhookEndpoint & {
    sealedSigningSecret: string;
  };
  const signingSecret = await secretSealer().open(sealedSigningSecret, contextOf(endpoint));
  return { ...endpoint, signingSecret };
}
