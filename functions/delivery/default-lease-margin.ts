/**
 * How long a dispatcher's lease on a delivery outlasts the attempt timeout: time for signing and
 * recording, far below the delivery queue's visibility timeout. Deployed functions always use it;
 * only the local runtime may shorten it (WEBHOOK_LEASE_MARGIN_MS in tools/local/settings.ts).
 */
export const defaultLeaseMarginMs = 20_000;
