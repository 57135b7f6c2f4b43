import { maxRecoveryWindowDays, RecoveryStatus } from '../../domain/webhook-recovery';
import { annotate, enumOf, integer, nullable, optional, strictObject } from '../../schema';
import { MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

const WebhookEndpointId = typeIdSchema('whk');

export const WebhookEndpointPathParams = strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
});

export const WebhookRecoveryId = typeIdSchema('whkrec');

export const RecoveryPathParams = strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
  recoveryId: WebhookRecoveryId,
});

/** DESIGN §7 "Bulk recovery": the window, checked against the time of the request by the handler. */
export const RecoverDeliveriesBody = strictObject({
  since: annotate(Timestamp, {
    description: `ISO 8601 UTC date-time ending in Z: the window's start, inclusive; within the last ${maxRecoveryWindowDays} days and not after until.`,
  }),
  until: optional(
    annotate(Timestamp, {
      description:
        "ISO 8601 UTC date-time ending in Z: the window's end, inclusive. Left out, or later than the time of the request, it is that time.",
    }),
  ),
});

const RecoveryCount = integer({ min: 0 });

export const WebhookRecovery = annotate(
  strictObject({
    recoveryId: WebhookRecoveryId,
    webhookEndpointId: WebhookEndpointId,
    merchantId: MerchantId,
    since: Timestamp,
    until: annotate(Timestamp, {
      description: "The end of the window as taken: the request's until, or the time of the request.",
    }),
    status: annotate(enumOf(RecoveryStatus), {
      description:
        'running until the window is read; completed then; canceled when the endpoint was deleted first.',
    }),
    exhaustedFound: annotate(RecoveryCount, {
      description:
        'Exhausted deliveries of the endpoint found in the window so far (test deliveries are not recovered).',
    }),
    redelivered: annotate(RecoveryCount, {
      description:
        'New deliveries created so far, each linked to the exhausted one by redeliveredFromId: one per event.',
    }),
    skipped: annotate(RecoveryCount, {
      description:
        'Exhausted deliveries left alone because their event already has a newer delivery to the endpoint.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    completedAt: nullable(Timestamp),
  }),
  { id: 'WebhookRecovery' },
);
