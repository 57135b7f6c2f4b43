import { diagnose } from './webhooks/diagnose.js';
import { verify, verifySignature } from './webhooks/verify.js';

export { MerchantPayments, type MerchantPaymentsOptions } from './client.js';
export {
  type ErrorCode,
  type ErrorDetail,
  MerchantPaymentsConnectionError,
  MerchantPaymentsError,
} from './errors.js';
export type { components, operations, webhooks as webhookOperations } from './generated/openapi.js';
export * from './ids.js';
export { List, type Page } from './pages.js';
export type { Input, Query, RequestOptions, Success } from './transport.js';
export type { WebhookEvent, WebhookEventOf, WebhookEventType } from './webhook-events.js';
export type { DiagnoseWebhookOptions, WebhookDiagnosis, WebhookDiagnosisCause } from './webhooks/diagnose.js';
export type { WebhookHeaders } from './webhooks/headers.js';
export {
  toleranceSeconds,
  type VerifyOptions,
  type WebhookScheme,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './webhooks/verify.js';

/** Verifying the deliveries the API sends to your endpoints (client/README.md#webhooks). */
export const webhooks = { verify, verifySignature, diagnose } as const;
