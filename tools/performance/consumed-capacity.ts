import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { type ConsumedCapacity, CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { canonicalJson } from '../../functions/domain/canonical-json';
import { createDynamoDbClient } from '../../functions/store/client';
import { globalSecondaryIndexes, type IndexDefinition } from '../../functions/store/table';
import { withDocumentClientMiddleware } from '../../test/support/dynamodb-commands';
import type { DynamoDbLocalTarget } from '../local/dynamodb-local';
import { routeInvocation } from '../local/gateway';

/**
 * Units of one command on one partition: the table's (`index: 'table'`) or a global index's, the
 * partition key and the item's sort key with their ids replaced by their kind (`MERCHANT#<mer>`).
 */
export interface PartitionUnits {
  readonly index: string;
  readonly partition: string;
  readonly item: string;
  readonly read: number;
  readonly write: number;
  /**
   * The least of `write` the design needs (docs/decisions/keys-for-every-filter.md): all of a table
   * write; of an index, one unit for each entry it adds or removes (a keys-only entry's size) and
   * for each rewrite of an entry that projects only what its list reads, and nothing for a rewrite
   * that only an index projecting every attribute makes.
   */
  readonly floor: number;
}

export interface MeasuredCommand {
  /** The route's operationId, or the pipeline step named with `pipelineStep.run`. */
  readonly step: string;
  readonly command: string;
  readonly failed: boolean;
  readonly units: readonly PartitionUnits[];
}

/** Names the delivery pipeline step a direct call of the router, dispatcher or reconciler is. */
export const pipelineStep = new AsyncLocalStorage<string>();

type Item = Record<string, unknown>;

/** What this module reads of a command's input, as the document client's middleware sees it. */
interface CommandInput {
  readonly TableName?: string;
  readonly Item?: Item;
  readonly Key?: Item;
  readonly TransactItems?: TransactItem[];
  readonly ConsistentRead?: boolean;
  readonly IndexName?: string;
  readonly KeyConditionExpression?: string;
  readonly ExpressionAttributeValues?: Item;
  readonly RequestItems?: Record<string, { readonly Keys: Item[] }>;
}
type TransactItem = Partial<Record<'Put' | 'Update' | 'Delete' | 'ConditionCheck', CommandInput>>;

/** What this module reads of a command's output. */
interface CommandOutput {
  readonly ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
  readonly Responses?: Record<string, Item[]>;
}

interface WriteTarget {
  readonly tableName: string;
  readonly key: { PK: string; SK: string };
  readonly action: 'put' | 'update' | 'delete' | 'check';
}
interface Observed {
  readonly step: string;
  readonly command: string;
  readonly input: CommandInput;
  readonly output: CommandOutput;
  readonly failed: boolean;
  readonly targets: readonly WriteTarget[];
  readonly before: readonly (Item | undefined)[];
  readonly after: readonly (Item | undefined)[];
}

const gsis = globalSecondaryIndexes;
const transactional = new Set(['TransactWriteItemsCommand', 'TransactWriteCommand']);

/**
 * The read and write units each DynamoDB command of a route (or of a named pipeline step) consumes while
 * `act` runs, per partition (docs/decisions/keys-for-every-filter.md#how-units-are-measured); `dynamodb` is the
 * DynamoDB Local whose table the commands go to, read back for the images and used for the scratch
 * table.
 */
export async function capacityDuring(
  dynamodb: DynamoDbLocalTarget,
  act: () => Promise<void>,
): Promise<MeasuredCommand[]> {
  const base = createDynamoDbClient(dynamodb.endpoint, dynamodb.accessKeyId);
  const client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  try {
    const observed = await observedDuring(client, act);
    return await measuredCommands(client, observed);
  } finally {
    base.destroy();
  }
}

/** Every command of a route or a named step sent while `act` runs, with the images of what it writes. */
async function observedDuring(client: DynamoDBDocumentClient, act: () => Promise<void>): Promise<Observed[]> {
  const observed: Observed[] = [];
  const readImage = imageReader(client);
  await withDocumentClientMiddleware(
    (next, context) => async (args) => {
      const step = routeInvocation.getStore()?.operationId ?? pipelineStep.getStore();
      if (step === undefined) return next(args);
      // Commands sent together (a Promise.all) are listed in the order they were sent, not the
      // order their answers came, so an operation's row reads the same on every run.
      const position = observed.length;
      observed.length += 1;
      const command = String(context.commandName);
      const input = { ...args.input, ReturnConsumedCapacity: 'INDEXES' };
      const targets = writeTargets(command, input);
      const before = await Promise.all(targets.map(readImage));
      try {
        const result = await next({ ...args, input });
        const after = await Promise.all(targets.map(readImage));
        observed[position] = {
          step,
          command,
          input,
          output: result.output,
          failed: false,
          targets,
          before,
          after,
        };
        return result;
      } catch (error) {
        observed[position] = {
          step,
          command,
          input,
          output: {},
          failed: true,
          targets,
          before,
          after: before,
        };
        throw error;
      }
    },
    act,
  );
  return observed;
}

async function measuredCommands(
  client: DynamoDBDocumentClient,
  observed: readonly Observed[],
): Promise<MeasuredCommand[]> {
  const sizes = await itemSizer(client);
  try {
    const measured: MeasuredCommand[] = [];
    // A command still unanswered when `act` ended (it failed part way) left its slot empty.
    for (const command of observed.filter((sent) => sent !== undefined)) {
      measured.push(await unitsOf(command, sizes.writeUnits));
    }
    return measured;
  } finally {
    await sizes.close();
  }
}

function writeTargets(command: string, input: CommandInput): WriteTarget[] {
  const target = (request: CommandInput | undefined, action: WriteTarget['action']): WriteTarget => {
    const key = request?.Item ?? request?.Key;
    if (request?.TableName === undefined || key === undefined) throw new Error(`${command} names no item`);
    return { tableName: request.TableName, key: { PK: String(key.PK), SK: String(key.SK) }, action };
  };
  switch (command) {
    case 'PutCommand':
    case 'PutItemCommand':
      return [target(input, 'put')];
    case 'UpdateCommand':
    case 'UpdateItemCommand':
      return [target(input, 'update')];
    case 'DeleteCommand':
    case 'DeleteItemCommand':
      return [target(input, 'delete')];
    case 'TransactWriteCommand':
    case 'TransactWriteItemsCommand':
      return (input.TransactItems ?? []).map((entry) => {
        if (entry.Put !== undefined) return target(entry.Put, 'put');
        if (entry.Update !== undefined) return target(entry.Update, 'update');
        if (entry.Delete !== undefined) return target(entry.Delete, 'delete');
        return target(entry.ConditionCheck, 'check');
      });
    case 'BatchWriteCommand':
    case 'BatchWriteItemCommand':
      throw new Error('BatchWriteItem is not priced: no store code sends it');
    default:
      return [];
  }
}

/** The item a write names, as it stands in the table, read through `client`. */
function imageReader(client: DynamoDBDocumentClient) {
  return async (target: WriteTarget): Promise<Item | undefined> => {
    const { Item } = await client.send(
      new GetCommand({ TableName: target.tableName, Key: target.key, ConsistentRead: true }),
    );
    return Item;
  };
}

type WriteUnitsOf = (item: Item) => Promise<number>;

async function unitsOf(observed: Observed, writeUnits: WriteUnitsOf): Promise<MeasuredCommand> {
  const { step, command, failed } = observed;
  if (failed) return { step, command, failed, units: [] };
  const units =
    observed.targets.length > 0 ? await writeUnitsOfTargets(observed, writeUnits) : readUnits(observed);
  if (observed.targets.length === 1 && !transactional.has(command)) checkAgainstReported(observed, units);
  if (command.startsWith('BatchGet')) await checkBatchGet(observed, units, writeUnits);
  return { step, command, failed, units };
}

async function writeUnitsOfTargets(observed: Observed, writeUnits: WriteUnitsOf): Promise<PartitionUnits[]> {
  const factor = transactional.has(observed.command) ? 2 : 1;
  const units: PartitionUnits[] = [];
  for (const [position, target] of observed.targets.entries()) {
    const before = observed.before[position];
    const after = target.action === 'check' ? before : observed.after[position];
    const beforeUnits = before === undefined ? 0 : await writeUnits(before);
    const afterUnits = after === undefined ? 0 : await writeUnits(after);
    // A write of an absent item (a delete, a check) still costs one unit.
    const tableUnits = Math.max(beforeUnits, afterUnits, 1);
    units.push(entry('table', target.key.PK, target.key.SK, 0, tableUnits * factor, tableUnits * factor));
    if (target.action === 'check') continue;
    for (const index of gsis) {
      const entryBefore = indexEntry(before, index);
      const entryAfter = indexEntry(after, index);
      const keyBefore = indexKey(entryBefore, index);
      const keyAfter = indexKey(entryAfter, index);
      const entryBeforeUnits = entryBefore === undefined ? 0 : await writeUnits(entryBefore);
      const entryAfterUnits = entryAfter === undefined ? 0 : await writeUnits(entryAfter);
      const moved = keyBefore?.PK !== keyAfter?.PK || keyBefore?.SK !== keyAfter?.SK;
      if (keyBefore !== undefined && (moved || canonicalJson(entryBefore) !== canonicalJson(entryAfter))) {
        // Same key: the entry is rewritten in place when a projected attribute changed; moved: deleted.
        const size = moved ? entryBeforeUnits : Math.max(entryBeforeUnits, entryAfterUnits);
        const needed = moved || (index.projectedAttributes?.length ?? 0) > 0 ? 1 : 0;
        units.push(entry(index.indexName, keyBefore.PK, keyBefore.SK, 0, size, needed));
      }
      if (keyAfter !== undefined && moved) {
        units.push(entry(index.indexName, keyAfter.PK, keyAfter.SK, 0, entryAfterUnits, 1));
      }
    }
  }
  return units;
}

function readUnits(observed: Observed): PartitionUnits[] {
  const { command, input, output } = observed;
  const reported = [output.ConsumedCapacity ?? []].flat();
  // A read that finds nothing still costs the minimum, which Local reports as 0 for an empty Query.
  const minimum = input.ConsistentRead === true ? 1 : 0.5;
  const total = Math.max(
    minimum,
    reported.reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), 0),
  );
  if (command.startsWith('Get')) {
    return [entry('table', String(input.Key?.PK), String(input.Key?.SK), total, 0)];
  }
  if (command.startsWith('Query')) {
    const condition = input.KeyConditionExpression ?? '';
    const values = input.ExpressionAttributeValues ?? {};
    const partitionName = input.IndexName === undefined ? 'PK' : `${input.IndexName}PK`;
    const placeholder = new RegExp(`${partitionName} = (:\\w+)`).exec(condition)?.[1];
    const prefix = /begins_with\(\w+, (:\w+)\)/.exec(condition)?.[1];
    const partition = String(values[placeholder ?? '']);
    const item = prefix === undefined ? '(range)' : `${String(values[prefix])}…`;
    return [entry(input.IndexName ?? 'table', partition, item, total, 0)];
  }
  if (command.startsWith('BatchGet')) {
    return Object.values(input.RequestItems ?? {}).flatMap(({ Keys }) =>
      Keys.map((key) => entry('table', String(key.PK), String(key.SK), 0, 0)),
    );
  }
  throw new Error(`${command} is neither a priced read nor a priced write`);
}

