import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { idempotencyRetentionSeconds } from '../domain/idempotency';
import { epochSeconds, isoTimestamp } from '../domain/time';
import { documentClient, tableName } from './client';
import { EntityType } from './table';
import { oldImage, sendTransaction, type TransactItems, TransactionConditionFailed } from './transaction';

export const idempotencyKeys = {
  /** The scope hash already folds merchant, method, path and key together. */
  idempotencyRecord: (scopeHash: string) => ({ PK: `IDEMPOTENCY#${scopeHash}`, SK: 'IDEMPOTENCY' }),
} as const;

/** What the idempotency middleware knows about a mutating request once it has been validated. */
export interface IdempotencyContext {
  /** The client's Idempotency-Key as sent; kept on resources that record it (Invoice.idempotencyKey). */
  readonly key: string;
  /** The API request's id, kept on the outbox events it writes so a delivery's logs lead back to it. */
  readonly requestId: string;
  readonly scopeHash: string;
  readonly fingerprint: string;
  readonly now: Date;
}

export interface StoredResponse {
  readonly status: number;
  readonly body: unknown;
}

/**
 * An earlier request with the same scope already has a stored outcome. `sameRequest` says whether
 * its payload matched: a replay if so, a 422 if not
 * (docs/architecture.md#conventions-for-every-endpoint).
 */
export class IdempotentReplay extends Error {
  override name = 'IdempotentReplay';
  readonly response: StoredResponse;
  readonly sameRequest: boolean;
  constructor(response: StoredResponse, sameRequest: boolean) {
    super('An outcome is already stored for this Idempotency-Key');
    this.response = response;
    this.sameRequest = sameRequest;
  }
}

/** What every idempotency record holds, whatever its state: scope, payload fingerprint, retention. */
export function idempotencyRecordItem(context: IdempotencyContext) {
  return {
    ...idempotencyKeys.idempotencyRecord(context.scopeHash),
    entityType: EntityType.idempotencyRecord,
    fingerprint: context.fingerprint,
    createdAt: isoTimestamp(context.now),
    ttl: epochSeconds(context.now) + idempotencyRetentionSeconds,
  };
}

/** A record may be written only where no live one exists; an expired one (TTL deletion lags) is overwritten. */
export function noLiveRecord(context: IdempotencyContext) {
  return {
    ConditionExpression: 'attribute_not_exists(PK) OR #ttl < :now',
    ExpressionAttributeNames: { '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':now': epochSeconds(context.now) },
  };
}

/**
 * A stored answer's JSON longer than this is kept deflated: the record's other attributes take about
 * 250 bytes, so with it the record stays within DynamoDB's 1 KB write unit, which a transaction bills
 * twice (docs/decisions/idempotency.md).
 */
const plainBodyBytes = 640;

/**
 * The answer's body as the record keeps it: its JSON as text while short, else deflated (raw DEFLATE,
 * `node:zlib`), the very bytes a replay sends back once inflated.
 */
export function storedResponseBody(
  body: unknown,
): { responseBody: string } | { responseBodyDeflated: Uint8Array } {
  const json = JSON.stringify(body);
  if (Buffer.byteLength(json) <= plainBodyBytes) return { responseBody: json };
  return { responseBodyDeflated: new Uint8Array(deflateRawSync(json)) };
}

/** The body a record keeps, in either form `storedResponseBody` writes. */
export function responseBodyOf(record: Record<string, unknown>): unknown {
  const deflated = record.responseBodyDeflated;
  if (deflated instanceof Uint8Array) return JSON.parse(inflateRawSync(deflated).toString('utf8'));
  return JSON.parse(String(record.responseBody));
}

/**
 * The Put of the idempotency record, to run in the same transaction as the change it guards. It
 * succeeds only when no live record exists.
 */
export function buildIdempotencyRecordPut(context: IdempotencyContext, response: StoredResponse) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...idempotencyRecordItem(context),
        responseStatus: response.status,
        ...storedResponseBody(response.body),
      },
      ...noLiveRecord(context),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/**
 * Writes `items` and the idempotency record in one transaction (one round trip). When a live record
 * already exists the earlier outcome wins and an IdempotentReplay is thrown; other failed conditions
 * surface as TransactionConditionFailed with item indexes of `items`.
 */
export async function commitWithIdempotency(
  context: IdempotencyContext,
  response: StoredResponse,
  items: TransactItems,
  /** What to keep instead of the response body, when that holds a secret (sealed, or left out). */
  storedBody: unknown = response.body,
): Promise<StoredResponse> {
  try {
    await sendTransaction([buildIdempotencyRecordPut(context, { ...response, body: storedBody }), ...items]);
    return response;
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    const recordFailure = error.failureAt(0);
    if (recordFailure?.existing !== undefined) throw replayOf(context, recordFailure.existing);
    throw new TransactionConditionFailed(
      error.failures.map((failure) => ({ ...failure, index: failure.index - 1 })),
      { cause: error },
    );
  }
}

/** Stores an outcome decided without a change (a 404 or 409 after validation), or replays. */
export async function storeOutcome(context: IdempotencyContext, response: StoredResponse): Promise<void> {
  const { Put } = buildIdempotencyRecordPut(context, response);
  try {
    await documentClient().send(new PutCommand(Put));
  } catch (error) {
    const existing = error instanceof ConditionalCheckFailedException ? oldImage(error.Item) : undefined;
    if (existing !== undefined) throw replayOf(context, existing);
    throw error;
  }
}

/**
 * Throws the stored outcome when a live record exists. For requests refused after reading state
 * (a 400 on an id inside the body): an earlier success with the same key must still replay, even
 * when the state it was decided on has changed since.
 */
export async function replayStoredOutcome(context: IdempotencyContext): Promise<void> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: idempotencyKeys.idempotencyRecord(context.scopeHash),
      ConsistentRead: true,
    }),
  );
  if (Item !== undefined && Number(Item.ttl) >= epochSeconds(context.now)) throw replayOf(context, Item);
}

/**
 * Throws `refusal`, a refusal that is not stored because the state it was decided on may change at
 * any moment (409 `endpoint_unhealthy`, an endpoint's quota), unless the key already holds an
 * earlier outcome: that one is replayed instead, so a retried success stays a success.
 */
export async function refuseUnlessReplayed(context: IdempotencyContext, refusal: Error): Promise<never> {
  await replayStoredOutcome(context);
  throw refusal;
}

/**
 * A request with the same scope is still calling the processor: 409
 * `idempotency_in_progress` when the payload matches, 422 when it does not.
 */
export class IdempotencyInProgress extends Error {
  override name = 'IdempotencyInProgress';
  readonly sameRequest: boolean;
  constructor(sameRequest: boolean) {
    super('A request with this Idempotency-Key is still in progress');
    this.sameRequest = sameRequest;
  }
}

/** The state of a record a processor call reserved and has not completed yet. */
export const inProgressState = 'in_progress';

/** What a live record says about a new request with the same scope: replay, 422, or still in progress. */
export function replayOf(
  context: IdempotencyContext,
  record: Record<string, unknown>,
): IdempotentReplay | IdempotencyInProgress {
  const sameRequest = record.fingerprint === context.fingerprint;
  if (record.state === inProgressState) return new IdempotencyInProgress(sameRequest);
  const response = {
    status: Number(record.responseStatus),
    body: responseBodyOf(record),
  };
  return new IdempotentReplay(response, sameRequest);
}
