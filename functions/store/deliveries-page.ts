import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DeliveryStatus } from '../domain/webhook-delivery';
import { isLive } from '../domain/webhook-endpoint';
import { tableName } from './client';
import { EntityType, keys, SortKeyPrefix } from './keys';
import type { QueryPage } from './query-page';
import { newestPage, queryUpTo } from './query-page';
import { shardsOfPage } from './shard-pages';
import { type DeliveriesMarker, getEndpoint, toDeliveriesMarker } from './webhook-endpoints';

/** Which deliveries a page asks for: a status or all, how many, and below which key (a cursor's). */
export interface DeliveriesPageRequest {
  readonly webhookEndpointId: string;
  readonly status: DeliveryStatus | undefined;
  readonly limit: number;
  readonly startKey: Record<string, unknown> | undefined;
}

/**
 * The first read of a page: who owns the endpoint (undefined when the merchant has no such
 * endpoint) and up to `limit + 1` deliveries of shard 0.
 */
export interface ShardZeroRead {
  readonly owner: DeliveriesMarker | undefined;
  readonly items: Record<string, unknown>[];
}

/**
 * Reads shard 0 and learns the endpoint's owner, status and shard history on the way. A first page
 * is one strongly consistent Query from the marker down (the marker, then the newest deliveries), so
 * a just-deleted endpoint is a 404 at once, as its own read was; only an endpoint without a marker
 * (written before markers existed) costs its read after it. A page below a cursor cannot reach the
 * marker, so it reads the endpoint beside the Query: deletion is checked on every page.
 */
export async function readShardZero(
  merchantId: string,
  request: DeliveriesPageRequest,
): Promise<ShardZeroRead> {
  const { webhookEndpointId } = request;
  if (request.startKey !== undefined) {
    const [stored, items] = await Promise.all([
      getEndpoint(merchantId, webhookEndpointId),
      queryShard(request, 0),
    ]);
    return { owner: stored === undefined ? undefined : ownerOf(stored), items };
  }
  const [first, ...rest] = await queryUpTo(buildMarkerAndDeliveriesQuery(request), request.limit + 2);
  const marker = first === undefined ? undefined : toDeliveriesMarker(first);
  if (marker !== undefined) return { owner: marker, items: rest };
  const stored = await getEndpoint(merchantId, webhookEndpointId);
  const items = first === undefined ? [] : [first, ...rest].slice(0, request.limit + 1);
  return { owner: stored === undefined ? undefined : ownerOf(stored), items };
}

/**
 * The page: shard 0's deliveries merged with those of every other shard in force over the page's
 * range (minted up to the cursor's delivery, or ever for a first page), read together, each for
 * `limit + 1` below the cursor. All shards sort by the same time-ordered ids, so the newest
 * `limit + 1` overall are among the newest `limit + 1` of each, and the cursor (the last key) keeps
 * its form: a cursor of a single partition is a cursor of shard 0.
 */
export async function mergeShards(
  request: DeliveriesPageRequest,
  owner: DeliveriesMarker,
  shardZero: readonly Record<string, unknown>[],
): Promise<QueryPage> {
  const cursorId =
    request.startKey?.SK === undefined
      ? undefined
      : String(request.startKey.SK).slice(SortKeyPrefix.webhookDelivery.length);
  const otherShards = shardsOfPage(owner.deliveryShards, { id: cursorId }).slice(1);
  const others = await Promise.all(otherShards.map((shard) => queryShard(request, shard)));
  return newestPage([...shardZero, ...others.flat()], {
    limit: request.limit,
    sortAttribute: 'SK',
    keyAttributes: ['PK', 'SK'],
  });
}

function ownerOf(stored: Awaited<ReturnType<typeof getEndpoint>> & object): DeliveriesMarker {
  return {
    merchantId: stored.endpoint.merchantId,
    webhookEndpointId: stored.endpoint.webhookEndpointId,
    deleted: !isLive(stored.endpoint),
    deliveryShards: stored.deliveryShards,
  };
}

/** The status filter, applied per shard as it was to the one partition. */
function statusFilter(status: DeliveryStatus | undefined, keepMarker: boolean) {
  if (status === undefined) return {};
  return {
    FilterExpression: keepMarker ? '#status = :status OR entityType = :markerType' : '#status = :status',
    ExpressionAttributeNames: { '#status': 'status' },
  };
}

/**
 * Shard 0 from its marker down, newest first: `ENDPOINT` sorts above every `DELIVERY#…`, so the
 * marker comes first when it exists.
 */
export function buildMarkerAndDeliveriesQuery(request: DeliveriesPageRequest): QueryCommandInput {
  return {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :partition AND SK BETWEEN :deliveries AND :marker',
    ExpressionAttributeValues: {
      ':partition': keys.deliveriesPartition(request.webhookEndpointId, 0),
      ':deliveries': SortKeyPrefix.webhookDelivery,
      ':marker': keys.webhookDeliveriesMarkerSortKey,
      ...(request.status === undefined
        ? {}
        : { ':status': request.status, ':markerType': EntityType.webhookDeliveriesMarker }),
    },
    ...statusFilter(request.status, true),
    ScanIndexForward: false,
    ConsistentRead: true,
  };
}

/** One shard's deliveries below the cursor, newest first. */
export function buildShardQuery(request: DeliveriesPageRequest, shard: number): QueryCommandInput {
  const partition = keys.deliveriesPartition(request.webhookEndpointId, shard);
  return {
    TableName: tableName(),
    KeyConditionExpression: 'PK = :partition AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: {
      ':partition': partition,
      ':prefix': SortKeyPrefix.webhookDelivery,
      ...(request.status === undefined ? {} : { ':status': request.status }),
    },
    ...statusFilter(request.status, false),
    ScanIndexForward: false,
    // A cursor names the last delivery of a page, in whichever shard: each shard starts below its SK.
    ...(request.startKey === undefined
      ? {}
      : { ExclusiveStartKey: { PK: partition, SK: request.startKey.SK } }),
  };
}

function queryShard(request: DeliveriesPageRequest, shard: number) {
  return queryUpTo(buildShardQuery(request, shard), request.limit + 1);
}
