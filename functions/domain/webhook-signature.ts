import { createHmac } from 'node:crypto';
import { isSigningSecret, SigningSecretPrefix } from './webhook-secret';

/** Sent on every delivery so merchants can recognise (and allow-list) our requests. */
export const WebhookUserAgent = 'MerchantPayments-Webhooks/1.0';

export interface SignatureInput {
  /** The endpoint's `whsec_` signing secret. */
  readonly secret: string;
  /** The delivery id (`whkdel_…`), sent as `Merchant-Webhook-Id` and `webhook-id`. */
  readonly id: string;
  /** Unix time in seconds of the send attempt. */
  readonly timestamp: number;
  /** The exact body string that is sent; its UTF-8 bytes are what receivers verify. */
  readonly body: string;
}

/**
 * `<id>.<timestamp>.<body>`: the signed content of both schemes
 * (docs/receiving-webhooks.md#verifying-a-delivery).
 */
function signedContent({ id, timestamp, body }: SignatureInput): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new RangeError(`timestamp must be whole unix seconds, got ${timestamp}`);
  return `${id}.${timestamp}.${body}`;
}

/**
 * The service's own `Merchant-Webhook-Signature` value: `v1=` + lowercase hex HMAC-SHA256. The key is the
 * UTF-8 bytes of the whole secret, `whsec_` included, as a merchant reading the
 * interface would code it (docs/receiving-webhooks.md#verifying-a-delivery).
 */
export function signSpec(input: SignatureInput): string {
  const hmac = createHmac('sha256', Buffer.from(input.secret, 'utf8'));
  return `v1=${hmac.update(signedContent(input), 'utf8').digest('hex')}`;
}

/**
 * The Standard Webhooks `webhook-signature` value: `v1,` + base64 HMAC-SHA256 keyed with the
 * base64-decoded part after `whsec_` (docs/receiving-webhooks.md#standard-webhooks-headers).
 */
export function signStandard(input: SignatureInput): string {
  // Node's base64 decoder skips characters it does not know, so a malformed secret would quietly
  // sign with some other key; refuse it instead.
  if (!isSigningSecret(input.secret)) throw new TypeError('secret is not a whsec_ signing secret');
  const key = Buffer.from(input.secret.slice(SigningSecretPrefix.length), 'base64');
  return `v1,${createHmac('sha256', key).update(signedContent(input), 'utf8').digest('base64')}`;
}

export interface DeliveryHeadersInput {
  readonly secret: string;
  readonly deliveryId: string;
  /** Unix time in seconds of this send attempt: every attempt is signed afresh. */
  readonly timestamp: number;
  /** The string `deliveryBody` built, sent unchanged as UTF-8. */
  readonly body: string;
}

/** A type, not an interface, so it stays assignable to `Record<string, string>` (fetch's headers). */
export type DeliveryHeaders = {
  readonly 'Content-Type': 'application/json';
  readonly 'User-Agent': typeof WebhookUserAgent;
  readonly 'Merchant-Webhook-Id': string;
  readonly 'Merchant-Webhook-Timestamp': string;
  readonly 'Merchant-Webhook-Signature': string;
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
} & OrderingHeaders;

/**
 * Headers beyond the signed ones and Standard Webhooks'
 * (docs/decisions/delivery-sequence-numbers-and-object-versions.md), outside
 * the signed content: the event's id, the delivery's number in its endpoint's sequence, the
 * object's version after the change, and the mark of a test delivery. Each is left out when the
 * delivery does not know it (a delivery or event written before it was kept), the mark on every
 * delivery that is not a test.
 */
export type OrderingHeaders = {
  readonly 'Merchant-Webhook-Event-Id'?: string;
  readonly 'Merchant-Webhook-Sequence'?: string;
  readonly 'Merchant-Webhook-Object-Version'?: string;
  readonly 'Merchant-Webhook-Test'?: 'true';
};

/** What of a delivery its ordering headers carry. */
export interface OrderingInput {
  readonly eventId?: string | undefined;
  readonly sequence?: number | null | undefined;
  readonly objectVersion?: number | null | undefined;
  /** A test delivery of sample data (`POST …/test`): marked by `Merchant-Webhook-Test: true`. */
  readonly test?: boolean | undefined;
}

export function orderingHeaders({ eventId, sequence, objectVersion, test }: OrderingInput): OrderingHeaders {
  return {
    ...(eventId === undefined ? {} : { 'Merchant-Webhook-Event-Id': eventId }),
    ...(sequence === null || sequence === undefined ? {} : { 'Merchant-Webhook-Sequence': String(sequence) }),
    ...(objectVersion === null || objectVersion === undefined
      ? {}
      : { 'Merchant-Webhook-Object-Version': String(objectVersion) }),
    ...(test === true ? { 'Merchant-Webhook-Test': 'true' as const } : {}),
  };
}

/**
 * Every header of one delivery attempt: the service's three (docs/receiving-webhooks.md#headers) and
 * Standard Webhooks'.
 */
export function deliveryHeaders({
  secret,
  deliveryId,
  timestamp,
  body,
}: DeliveryHeadersInput): DeliveryHeaders {
  const input = { secret, id: deliveryId, timestamp, body };
  return {
    'Content-Type': 'application/json',
    'User-Agent': WebhookUserAgent,
    'Merchant-Webhook-Id': deliveryId,
    'Merchant-Webhook-Timestamp': String(timestamp),
    'Merchant-Webhook-Signature': signSpec(input),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandard(input),
  };
}

export interface DeliveryBodyInput {
  readonly deliveryId: string;
  readonly eventType: string;
  /** ISO 8601 UTC time the delivery record was created (docs/decisions/delivery-pipeline.md). */
  readonly createdAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The delivery body `{id, type, createdAt, data}` (docs/receiving-webhooks.md#body), in that key order. This
 * exact string is both signed and sent; re-serialising it anywhere would break the signature.
 */
export function deliveryBody({ deliveryId, eventType, createdAt, data }: DeliveryBodyInput): string {
  return JSON.stringify({ id: deliveryId, type: eventType, createdAt, data });
}

/**
 * What of a delivery its request carries: the body's fields, its id doubling as the request's, and
 * what its ordering headers say.
 */
export interface SignedDeliveryInput extends OrderingInput {
  readonly webhookDeliveryId: string;
  readonly eventType: string;
  readonly createdAt: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * One attempt's request of a delivery: its exact body, the headers that sign it at `timestamp`, and
 * its ordering headers (not signed: the signed content stays `id.timestamp.body`).
 */
export function signedDelivery(
  delivery: SignedDeliveryInput,
  secret: string,
  timestamp: number,
): { body: string; headers: DeliveryHeaders } {
  const deliveryId = delivery.webhookDeliveryId;
  const body = deliveryBody({
    deliveryId,
    eventType: delivery.eventType,
    createdAt: delivery.createdAt,
    data: delivery.data,
  });
  return {
    body,
    headers: { ...deliveryHeaders({ secret, deliveryId, timestamp, body }), ...orderingHeaders(delivery) },
  };
}
