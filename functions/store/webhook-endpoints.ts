import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SequenceAdvance } from '../domain/delivery-sequence';
import type { DeliveryShardHistory } from '../domain/delivery-shards';
import type { FailingNoticeAfter } from '../domain/endpoint-health';
import { toShardHistory } from '../domain/shard-history';
import {
  isLive,
  maxEndpointsPerMerchant,
  type SubscribedSince,
  subscribedSinceAfterChange,
  subscribedSinceOf,
  type WebhookEndpoint,
} from '../domain/webhook-endpoint';
import { documentClient, tableName } from './client';
import { queryAll, queryPage } from './reads';
import {
  deliveriesPartition,
  EntityType,
  merchantPartition,
  SortKeyPrefix,
  sortKeyPrefixRange,
} from './table';
import { TransactionConditionFailed } from './transaction';

const webhookDeliveriesMarkerSortKey = 'ENDPOINT';

export const endpointKeys = {
  webhookEndpoint: (merchantId: string, webhookEndpointId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.webhookEndpoint}${webhookEndpointId}`,
  }),
  /**
   * A deleted endpoint as the delete left it, without its secret: moved out of the live endpoints' range,
   * so neither the list nor the router's fan-out ever reads it again (docs/decisions/endpoint-management.md).
   */
  deletedWebhookEndpoint: (merchantId: string, webhookEndpointId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.deletedWebhookEndpoint}${webhookEndpointId}`,
  }),
  /** How many endpoints of the merchant are not deleted; guards the limit of 20 under concurrency. */
  webhookEndpointCounter: (merchantId: string) => ({
    PK: merchantPartition(merchantId),
    SK: 'COUNTER#WEBHOOK_ENDPOINTS',
  }),
  /**
   * The last number of an endpoint's delivery sequence, advanced in the transaction that writes
   * its deliveries. In the merchant's partition, where it sorts just before the endpoints, so the
   * router's one Query of the endpoints (`SK` from this prefix to the endpoints') reads it too.
   */
  webhookDeliverySequence: (merchantId: string, webhookEndpointId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.webhookDeliverySequence}${webhookEndpointId}`,
  }),
  /**
   * The endpoint's marker in shard 0 of its deliveries: `ENDPOINT` sorts above every `DELIVERY#…`,
   * so a newest-first Query of the partition returns it first, then the newest deliveries.
   */
  webhookDeliveriesMarker: (webhookEndpointId: string) => ({
    PK: deliveriesPartition(webhookEndpointId, 0),
    SK: webhookDeliveriesMarkerSortKey,
  }),
  webhookDeliveriesMarkerSortKey,
} as const;

/**
 * An endpoint as stored: the API view, its sealed signing secret, its delivery shard history (empty:
 * one shard), when it began receiving each of its event types, and a version for conditional writes.
 */
export interface StoredWebhookEndpoint {
  readonly endpoint: WebhookEndpoint;
  readonly sealedSigningSecret: string;
  readonly deliveryShards: DeliveryShardHistory;
  readonly subscribedSince: SubscribedSince;
  readonly version: number;
  /** The last notice its failing run sent the merchant, while the run lasts (docs/emails.md#failing-endpoints). */
  readonly failingNotice?: FailingNotice | undefined;
}

/** What the dispatcher marks on an endpoint whose failing run is due a notice; the router mails it. */
export interface FailingNotice {
  readonly after: FailingNoticeAfter;
  /** The failed attempt that made the run that old. */
  readonly at: string;
  readonly lastError: string;
}

function endpointItem(stored: StoredWebhookEndpoint) {
  return {
    ...endpointKeys.webhookEndpoint(stored.endpoint.merchantId, stored.endpoint.webhookEndpointId),
    entityType: EntityType.webhookEndpoint,
    ...stored.endpoint,
    sealedSigningSecret: stored.sealedSigningSecret,
    ...(stored.deliveryShards.length === 0 ? {} : { deliveryShards: stored.deliveryShards }),
    subscribedSince: stored.subscribedSince,
    version: stored.version,
    ...(stored.failingNotice === undefined ? {} : { failingNotice: stored.failingNotice }),
  };
}

/**
 * What a deliveries list needs of its endpoint, kept in the endpoint's deliveries partition so the
 * first page reads it in the same Query as the deliveries: whose endpoint it is, whether it is
 * deleted, and where its deliveries are.
 */
