import * as z from 'zod/mini';
import { maxRecoveryWindowDays, RecoveryStatus } from '../../domain/webhook-recovery';
import { integer } from '../../validation/integer';
import { documented } from '../../validation/schema-meta';
import { MerchantId, Timestamp, typeIdSchema } from '../shared-schemas';

const WebhookEndpointId = typeIdSchema('whk');

export const WebhookEndpointPathParams = z.strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
});

export const WebhookRecoveryId = typeIdSchema('whkrec');

export const RecoveryPathParams = z.strictObject({
  merchantId: MerchantId,
  webhookEndpointId: WebhookEndpointId,
  recoveryId: WebhookRecoveryId,
});

/**
 * The recovery window (docs/decisions/bulk-recovery.md), checked against the time of the request by the
 * handler.
 */
export const RecoverDeliveriesBody = z.strictObject({
  since: documented(Timestamp, {
    description: `ISO 8601 UTC date-time ending in Z: the window's start, inclusive; within the last ${maxRecoveryWindowDays} days and not after until.`,
  }),
  until: z.optional(
    documented(Timestamp, {
      description:
        "ISO 8601 UTC date-time ending in Z: the window's end, inclusive. Left out, or later than the time of the request, it is that time.",
    }),
  ),
});

const RecoveryCount = integer({ min: 0 });

export const WebhookRecovery = documented(
  z.strictObject({
    recoveryId: WebhookRecoveryId,
    webhookEndpointId: WebhookEndpointId,
    merchantId: MerchantId,
    since: Timestamp,
    until: documented(Timestamp, {
      description: "The end of the window as taken: the request's until, or the time of the request.",
    }),
    status: documented(z.enum(RecoveryStatus), {
      description:
        'running until the window is read; completed then; canceled when the endpoint was deleted first.',
    }),
    exhaustedFound: documented(RecoveryCount, {
      description:
        'Exhausted deliveries of the endpoint found in the window so far (test deliveries are not recovered).',
    }),
    redelivered: documented(RecoveryCount, {
      description:
        'New deliveries created so far, each linked to the exhausted one by redeliveredFromId: one per event.',
    }),
    skipped: documented(RecoveryCount, {
      description:
        'Exhausted deliveries left alone because their event already has a newer delivery to the endpoint.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    completedAt: z.nullable(Timestamp),
  }),
  { id: 'WebhookRecovery' },
);
