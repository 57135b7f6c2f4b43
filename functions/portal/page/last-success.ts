import type { WebhookDelivery } from './api-types';

/**
 * How far an endpoint's `lastSucceededAt` may lag while its attempts keep succeeding: the service
 * writes it again only after this long (docs/openapi.json, `lastSucceededAt`, "to within 5
 * minutes"). A unit test holds it to the service's own figure.
 */
export const lastSucceededAtLagMs = 5 * 60 * 1000;

export interface LastSuccess {
  readonly at: string;
  /** The endpoint's own record, which the latest success may follow by up to `lastSucceededAtLagMs`. */
  readonly mayLag: boolean;
}

/**
 * The "Last success" an endpoint shows: the later of its `lastSucceededAt` and the newest
 * succeeded delivery listed under it, so it never reads older than one the viewer sees. Undefined
 * while the endpoint has no success at its url (no `lastSucceededAt`): a success listed then went
 * to the url it had before.
 */
export function lastSuccess(
  lastSucceededAt: string | undefined,
  listed: readonly WebhookDelivery[],
): LastSuccess | undefined {
  if (lastSucceededAt === undefined) return undefined;
  let latest: LastSuccess = { at: lastSucceededAt, mayLag: true };
  for (const delivery of listed) {
    const at = delivery.status === 'succeeded' ? delivery.lastAttemptAt : null;
    if (at !== null && Date.parse(at) > Date.parse(latest.at)) latest = { at, mayLag: false };
  }
  return latest;
}
