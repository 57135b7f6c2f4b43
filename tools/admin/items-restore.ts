import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { invoiceSlugHash } from '../../functions/domain/invoice-slug';
import { isExpired } from '../../functions/domain/retention';
import { EntityType, keys, SortKeyPrefix } from '../../functions/store/keys';
import { mapWithConcurrency } from '../../functions/store/reads';
import { LeftAloneReason, laterInLife } from './later-in-life';
import { AdminError } from './operations';
import {
  batchGetItems,
  batchGetLimit,
  type ItemSelection,
  keyItem,
  notCoveredByMerchant,
  restoredItemSource,
} from './restored-item-sources';
import { buildPutMissingItem, buildReplaceDifferingItem } from './restored-item-writes';
import { type StoredItem, sameItem } from './same-item';

export interface ItemsRestoreRequest {
  readonly client: DynamoDBClient;
  readonly restoredTable: string;
  readonly liveTable: string;
  readonly selection: ItemSelection;
  /** Without it nothing is written: the dry run. */
  readonly apply: boolean;
  /** Also replace live items that differ from their restored copy (never one later in its life). */
  readonly overwrite: boolean;
  readonly now: Date;
}

interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

/** An item never written back, and why (`LeftAloneReason`). */
interface LeftAloneKey extends ItemKey {
  readonly reason: LeftAloneReason;
}

/** Counts and, at most, keys: never an attribute, since items hold sealed secrets and key hashes. */
export interface ItemsRestoreSummary {
  dryRun: boolean;
  overwrite: boolean;
  restoredTable: string;
  table: string;
  selection: { merchantId: string } | { fromKey: string; toKey: string };
  read: number;
  identical: number;
  expired: number;
  inFlight: number;
  missing: number;
  differing: number;
  /** Revoked, rotated or otherwise later in its life than the copy: never written, even with --overwrite. */
  leftAlone: number;
  copied: number;
  overwritten: number;
  changedMeanwhile: number;
  keys: { missing: ItemKey[]; differing: ItemKey[]; leftAlone: LeftAloneKey[]; changedMeanwhile: ItemKey[] };
  notCovered?: string;
}

/** How many keys of each kind are printed; the counts cover the rest. */
export const shownKeysPerKind = 20;

/**
 * Items that mark work running at the restore point, not data: a recovery's lock is deleted by its
 * last batch, so one missing now means the recovery ended, and copying it back would refuse every
 * later recovery of that endpoint (docs/decisions/bulk-recovery.md).
 */
const inFlightEntityTypes: ReadonlySet<string> = new Set([EntityType.webhookRecoveryLock]);

/** Writes in flight at once: each is one PutItem, so this bounds the write rate on the live table. */
const writeConcurrency = 8;

/**
 * Compares the selected items of a restored table with the live table, page by page, and with
 * `apply` writes back those the live table lacks (and, with `overwrite`, those that differ), each
 * under a condition that leaves alone an item the service changed since it was compared.
 */
export async function restoreItems(request: ItemsRestoreRequest): Promise<ItemsRestoreSummary> {
  const summary = emptySummary(request);
  const source = restoredItemSource(request.client, request.restoredTable, request.selection);
  try {
    await source(async (items) => {
      for (let index = 0; index < items.length; index += batchGetLimit) {
        await restorePage(request, summary, items.slice(index, index + batchGetLimit));
      }
    });
  } catch (error) {
    throw restoredTableNotFound(error, request.restoredTable) ?? error;
  }
  if (request.selection.kind === 'merchant' && summary.read === 0) {
    throw new AdminError(
      `merchant ${request.selection.merchantId} has no items in ${request.restoredTable}: check --merchant and --from-table`,
    );
  }
  return summary;
}

async function restorePage(
  request: ItemsRestoreRequest,
  summary: ItemsRestoreSummary,
  restored: StoredItem[],
) {
  summary.read += restored.length;
  const live = await liveItemsByKey(request, restored.map(keyOf));
  const witnesses = await liveWitnessesOfMissing(request, restored, live);
  const writes: (() => Promise<void>)[] = [];
  for (const item of restored) {
    const key = keyOf(item);
    const current = live.get(keyText(key));
    const leftAlone =
      current === undefined ? retiredSinceTheCopy(item, witnesses) : laterInLife(item, current);
    if (isExpired({ ttl: item.ttl?.N === undefined ? undefined : Number(item.ttl.N) }, request.now)) {
      summary.expired += 1;
    } else if (inFlightEntityTypes.has(item.entityType?.S ?? '')) {
      summary.inFlight += 1;
    } else if (leftAlone !== undefined) {
      summary.leftAlone += 1;
      showKey(summary.keys.leftAlone, { ...key, reason: leftAlone });
    } else if (current === undefined) {
      summary.missing += 1;
      showKey(summary.keys.missing, key);
      if (request.apply)
        writes.push(() => write(request, summary, buildPutMissingItem(request.liveTable, item), 'copied'));
    } else if (sameItem(item, current)) {
      summary.identical += 1;
    } else {
      summary.differing += 1;
      showKey(summary.keys.differing, key);
      if (request.apply && request.overwrite) {
        const input = buildReplaceDifferingItem(request.liveTable, item, current);
        writes.push(() => write(request, summary, input, 'overwritten'));
      }
    }
  }
  await mapWithConcurrency(writes, writeConcurrency, (run) => run());
}

/** The live items of these keys (up to 100), read strongly consistent just before any write. */
async function liveItemsByKey(request: ItemsRestoreRequest, itemKeys: readonly ItemKey[]) {
  const found = await onLiveTable(request.liveTable, () =>
    batchGetItems(request.client, request.liveTable, itemKeys.map(keyItem), true),
  );
  return new Map(found.map((item) => [keyText(keyOf(item)), item]));
}

