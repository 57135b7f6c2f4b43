import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { ApiKeyStatus } from '../../functions/domain/api-key';
import { WebhookEndpointStatus } from '../../functions/domain/webhook-endpoint';
import { EntityType } from '../../functions/store/keys';
import type { StoredItem } from './same-item';

/**
 * Why an item of the restored table is never written over the live one: the live item is later in
 * its life than the copy (docs/decisions/copying-items-back-from-a-restored-table.md).
 */
export const LeftAloneReason = {
  revoked: 'revoked since the copy',
  rotated: 'rotated since the copy',
  exchanged: 'exchanged since the copy',
  deleted: 'deleted since the copy',
  laterVersion: 'a later version since the copy',
  counted: 'a count of what the live table holds',
} as const;
export type LeftAloneReason = (typeof LeftAloneReason)[keyof typeof LeftAloneReason];

type Rule = (restored: StoredItem, live: StoredItem) => LeftAloneReason | undefined;

const text = (value: AttributeValue | undefined) => value?.S;
const number = (value: AttributeValue | undefined) => (value?.N === undefined ? undefined : Number(value.N));
const listLength = (value: AttributeValue | undefined) => value?.L?.length ?? 0;
const gainedSince = (restored: AttributeValue | undefined, live: AttributeValue | undefined) =>
  live !== undefined && restored === undefined;

/** True when the live item's counter (a version, a revision, a sequence) is past the copy's. */
function advanced(restored: StoredItem, live: StoredItem, attribute: string): boolean {
  const [was, is] = [number(restored[attribute]), number(live[attribute])];
  return was !== undefined && is !== undefined && is > was;
}

/**
 * An API key only ever moves towards its end: revoked for good, or its expiry brought forward by a
 * rotation (`keys rotate`); the copy would make it answer again, or for longer.
 */
const apiKey: Rule = (restored, live) => {
  if (text(live.status) === ApiKeyStatus.revoked && text(restored.status) !== ApiKeyStatus.revoked)
    return LeftAloneReason.revoked;
  const liveExpiry = text(live.expiresAt);
  if (liveExpiry === undefined) return undefined;
  const copyExpiry = text(restored.expiresAt);
  return copyExpiry === undefined || Date.parse(copyExpiry) > Date.parse(liveExpiry)
    ? LeftAloneReason.rotated
    : undefined;
};

/** A session is revoked and its link exchanged once each, for good: the copy would open it again. */
const portalSession: Rule = (restored, live) => {
  if (gainedSince(restored.revokedAt, live.revokedAt)) return LeftAloneReason.revoked;
  if (gainedSince(restored.exchangedAt, live.exchangedAt)) return LeftAloneReason.exchanged;
  return undefined;
};

/** Every change of an endpoint writes a new version; the copy would bring back its old secret or URL. */
const webhookEndpoint: Rule = (restored, live) => {
  if (!advanced(restored, live, 'version')) return undefined;
  if (
    text(live.status) === WebhookEndpointStatus.deleted &&
    text(restored.status) !== WebhookEndpointStatus.deleted
  )
    return LeftAloneReason.deleted;
  if (text(live.sealedSigningSecret) !== text(restored.sealedSigningSecret)) return LeftAloneReason.rotated;
  return LeftAloneReason.laterVersion;
};

/** Every change of an invoice is a new revision; a revision's number is never given twice. */
const invoice: Rule = (restored, live) => {
  if (!advanced(restored, live, 'currentRevisionNumber')) return undefined;
  return text(live.invoiceUrlSlug) !== text(restored.invoiceUrlSlug)
    ? LeftAloneReason.rotated
    : LeftAloneReason.laterVersion;
};

/** A counter that only rises: the copy would give a number (a version, a sequence) a second time. */
const rising =
  (attribute: string): Rule =>
  (restored, live) =>
    advanced(restored, live, attribute) ? LeftAloneReason.laterVersion : undefined;

/** A shard history only grows: the copy would hide the items written to the shards added since. */
const growing =
  (attribute: string): Rule =>
  (restored, live) =>
    listLength(live[attribute]) > listLength(restored[attribute]) ? LeftAloneReason.laterVersion : undefined;

/** The deliveries list reads an endpoint's deletion and shards from this marker, as from the endpoint. */
const deliveriesMarker: Rule = (restored, live) => {
  if (live.deleted?.BOOL === true && restored.deleted?.BOOL !== true) return LeftAloneReason.deleted;
  return growing('deliveryShards')(restored, live);
};

/**
 * The count of a merchant's endpoints that are not deleted counts the live table's endpoints: the
 * copy's count, up or down, would let a merchant have more than 20 or fewer than it may.
 */
const liveCount: Rule = (restored, live) =>
  number(restored.count) === number(live.count) ? undefined : LeftAloneReason.counted;

/**
 * An email (an invoice's, or an endpoint's failing notice) only moves on (queued, taken, sent, then SES's word): the copy of an earlier state would
 * queue again an email sent since, and send it twice.
 */
const email: Rule = (restored, live) =>
  advanced(restored, live, 'attemptCount') || text(live.status) !== text(restored.status)
    ? LeftAloneReason.laterVersion
    : undefined;

const rules: Partial<Record<string, Rule>> = {
  [EntityType.apiKey]: apiKey,
  [EntityType.portalSession]: portalSession,
  [EntityType.webhookEndpoint]: webhookEndpoint,
  [EntityType.webhookDeliveriesMarker]: deliveriesMarker,
  [EntityType.invoice]: invoice,
  [EntityType.invoiceNumberCounter]: rising('value'),
  [EntityType.webhookEndpointCounter]: liveCount,
  [EntityType.payment]: rising('version'),
  [EntityType.webhookDelivery]: rising('attemptCount'),
  [EntityType.webhookDeliverySequence]: rising('lastSequence'),
  [EntityType.merchant]: growing('writeShards'),
  [EntityType.invoiceEmail]: email,
  [EntityType.endpointNotice]: email,
  [EntityType.emailHourCount]: liveCount,
  // Each of Stripe's events applied to the account raises its version: the copy would bring back an older state.
  [EntityType.processorAccount]: rising('version'),
};

/**
 * Why the restored item must not replace the live one with the same key, or undefined when it may:
 * the live item was revoked, rotated, exchanged, deleted or moved to a later version since the copy.
 */
export function laterInLife(restored: StoredItem, live: StoredItem): LeftAloneReason | undefined {
  const entityType = text(live.entityType);
  if (entityType === undefined || entityType !== text(restored.entityType)) return undefined;
  return rules[entityType]?.(restored, live);
}
