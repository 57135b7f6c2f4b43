import type { webhooks } from './generated/openapi.js';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type DeliveryBody<Type extends keyof webhooks> = Json<NonNullable<webhooks[Type]['post']['requestBody']>>;

/**
 * A delivery's body, `{ id, type, createdAt, data }`, as a union on `type`: narrowing on it types
 * `data` with exactly that event's fields (docs/receiving-webhooks.md#event-types).
 */
export type WebhookEvent = { [Type in keyof webhooks]: DeliveryBody<Type> }[keyof webhooks];

export type WebhookEventType = WebhookEvent['type'];

/** The event of one type, e.g. `WebhookEventOf<'invoices.InvoicePaid'>`. */
export type WebhookEventOf<Type extends WebhookEventType> = Extract<WebhookEvent, { type: Type }>;
