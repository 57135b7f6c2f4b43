/** The shapes the portal reads from the service's routes (docs/openapi.json), as far as it uses them. */

export const EventTypes = [
  'payments.PaymentCreated',
  'payments.PaymentDeclined',
  'payments.PaymentRefunded',
  'payments.PaymentReturned',
  'payouts.PayoutCreated',
  'invoices.InvoiceSent',
  'invoices.InvoicePaid',
] as const;
export type EventType = (typeof EventTypes)[number];

export const DeliveryStatuses = ['pending', 'succeeded', 'exhausted'] as const;
export type DeliveryStatus = (typeof DeliveryStatuses)[number];

export interface ListPage<T> {
  readonly items: T[];
  readonly page: { readonly hasMore: boolean; readonly nextCursor?: string };
}

export interface WebhookEndpoint {
  readonly webhookEndpointId: string;
  readonly url: string;
  readonly name?: string;
  readonly status: 'active' | 'disabled' | 'deleted';
  readonly eventTypes: EventType[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly lastSucceededAt?: string;
  readonly failingSince?: string;
}

export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  readonly signingSecret: string;
}

export interface DeliveryAttempt {
  readonly attemptNumber: number;
  readonly attemptedAt: string;
  readonly responseStatusCode: number | null;
  readonly durationMs: number;
  readonly errorMessage: string | null;
}

export interface WebhookDelivery {
  readonly webhookDeliveryId: string;
  readonly webhookEndpointId: string;
  readonly eventId: string;
  readonly eventType: EventType;
  readonly sequence: number | null;
  readonly status: DeliveryStatus;
  readonly attemptCount: number;
  readonly createdAt: string;
  readonly lastAttemptAt: string | null;
  readonly redeliveredFromId: string | null;
  readonly attempts: DeliveryAttempt[];
  readonly test?: boolean;
}

export interface MerchantEvent {
  readonly eventId: string;
  readonly type: EventType;
  readonly createdAt: string;
  readonly objectId: string | null;
  readonly objectVersion: number | null;
  readonly data: Record<string, unknown>;
}

export interface WebhookRecovery {
  readonly recoveryId: string;
  readonly status: 'running' | 'completed' | 'canceled';
  readonly exhaustedFound: number;
  readonly redelivered: number;
  readonly skipped: number;
}

/** The session `POST /portal/exchange` opens. */
export interface PortalSessionInfo {
  readonly portalSessionId: string;
  readonly merchantId: string;
  readonly scope: 'read' | 'manage';
  readonly allowedOrigins: readonly string[];
  readonly expiresAt: string;
}