export interface DeliveriesMarker {
  readonly merchantId: string;
  readonly webhookEndpointId: string;
  readonly deleted: boolean;
  readonly deliveryShards: DeliveryShardHistory;
}

/**
 * The marker put beside every endpoint write, in the same transaction: unconditional, as the
 * endpoint's own version condition already orders the writes.
 */
function buildPutDeliveriesMarker(stored: Pick<StoredWebhookEndpoint, 'endpoint' | 'deliveryShards'>) {
  const { merchantId, webhookEndpointId } = stored.endpoint;
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...endpointKeys.webhookDeliveriesMarker(webhookEndpointId),
        entityType: EntityType.webhookDeliveriesMarker,
        merchantId,
        webhookEndpointId,
        deleted: !isLive(stored.endpoint),
        ...(stored.deliveryShards.length === 0 ? {} : { deliveryShards: stored.deliveryShards }),
      },
    },
  };
}

/** A new endpoint, subscribed to each of its types since its creation, and its deliveries marker. */
export function buildPutNewEndpoint(endpoint: WebhookEndpoint, sealedSigningSecret: string) {
  const subscribedSince = subscribedSinceOf(endpoint);
  const stored = { endpoint, sealedSigningSecret, deliveryShards: [], subscribedSince, version: 1 };
  return [
    {
      Put: {
        TableName: tableName(),
        Item: endpointItem(stored),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    buildPutDeliveriesMarker(stored),
  ];
}

/**
 * The next version of an endpoint, only while the stored version is the one read, and its deliveries
 * marker, written afresh. The shard history is kept unless the change raises it. The subscription times follow the change of
 * event types, an added type starting at the change's `updatedAt`, whichever write changes them.
 */
export function buildReplaceEndpoint(
  previous: StoredWebhookEndpoint,
  next: Pick<StoredWebhookEndpoint, 'endpoint' | 'sealedSigningSecret'> & {
    readonly deliveryShards?: DeliveryShardHistory;
  },
) {
  const stored = {
    endpoint: next.endpoint,
    sealedSigningSecret: next.sealedSigningSecret,
    deliveryShards: next.deliveryShards ?? previous.deliveryShards,
    subscribedSince: subscribedSinceAfterChange(
      previous.endpoint,
      previous.subscribedSince,
      next.endpoint,
      next.endpoint.updatedAt,
    ),
  };
  // A notice belongs to the run it was sent for: kept while that run is the endpoint's.
  const noticeKept =
    next.endpoint.failingSince !== undefined && next.endpoint.failingSince === previous.endpoint.failingSince;
  // The dispatcher counts a simulation down without a new version: a write that keeps the count as
  // read must find it unchanged, or it would give back the failures counted down meanwhile.
  const remaining = previous.endpoint.simulateFailures;
  const keepsCount = remaining !== undefined && next.endpoint.simulateFailures === remaining;
  return [
    {
      Put: {
        TableName: tableName(),
        Item: endpointItem({
          ...stored,
          version: previous.version + 1,
          failingNotice: noticeKept ? previous.failingNotice : undefined,
        }),
        ConditionExpression: keepsCount
          ? '#version = :version AND #simulateFailures = :remaining'
          : '#version = :version',
        ExpressionAttributeNames: {
          '#version': 'version',
          ...(keepsCount ? { '#simulateFailures': 'simulateFailures' } : {}),
        },
        ExpressionAttributeValues: {
          ':version': previous.version,
          ...(keepsCount ? { ':remaining': remaining } : {}),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    },
    buildPutDeliveriesMarker(stored),
  ];
}

/**
 * Deleting an endpoint: its item leaves the live range, only while its version is the one read (first,
 * so a change that raced it reads again), for a record of the deletion at `deletedWebhookEndpoint`
 * that keeps the view and no secret; its delivery sequence goes too, and its marker says deleted. The
 * list and the router's one Query of endpoints and sequences so never read what a merchant deleted,
 * however many.
 */
export function buildDeleteEndpoint(previous: StoredWebhookEndpoint, deleted: WebhookEndpoint) {
  const { merchantId, webhookEndpointId } = deleted;
  return [
    {
      Delete: {
        TableName: tableName(),
        Key: endpointKeys.webhookEndpoint(merchantId, webhookEndpointId),
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': previous.version },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...endpointKeys.deletedWebhookEndpoint(merchantId, webhookEndpointId),
          entityType: EntityType.webhookEndpoint,
          ...deleted,
          version: previous.version + 1,
        },
      },
    },
    {
      Delete: {
        TableName: tableName(),
        Key: endpointKeys.webhookDeliverySequence(merchantId, webhookEndpointId),
      },
    },
    buildPutDeliveriesMarker({ endpoint: deleted, deliveryShards: previous.deliveryShards }),
  ];
}

/**
 * Takes one simulated failure of the endpoint, only while one is left: concurrent attempts each
 * take their own or none, so N are never taken more than N times. It changes no version, so a
 * simulation never makes a merchant's update of the endpoint fail.
 */
export function buildTakeSimulatedFailure(merchantId: string, webhookEndpointId: string) {
  return {
    TableName: tableName(),
    Key: endpointKeys.webhookEndpoint(merchantId, webhookEndpointId),
    UpdateExpression: 'SET #simulateFailures = #simulateFailures - :one',
    ConditionExpression: '#simulateFailures > :zero',
    ExpressionAttributeNames: { '#simulateFailures': 'simulateFailures' },
    ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
    ReturnValues: 'UPDATED_NEW' as const,
  };
}

/** A change to an endpoint's health as it is written: a success, a first failure, or a notice due. */
export type HealthWrite =
  | { readonly kind: 'succeeded' | 'failing'; readonly at: string }
  | { readonly kind: 'noticed'; readonly notice: FailingNotice };

/**
 * The dispatcher's write of a success, of the start of a failing run, or of a notice the run is due
 * (docs/decisions/endpoint-health.md): one UpdateItem of the endpoint as the batch read it, a new
 * version, so a merchant's change read before it reads again rather than putting back the health it
 * read. A lost condition means the endpoint changed meanwhile, and the write is dropped: the next
 * attempt decides afresh. A success or a new run ends the last run's notice.
 */
export function buildRecordHealth(
  stored: Pick<StoredWebhookEndpoint, 'endpoint' | 'version'>,
  change: HealthWrite,
) {
  const { merchantId, webhookEndpointId } = stored.endpoint;
  const versions = { ':version': stored.version, ':next': stored.version + 1 };
  const key = endpointKeys.webhookEndpoint(merchantId, webhookEndpointId);
  if (change.kind === 'noticed') {
    return {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #failingNotice = :notice, #version = :next',
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version', '#failingNotice': 'failingNotice' },
      ExpressionAttributeValues: { ':notice': change.notice, ...versions },
    };
  }
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression:
      change.kind === 'succeeded'
        ? 'SET #lastSucceededAt = :at, #version = :next REMOVE #failingSince, #failingNotice'
        : 'SET #failingSince = :at, #version = :next REMOVE #failingNotice',
    ConditionExpression: '#version = :version',
    ExpressionAttributeNames: {
      '#version': 'version',
      ...(change.kind === 'succeeded' ? { '#lastSucceededAt': 'lastSucceededAt' } : {}),
      '#failingSince': 'failingSince',
      '#failingNotice': 'failingNotice',
    },
    ExpressionAttributeValues: { ':at': change.at, ...versions },
  };
}

/**
 * Writes a change to the endpoint's health on the condition that its version is still the one
 * read; false when the endpoint changed since, and nothing was written.
 */
export async function recordHealth(
  stored: Pick<StoredWebhookEndpoint, 'endpoint' | 'version'>,
  change: HealthWrite,
): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand(buildRecordHealth(stored, change)));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** How many are left after taking one; undefined when none was left to take. */
export async function takeSimulatedFailure(
  merchantId: string,
  webhookEndpointId: string,
): Promise<number | undefined> {
  try {
    const { Attributes } = await documentClient().send(
      new UpdateCommand(buildTakeSimulatedFailure(merchantId, webhookEndpointId)),
    );
    return Number(Attributes?.simulateFailures);
  } catch (error) {
    // No item, or none left: the attempt is a real one (no second read to find out which).
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** The marker an item of the deliveries partition is, if it is one. */
export function toDeliveriesMarker(item: Record<string, unknown>): DeliveriesMarker | undefined {
  if (item.entityType !== EntityType.webhookDeliveriesMarker) return undefined;
  return {
    merchantId: String(item.merchantId),
    webhookEndpointId: String(item.webhookEndpointId),
    deleted: item.deleted === true,
    deliveryShards: deliveryShardsOf(item),
  };
}

export async function getDeliveriesMarker(webhookEndpointId: string) {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: endpointKeys.webhookDeliveriesMarker(webhookEndpointId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined ? undefined : toDeliveriesMarker(Item);
}

/**
 * Counts endpoints that are not deleted: +1 on create only while fewer than 20 exist, −1 on delete.
 * In the same transaction as the endpoint, so concurrent creates can never pass the limit.
 */
export function buildAdjustEndpointCount(merchantId: string, delta: 1 | -1) {
  return {
    Update: {
      TableName: tableName(),
      Key: endpointKeys.webhookEndpointCounter(merchantId),
      UpdateExpression: 'ADD #count :delta SET entityType = :entityType',
      ...(delta > 0 ? { ConditionExpression: 'attribute_not_exists(#count) OR #count < :max' } : {}),
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: {
        ':delta': delta,
        ':entityType': EntityType.webhookEndpointCounter,
        ...(delta > 0 ? { ':max': maxEndpointsPerMerchant } : {}),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

export async function getEndpoint(merchantId: string, webhookEndpointId: string) {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: endpointKeys.webhookEndpoint(merchantId, webhookEndpointId),
      ConsistentRead: true,
    }),
  );
  return Item === undefined ? undefined : toStoredEndpoint(Item);
}

/** The live endpoints' sort keys (`WEBHOOK_ENDPOINT#…`), as the range DynamoDB Local indexes. */
const liveEndpointsRange = sortKeyPrefixRange(SortKeyPrefix.webhookEndpoint);

/** The merchant's endpoints that are not deleted, newest first. */
function liveEndpointsQuery(merchantId: string) {
  return {
    TableName: tableName(),
    KeyConditionExpression: liveEndpointsRange.keyCondition,
    FilterExpression: '#status <> :deleted',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':partition': merchantPartition(merchantId),
      ...liveEndpointsRange.values,
      ':deleted': 'deleted',
    },
    ScanIndexForward: false,
  };
}

export function queryEndpoints(
  merchantId: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
) {
  return queryPage(liveEndpointsQuery(merchantId), { limit, startKey, keyAttributes: ['PK', 'SK'] });
}

/** What the router fans an event out to: the live endpoints and each one's last sequence number. */
export interface FanOutTargets {
  readonly endpoints: StoredWebhookEndpoint[];
  /** By endpoint id; an endpoint without deliveries yet has none (its last number is 0). */
  readonly lastSequences: Map<string, number>;
}

/**
 * The endpoints and their delivery sequences, in one Query: the sequence items sort just before
 * the endpoints in the merchant's partition (`endpointKeys.webhookDeliverySequence`), so the range from
 * their prefix to the end of the endpoints' holds both. A delete takes an endpoint and its sequence
 * out of the range (`buildDeleteEndpoint`), so it holds live endpoints only; the filter stays for a
 * sequence a fan-out racing a delete writes again, and costs nothing else.
 */
export function buildFanOutTargetsQuery(merchantId: string) {
  return {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :partition AND SK BETWEEN :from AND :to',
    FilterExpression: 'entityType = :sequence OR #status <> :deleted',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':partition': merchantPartition(merchantId),
      ':from': SortKeyPrefix.webhookDeliverySequence,
      // '$' follows '#': the end of every sort key that begins with the endpoints' prefix.
      ':to': `${SortKeyPrefix.webhookEndpoint.slice(0, -1)}$`,
      ':sequence': EntityType.webhookDeliverySequence,
      ':deleted': 'deleted',
    },
    ScanIndexForward: false,
    ConsistentRead: true,
  };
}

/** Every endpoint of the merchant that is not deleted (at most 20) and their sequences: what the router fans out to. */
export async function fanOutTargetsOf(merchantId: string): Promise<FanOutTargets> {
  const items = await queryAll(buildFanOutTargetsQuery(merchantId));
  const lastSequences = new Map<string, number>();
  const endpoints: StoredWebhookEndpoint[] = [];
  for (const item of items) {
    if (isSequenceItem(item)) lastSequences.set(String(item.webhookEndpointId), lastSequenceOf(item));
    else endpoints.push(toStoredEndpoint(item));
  }
  return { endpoints, lastSequences };
}

export function toStoredEndpoint(item: Record<string, unknown>): StoredWebhookEndpoint {
  const endpoint = toEndpoint(item);
  return {
    endpoint,
    sealedSigningSecret: String(item.sealedSigningSecret),
    deliveryShards: deliveryShardsOf(item),
    subscribedSince: item.subscribedSince as SubscribedSince,
    version: Number(item.version),
    ...(item.failingNotice === undefined ? {} : { failingNotice: item.failingNotice as FailingNotice }),
  };
}

function deliveryShardsOf(item: Record<string, unknown>): DeliveryShardHistory {
  return toShardHistory(item.deliveryShards);
}

export function toEndpoint(item: Record<string, unknown>): WebhookEndpoint {
  return {
    webhookEndpointId: String(item.webhookEndpointId),
    merchantId: String(item.merchantId),
    url: String(item.url),
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    status: item.status as WebhookEndpoint['status'],
    eventTypes: item.eventTypes as WebhookEndpoint['eventTypes'],
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    // Counted down to 0 by the dispatcher: absent again, as on an endpoint never given one.
    ...(typeof item.simulateFailures === 'number' && item.simulateFailures > 0
      ? { simulateFailures: item.simulateFailures }
      : {}),
    // Kept by the dispatcher (docs/decisions/endpoint-health.md); absent on an endpoint never attempted.
    ...(typeof item.lastSucceededAt === 'string' ? { lastSucceededAt: item.lastSucceededAt } : {}),
    ...(typeof item.failingSince === 'string' ? { failingSince: item.failingSince } : {}),
  };
}

/**
 * Advances an endpoint's delivery sequence from `from` to `to`, only while its last number is
 * still `from` (no item yet when `from` is 0): in the transaction that writes the numbered
 * deliveries, so a cancelled or retried transaction takes no number, and two writers that read the
 * same number cannot both take the next ones. ALL_OLD hands the loser the number it must continue
 * from, without a second read.
 */
export function buildAdvanceSequence({ merchantId, webhookEndpointId, from, to }: SequenceAdvance) {
  return {
    Update: {
      TableName: tableName(),
      Key: endpointKeys.webhookDeliverySequence(merchantId, webhookEndpointId),
      UpdateExpression:
        'SET lastSequence = :to, entityType = :entityType, merchantId = :merchantId, webhookEndpointId = :endpointId',
      ConditionExpression: from === 0 ? 'attribute_not_exists(lastSequence)' : 'lastSequence = :from',
      ExpressionAttributeValues: {
        ':to': to,
        ':entityType': EntityType.webhookDeliverySequence,
        ':merchantId': merchantId,
        ':endpointId': webhookEndpointId,
        ...(from === 0 ? {} : { ':from': from }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** The last number of a stored sequence item (or of none: 0, before an endpoint's first delivery). */
export function lastSequenceOf(item: Record<string, unknown> | undefined): number {
  return typeof item?.lastSequence === 'number' ? item.lastSequence : 0;
}

/** Whether an item of the merchant's partition is a delivery sequence. */
export function isSequenceItem(item: Record<string, unknown>): boolean {
  return item.entityType === EntityType.webhookDeliverySequence;
}

/** How often a write is numbered afresh when other writers keep taking its numbers. */
const maxNumberingRounds = 10;

/**
 * Sends `write`, which numbers its deliveries on from `last` and advances the sequence in the
 * same transaction, at action `sequenceIndex`. When that advance's condition fails (another writer,
 * the router or a route, took the numbers since `lastSequence` was read), the failed condition
 * hands back the sequence as it is now, and `write` is sent again from its last number.
 */
export async function withNextNumbers<T>(
  lastSequence: number,
  sequenceIndex: number,
  write: (last: number) => Promise<T>,
): Promise<T> {
  let last = lastSequence;
  for (let round = 1; ; round += 1) {
    try {
      return await write(last);
    } catch (error) {
      const moved = error instanceof TransactionConditionFailed ? error.failureAt(sequenceIndex) : undefined;
      if (moved === undefined || round >= maxNumberingRounds) throw error;
      last = lastSequenceOf(moved.existing);
    }
  }
}
