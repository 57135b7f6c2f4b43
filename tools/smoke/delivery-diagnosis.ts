import type { StageUnderTest } from './access-checks';
import { describeResponse } from './smoke-client';

interface DeliveryRecord {
  readonly eventType?: string;
  readonly status?: string;
  readonly attemptCount?: number;
  readonly attempts?: readonly { responseStatusCode?: number | null; errorMessage?: string | null }[];
}

/**
 * What the service says of its `eventType` delivery to the endpoint, for a FAIL line when the
 * receiver waited in vain: none made (the stream, the router), or its status and its last
 * attempt's answer or error (TLS trust, a private address refused, the receiver's 401).
 */
export async function deliveryDiagnosis(
  stage: StageUnderTest,
  webhookEndpointId: string,
  eventType: string,
): Promise<string> {
  const response = await stage
    .request('GET', `merchants/${stage.merchantId}/webhook-endpoints/${webhookEndpointId}/deliveries`, {
      key: stage.key.apiKey,
      query: { limit: 10 },
    })
    .catch((error: Error) => error);
  if (response instanceof Error) return `its deliveries could not be read: ${response.message}`;
  const items = (response.body as { items?: DeliveryRecord[] } | undefined)?.items;
  if (response.status !== 200 || !Array.isArray(items)) {
    return `its deliveries could not be read: ${describeResponse(response)}`;
  }
  const delivery = items.find((item) => item.eventType === eventType);
  if (delivery === undefined) return `the service made no ${eventType} delivery to the endpoint`;
  const last = delivery.attempts?.at(-1);
  const lastAnswer =
    last === undefined
      ? 'none attempted yet'
      : (last.errorMessage ?? `answered ${String(last.responseStatusCode)}`);
  return `the service's delivery is ${String(delivery.status)} after ${String(delivery.attemptCount)} attempt(s), the last: ${lastAnswer}`;
}
