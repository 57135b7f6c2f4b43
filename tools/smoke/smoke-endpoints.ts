import type { StageUnderTest } from './access-checks';
import { CheckFailure } from './check-failure';
import { expectStatus } from './smoke-client';

/** The name every endpoint the smoke registers carries, so a later run can find one left behind. */
export const SmokeEndpointName = 'npm run smoke';

/**
 * An endpoint older than this, of the smoke's name, was left by a run that was killed before it
 * could delete it: no run lasts that long (the webhook wait is at most 10 minutes).
 */
const LeftBehindAfterMs = 30 * 60 * 1000;

export interface RegisteredEndpoint {
  readonly webhookEndpointId: string;
  readonly signingSecret: string;
}

const endpointsPath = (stage: StageUnderTest) => `merchants/${stage.merchantId}/webhook-endpoints`;

/** Registers the smoke's endpoint for `invoices.InvoicePaid` at `url`. */
export async function registerSmokeEndpoint(
  stage: StageUnderTest,
  url: string,
  idempotencyKey: string,
): Promise<RegisteredEndpoint> {
  const created = expectStatus(
    await stage.request('POST', endpointsPath(stage), {
      key: stage.key.apiKey,
      idempotencyKey,
      body: { url, name: SmokeEndpointName, eventTypes: ['invoices.InvoicePaid'] },
    }),
    201,
    'POST /merchants/{merchantId}/webhook-endpoints',
  );
  const { webhookEndpointId, signingSecret } = created;
  if (
    typeof webhookEndpointId !== 'string' ||
    typeof signingSecret !== 'string' ||
    !signingSecret.startsWith('whsec_')
  ) {
    throw new CheckFailure('the created endpoint has no webhookEndpointId or no whsec_ signingSecret');
  }
  return { webhookEndpointId, signingSecret };
}

export async function deleteSmokeEndpoint(
  stage: StageUnderTest,
  webhookEndpointId: string,
  idempotencyKey: string,
): Promise<void> {
  const deleted = expectStatus(
    await stage.request('DELETE', `${endpointsPath(stage)}/${webhookEndpointId}`, {
      key: stage.key.apiKey,
      idempotencyKey,
    }),
    200,
    'DELETE /merchants/{merchantId}/webhook-endpoints/{webhookEndpointId}',
  );
  if (deleted.status !== 'deleted') {
    throw new CheckFailure(`the endpoint is ${String(deleted.status)} after DELETE, expected deleted`);
  }
}

/**
 * Deletes the endpoints earlier runs left behind (killed before their own cleanup): a merchant has
 * room for 20, and each would receive the smoke merchant's events. Resolves with how many it removed.
 */
export async function removeLeftBehindEndpoints(stage: StageUnderTest, now: number): Promise<number> {
  const page = expectStatus(
    await stage.request('GET', endpointsPath(stage), { key: stage.key.apiKey, query: { limit: 100 } }),
    200,
    'GET /merchants/{merchantId}/webhook-endpoints',
  );
  const items = Array.isArray(page.items)
    ? (page.items as { webhookEndpointId: string; name?: string; createdAt: string }[])
    : [];
  const leftBehind = items.filter(
    (endpoint) =>
      endpoint.name === SmokeEndpointName && now - Date.parse(endpoint.createdAt) > LeftBehindAfterMs,
  );
  for (const endpoint of leftBehind) {
    await deleteSmokeEndpoint(
      stage,
      endpoint.webhookEndpointId,
      `smoke-left-behind-${endpoint.webhookEndpointId}`,
    );
  }
  return leftBehind.length;
}