/**
 * Prices a BatchGetItem per key: each item in 4 KB units, strongly consistent. The items found must
 * add up to what DynamoDB Local reports; a key with no item costs one unit (DynamoDB charges a read
 * of an absent item), which Local leaves out of a batch's total.
 */
async function checkBatchGet(observed: Observed, units: PartitionUnits[], writeUnits: WriteUnitsOf) {
  const returned = Object.values(observed.output.Responses ?? {}).flat();
  const keys = Object.values(observed.input.RequestItems ?? {}).flatMap(({ Keys }) => Keys);
  let found = 0;
  for (const [position, key] of keys.entries()) {
    const item = returned.find((candidate) => candidate.PK === key.PK && candidate.SK === key.SK);
    const read = item === undefined ? 1 : Math.ceil((await writeUnits(item)) / 4);
    if (item !== undefined) found += read;
    units[position] = { ...(units[position] as PartitionUnits), read };
  }
  const reported = [observed.output.ConsumedCapacity ?? []]
    .flat()
    .reduce((total, capacity) => total + (capacity.CapacityUnits ?? 0), 0);
  if (found !== reported) {
    throw new Error(
      `BatchGetItem priced at ${found} units for its items, DynamoDB Local reports ${reported}`,
    );
  }
}

/** A single-item write priced here must cost what DynamoDB Local reports for it, table and indexes. */
function checkAgainstReported(observed: Observed, units: readonly PartitionUnits[]) {
  const [capacity] = [observed.output.ConsumedCapacity ?? []].flat();
  const reported: Record<string, number> = { table: capacity?.Table?.CapacityUnits ?? 0 };
  for (const [name, index] of Object.entries(capacity?.GlobalSecondaryIndexes ?? {})) {
    reported[name] = index.CapacityUnits ?? 0;
  }
  const priced: Record<string, number> = {};
  for (const unit of units) priced[unit.index] = (priced[unit.index] ?? 0) + unit.write;
  const names = new Set([...Object.keys(reported), ...Object.keys(priced)]);
  for (const name of names) {
    if ((reported[name] ?? 0) !== (priced[name] ?? 0)) {
      throw new Error(
        `${observed.command} on ${observed.targets[0]?.key.PK}: priced ${JSON.stringify(priced)}, ` +
          `DynamoDB Local reports ${JSON.stringify(reported)}`,
      );
    }
  }
}