/** The invoice a pay-link lookup item leads to. */
function invoiceKeyOfSlug(slugItem: StoredItem): ItemKey | undefined {
  const [merchantId, invoiceId] = [slugItem.merchantId?.S, slugItem.invoiceId?.S];
  return merchantId === undefined || invoiceId === undefined
    ? undefined
    : keys.invoice(merchantId, invoiceId);
}

const isSlugItem = (item: StoredItem) => item.entityType?.S === EntityType.invoiceSlug;

/** An endpoint, or its delivery sequence: what a delete takes out of the live range. */
const isEndpointPart = (item: StoredItem) =>
  item.entityType?.S === EntityType.webhookEndpoint ||
  item.entityType?.S === EntityType.webhookDeliverySequence;

/**
 * The live item that tells why the live table lacks a restored one, where the service retires items on
 * purpose: a pay-link lookup item's invoice (its slug rotated), an endpoint's or its sequence's record
 * of the deletion (the endpoint deleted).
 */
function witnessKeyOf(item: StoredItem): ItemKey | undefined {
  if (isSlugItem(item)) return invoiceKeyOfSlug(item);
  const [merchantId, endpointId] = [item.merchantId?.S, item.webhookEndpointId?.S];
  if (!isEndpointPart(item) || merchantId === undefined || endpointId === undefined) return undefined;
  // The record of the deletion itself is no part of a live endpoint.
  if (keyOf(item).SK.startsWith(SortKeyPrefix.deletedWebhookEndpoint)) return undefined;
  return keys.deletedWebhookEndpoint(merchantId, endpointId);
}

/** The live witnesses of the page's items that the live table lacks. */
async function liveWitnessesOfMissing(
  request: ItemsRestoreRequest,
  restored: readonly StoredItem[],
  live: ReadonlyMap<string, StoredItem>,
) {
  const witnessKeys = restored
    .filter((item) => !live.has(keyText(keyOf(item))))
    .flatMap((item) => witnessKeyOf(item) ?? []);
  const unique = [...new Map(witnessKeys.map((key) => [keyText(key), key])).values()];
  return unique.length === 0 ? new Map<string, StoredItem>() : liveItemsByKey(request, unique);
}

/**
 * Why an item the live table lacks was retired on purpose since the copy, or undefined when it is lost:
 * a lookup item whose invoice now holds another slug (rotated; one whose invoice is lost too comes back
 * with it), an endpoint or its sequence whose endpoint was deleted since.
 */
function retiredSinceTheCopy(item: StoredItem, witnesses: ReadonlyMap<string, StoredItem>) {
  const witnessKey = witnessKeyOf(item);
  const witness = witnessKey === undefined ? undefined : witnesses.get(keyText(witnessKey));
  if (witness === undefined) return undefined;
  if (isEndpointPart(item)) return LeftAloneReason.deleted;
  const slug = witness.invoiceUrlSlug?.S;
  if (slug === undefined) return undefined;
  return keys.invoiceSlug(invoiceSlugHash(slug)).PK === keyOf(item).PK ? undefined : LeftAloneReason.rotated;
}

async function write(
  request: ItemsRestoreRequest,
  summary: ItemsRestoreSummary,
  input: ConstructorParameters<typeof PutItemCommand>[0],
  outcome: 'copied' | 'overwritten',
): Promise<void> {
  try {
    await onLiveTable(request.liveTable, () => request.client.send(new PutItemCommand(input)));
    summary[outcome] += 1;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    summary.changedMeanwhile += 1;
    showKey(summary.keys.changedMeanwhile, keyOf(input.Item ?? {}));
  }
}

function emptySummary(request: ItemsRestoreRequest): ItemsRestoreSummary {
  const { selection } = request;
  return {
    dryRun: !request.apply,
    overwrite: request.overwrite,
    restoredTable: request.restoredTable,
    table: request.liveTable,
    selection:
      selection.kind === 'merchant'
        ? { merchantId: selection.merchantId }
        : { fromKey: selection.fromKey, toKey: selection.toKey },
    read: 0,
    identical: 0,
    expired: 0,
    inFlight: 0,
    missing: 0,
    differing: 0,
    leftAlone: 0,
    copied: 0,
    overwritten: 0,
    changedMeanwhile: 0,
    keys: { missing: [], differing: [], leftAlone: [], changedMeanwhile: [] },
    ...(selection.kind === 'merchant' ? { notCovered: notCoveredByMerchant } : {}),
  };
}

function keyOf(item: StoredItem): ItemKey {
  return { PK: item.PK?.S ?? '', SK: item.SK?.S ?? '' };
}

const keyText = (key: ItemKey) => JSON.stringify([key.PK, key.SK]);

function showKey<Shown extends ItemKey>(shown: Shown[], key: Shown): void {
  if (shown.length < shownKeysPerKind) shown.push(key);
}

const isNotFound = (error: unknown) => error instanceof Error && error.name === 'ResourceNotFoundException';

/**
 * DynamoDB does not say which table it did not find: the live one is named where it is read or
 * written, so any other not-found comes from the restored table.
 */
function restoredTableNotFound(error: unknown, restoredTable: string): AdminError | undefined {
  if (!isNotFound(error)) return undefined;
  return new AdminError(
    `restored table ${restoredTable} not found: check --from-table (aws dynamodb list-tables)`,
    {
      cause: error,
    },
  );
}

async function onLiveTable<T>(liveTable: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new AdminError(`table ${liveTable} not found: check --table or the stage`, { cause: error });
  }
}
