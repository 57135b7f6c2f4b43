import type { WebhookScheme } from '../../docs/receiving-webhooks/diagnose-webhook';

/**
 * What the receiving guide's diagnoseWebhook answers, for the tests that call it on deliveries signed
 * in-process and on those the local runtime sent: both must get the same words.
 */
export const webhookSchemes: WebhookScheme[] = ['merchant', 'standard-webhooks'];

/** Each scheme's id, timestamp and signature headers, as the service sends them. */
export const webhookHeaderNames = {
  merchant: ['Merchant-Webhook-Id', 'Merchant-Webhook-Timestamp', 'Merchant-Webhook-Signature'],
  'standard-webhooks': ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
} as const;

/** Every header a delivery carries, with its scheme: one missing_header case each. */
export const everySchemeHeader = webhookSchemes.flatMap((scheme) =>
  webhookHeaderNames[scheme].map((name) => [scheme, name] as const),
);

/** The diagnosis of a delivery without the header `name`. */
export function missingHeader(scheme: WebhookScheme, name: string) {
  return {
    ok: false,
    scheme,
    cause: 'missing_header',
    message: `The request has no ${name} header: pass every request header as received, and check that no proxy in front of your server drops it.`,
  };
}

/** The diagnosis of a delivery whose timestamp is 600 s off the receiver's clock, in the past or ahead. */
export function timestampOff600(scheme: WebhookScheme, direction: 'old' | 'ahead') {
  const header = webhookHeaderNames[scheme][1];
  return {
    ok: false,
    scheme,
    cause: 'timestamp_outside_tolerance',
    message:
      direction === 'old'
        ? `${header} is 600 seconds old, beyond the 300-second tolerance: sync your server's clock (NTP), or this request is a replay of an earlier one.`
        : `${header} is 600 seconds ahead of your clock, beyond the 300-second tolerance: your server's clock is behind, so sync it (NTP).`,
  };
}