/**
 * Whether an index holds the item at all: DynamoDB indexes only an item that has every key
 * attribute of the index, its sort key's too (a Stripe event's record has an `eventId`, GSI5's
 * partition key, and no `createdAt`, so GSI5 keeps nothing of it).
 */
function isIndexed(item: Item | undefined, index: IndexDefinition): item is Item {
  if (item === undefined || typeof item[index.partitionKey] !== 'string') return false;
  return index.sortKey === undefined || item[index.sortKey] !== undefined;
}

/**
 * What an index holds of an item: nothing without its keys; the whole item, or the table's and the
 * index's keys with the attributes it projects. An entry is priced on its own size.
 */
function indexEntry(item: Item | undefined, index: IndexDefinition): Item | undefined {
  if (!isIndexed(item, index)) return undefined;
  if (index.projectedAttributes === undefined) return item;
  const kept = ['PK', 'SK', index.partitionKey, index.sortKey, ...index.projectedAttributes];
  return Object.fromEntries(
    kept.flatMap((name) => (name === undefined || item[name] === undefined ? [] : [[name, item[name]]])),
  );
}

/** An index without a sort key names its entry by the item's own sort key. */
function indexKey(item: Item | undefined, index: IndexDefinition) {
  if (!isIndexed(item, index)) return undefined;
  return { PK: String(item[index.partitionKey]), SK: String(item[index.sortKey ?? 'SK']) };
}

