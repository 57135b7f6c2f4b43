import { expect } from 'vitest';
import type { ApiClient } from './local-runtime';

/** The endpoint's deliveries as the API lists them: newest first, up to 100, with their attempts. */
export async function endpointDeliveries(
  api: ApiClient,
  merchantId: string,
  endpointId: string,
): Promise<any[]> {
  const path = `/merchants/${merchantId}/webhook-endpoints/${endpointId}/deliveries`;
  const page = await api('GET', path, { query: { limit: 100 } });
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return page.body.items;
}

/** Polls the endpoint's deliveries until `done` holds of them (`timeoutMs` at most), and returns them. */
export async function waitForEndpointDeliveries(
  api: ApiClient,
  merchantId: string,
  endpointId: string,
  done: (items: any[]) => boolean,
  timeoutMs = 30_000,
): Promise<any[]> {
  let items: any[] = [];
  await expect
    .poll(
      async () => {
        items = await endpointDeliveries(api, merchantId, endpointId);
        return done(items);
      },
      { timeout: timeoutMs, interval: 100 },
    )
    .toBe(true);
  return items;
}
