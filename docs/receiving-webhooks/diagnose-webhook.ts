// Says why a Merchant Payments webhook delivery does not verify, with the merchant-payments package
// (`npm install merchant-payments`). A tool for development and support: it tries the mistakes
// receivers make, so never let its answer decide whether to trust a request; verifyWebhook does that.
import {
  type DiagnoseWebhookOptions,
  type WebhookDiagnosis,
  type WebhookHeaders,
  webhooks,
} from 'merchant-payments';

export type {
  DiagnoseWebhookOptions,
  WebhookDiagnosis,
  WebhookDiagnosisCause,
  WebhookScheme,
} from 'merchant-payments';

/**
 * @param secret The endpoint's signing secret, `whsec_…`, as you use it.
 * @param headers The request headers, e.g. Node's `req.headers`; names are matched case-insensitively.
 * @param body The body as you verify it: ideally the raw bytes, but a string or a parsed object is
 *   diagnosed too.
 */
export function diagnoseWebhook(
  secret: string | Uint8Array,
  headers: WebhookHeaders,
  body: unknown,
  options: DiagnoseWebhookOptions = {},
): WebhookDiagnosis {
  return webhooks.diagnose(body, headers, secret, options);
}