function entry(
  index: string,
  partition: string,
  item: string,
  read: number,
  write: number,
  floor = 0,
): PartitionUnits {
  return { index, partition: keyKind(partition), item: keyKind(item), read, write, floor };
}

/**
 * A key with its variable parts named by kind: TypeIDs and Stripe's ids (`evt_1…`, `pi_1…`) by
 * their prefix, hashes, times, hours and due-delivery shard numbers, so the units of one operation
 * read the same on every run.
 */
export function keyKind(key: string): string {
  return key
    .replace(/\b([a-z]+)_[0-9a-z]{26}\b/g, '<$1>')
    .replace(/\b([a-z]+)_1[0-9A-Za-z]{6,}\b/g, '<$1>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>')
    .replace(/^(IDEMPOTENCY|INVOICE_SLUG|EMAIL_SUPPRESSED)#.+$/, '$1#<hash>')
    .replace(/^EMAIL_HOUR#\d{4}-\d\d-\d\dT\d\d$/, 'EMAIL_HOUR#<hour>')
    .replace(/^APIKEY#.+$/, 'APIKEY#<key>')
    .replace(/^DUE_DELIVERIES#\d\d$/, 'DUE_DELIVERIES#nn');
}

/**
 * Write units of an item alone (its size in 1 KB units), measured by DynamoDB Local: the item is put
 * into a scratch table without indexes and deleted again. Repeated images are measured once.
 */
async function itemSizer(
  client: DynamoDBDocumentClient,
): Promise<{ writeUnits: WriteUnitsOf; close(): Promise<void> }> {
  const tableName = `scratch-${randomUUID()}`;
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    }),
  );
  const known = new Map<string, number>();
  return {
    writeUnits: async (item) => {
      const id = JSON.stringify(item);
      const cached = known.get(id);
      if (cached !== undefined) return cached;
      const { ConsumedCapacity } = await client.send(
        new PutCommand({ TableName: tableName, Item: item, ReturnConsumedCapacity: 'TOTAL' }),
      );
      await client.send(new DeleteCommand({ TableName: tableName, Key: { PK: item.PK, SK: item.SK } }));
      const units = Number(ConsumedCapacity?.CapacityUnits);
      known.set(id, units);
      return units;
    },
    close: async () => {
      await client.send(new DeleteTableCommand({ TableName: tableName }));
    },
  };
}
