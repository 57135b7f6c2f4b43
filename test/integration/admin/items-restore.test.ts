import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdPrefix, newId } from '../../../functions/domain/ids';
import { invoiceSlugHash, newInvoiceUrlSlug } from '../../../functions/domain/invoice-slug';
import { inShard } from '../../../functions/domain/merchant-shards';
import { expiresAtOfEvent } from '../../../functions/domain/retention';
import { createDynamoDbClient } from '../../../functions/store/client';
import { EntityType, keys } from '../../../functions/store/keys';
import { restoreItems } from '../../../tools/admin/items-restore';
import { runAdminInProcess } from '../../support/admin-in-process';
import {
  createTestTable,
  deleteTestTable,
  testDocumentClient,
  testDynamoDbAccessKeyId,
  testDynamoDbEndpoint,
  writeTestDynamoDbKey,
} from '../../support/dynamodb';

type Item = Record<string, unknown>;
type Key = { PK: string; SK: string };

const endpoint = testDynamoDbEndpoint();
const documents = testDocumentClient();

let liveTable: string;
let restoredTable: string;
let stateDir: string;

beforeEach(async () => {
  [liveTable, restoredTable] = await Promise.all([createTestTable('live'), createTestTable('restored')]);
  stateDir = await mkdtemp(join(tmpdir(), 'items-restore-'));
  // runtime.json as `npm start` writes it: the CLI's --local target is the live table.
  const runtime = { stage: 'sandbox', dynamodbEndpoint: endpoint, tableName: liveTable };
  await writeFile(join(stateDir, 'runtime.json'), JSON.stringify(runtime));
  await writeTestDynamoDbKey(stateDir);
});

afterEach(async () => {
  await Promise.all([deleteTestTable(liveTable), deleteTestTable(restoredTable)]);
  await rm(stateDir, { recursive: true, force: true });
});

afterAll(() => documents.destroy());

async function admin(...args: string[]) {
  const result = await runAdminInProcess([...args, '--local', '--json'], { LOCAL_STATE_DIR: stateDir });
  return { ...result, output: result.code === 0 ? JSON.parse(result.stdout) : undefined };
}

const restore = (...args: string[]) => admin('items', 'restore', '--from-table', restoredTable, ...args);

/**
 * A merchant's items of every kind the table keys differently (`functions/store/keys.ts`), with
 * the secrets and hashes the command must never print. `keysOf` names each for the assertions.
 */
function merchantItems(merchantId: string) {
  const slug = newInvoiceUrlSlug(randomBytes);
  const invoiceId = inShard(newId(IdPrefix.invoice), 3);
  const endpointId = newId(IdPrefix.webhookEndpoint);
  const eventId = newId(IdPrefix.event);
  const oldEventId = newId(IdPrefix.event);
  const keyId = randomBytes(8).toString('hex');
  const createdAt = '2026-11-20T10:00:00.000Z';
  const event = (id: string) => ({
    merchantId,
    eventType: 'invoice.paid',
    eventId: id,
    createdAt,
    objectId: invoiceId,
  });
  const items = {
    merchant: { ...keys.merchant(merchantId), entityType: EntityType.merchant, merchantId, name: 'Acme' },
    product: {
      ...keys.product(merchantId, newId(IdPrefix.product)),
      entityType: EntityType.product,
      merchantId,
      name: 'Tea',
      metadata: { color: 'green', sizes: ['s', 'm'] },
      tags: new Set(['hot', 'new']),
    },
    customer: {
      ...keys.customer(merchantId, newId(IdPrefix.customer)),
      entityType: EntityType.customer,
      merchantId,
      email: 'payer@example.com',
    },
    invoice: {
      ...keys.invoice(merchantId, invoiceId),
      ...keys.invoiceBySlug(invoiceSlugHash(slug)),
      entityType: EntityType.invoice,
      merchantId,
      invoiceId,
      invoiceUrlSlug: slug,
      total: 12_345,
    },
    invoiceSlug: {
      ...keys.invoiceSlug(invoiceSlugHash(slug)),
      entityType: EntityType.invoiceSlug,
      merchantId,
      invoiceId,
    },
    apiKey: {
      ...keys.apiKey(keyId),
      ...keys.apiKeyOfMerchant(merchantId, createdAt, keyId),
      entityType: EntityType.apiKey,
      merchantId,
      keyId,
      keyHash: randomBytes(32).toString('hex'),
    },
    endpoint: {
      ...keys.webhookEndpoint(merchantId, endpointId),
      entityType: EntityType.webhookEndpoint,
      merchantId,
      sealedSigningSecret: `sealed-${randomBytes(16).toString('hex')}`,
    },
    delivery: {
      ...keys.webhookDelivery(endpointId, newId(IdPrefix.webhookDelivery), 0),
      entityType: EntityType.webhookDelivery,
      merchantId,
      eventId,
      ttl: expiresAtOfEvent(eventId),
    },
    event: {
      ...keys.event(eventId),
      ...keys.eventIndexes(event(eventId)),
      entityType: EntityType.event,
      ttl: expiresAtOfEvent(eventId),
    },
    /** A recovery running at the restore point: its lock, deleted by its last batch since. */
    recoveryLock: {
      ...keys.webhookRecoveryLock(merchantId, endpointId),
      entityType: EntityType.webhookRecoveryLock,
      recoveryId: newId(IdPrefix.webhookRecovery),
    },
    /** Past its retention: DynamoDB's TTL deletes it from the live table, and no restore brings it back. */
    expiredEvent: {
      ...keys.event(oldEventId),
      ...keys.eventIndexes(event(oldEventId)),
      entityType: EntityType.event,
      ttl: Math.floor(Date.now() / 1000) - 3600,
    },
    /** Keyed by a hash without the merchant: out of reach of --merchant (and said so). */
    idempotency: {
      ...keys.idempotencyRecord(randomBytes(32).toString('hex')),
      entityType: EntityType.idempotencyRecord,
      ttl: Math.floor(Date.now() / 1000) + 3600,
    },
  } satisfies Record<string, Item>;
  return { items, slug, secrets: [slug, items.apiKey.keyHash, items.endpoint.sealedSigningSecret] };
}

const keyOf = (item: Item | Key): Key => ({ PK: String(item.PK), SK: String(item.SK) });

async function putAll(table: string, items: readonly Item[]) {
  for (const item of items) await documents.send(new PutCommand({ TableName: table, Item: item }));
}

async function deleteAll(table: string, items: readonly Item[]) {
  for (const item of items) await documents.send(new DeleteCommand({ TableName: table, Key: keyOf(item) }));
}

async function scan(table: string): Promise<Item[]> {
  const { Items = [] } = await documents.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
  return sortedByKey(Items);
}

function sortedByKey(items: Item[]): Item[] {
  return items.sort((a, b) => JSON.stringify(keyOf(a)).localeCompare(JSON.stringify(keyOf(b))));
}

const sortedKeys = (items: readonly (Item | Key)[]) =>
  items.map((item) => keyOf(item)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/**
 * The restored table holds both merchants as they were; the live one has since lost some of A's
 * items (its expired event to TTL, the lock of a recovery that has ended), had A's product and
 * customer changed, and lost one of B's.
 */
async function arrangeLoss() {
  const merchantA = newId(IdPrefix.merchant);
  const merchantB = newId(IdPrefix.merchant);
  const a = merchantItems(merchantA);
  const b = merchantItems(merchantB);
  const all = [...Object.values(a.items), ...Object.values(b.items)];
  await putAll(restoredTable, all);
  await putAll(liveTable, all);
  const lostOfA = [a.items.invoice, a.items.invoiceSlug, a.items.apiKey, a.items.delivery, a.items.event];
  const endedOrExpired = [a.items.recoveryLock, a.items.expiredEvent, a.items.idempotency];
  await deleteAll(liveTable, [...lostOfA, ...endedOrExpired, b.items.product]);
  await putAll(liveTable, [
    { ...a.items.product, name: 'Coffee' },
    { ...a.items.customer, email: 'changed@example.com' },
    { ...b.items.customer, email: 'b-changed@example.com' },
  ]);
  return { merchantA, merchantB, a, b, lostOfA };
}

describe('items restore --merchant', () => {
  it('dry run counts what it would copy and writes nothing', async () => {
    const { merchantA, a, lostOfA } = await arrangeLoss();
    const before = await scan(liveTable);

    const result = await restore('--merchant', merchantA);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.output).toMatchObject({
      dryRun: true,
      overwrite: false,
      restoredTable,
      table: liveTable,
      selection: { merchantId: merchantA },
      // Every item of A but its idempotency record, which the command says it cannot find.
      read: Object.keys(a.items).length - 1,
      identical: 2,
      expired: 1,
      inFlight: 1,
      missing: lostOfA.length,
      differing: 2,
      leftAlone: 0,
      copied: 0,
      overwritten: 0,
      changedMeanwhile: 0,
      notCovered: expect.stringContaining('IDEMPOTENCY#'),
    });
    expect(sortedKeys(result.output.keys.missing)).toEqual(sortedKeys(lostOfA));
    expect(sortedKeys(result.output.keys.differing)).toEqual(sortedKeys([a.items.product, a.items.customer]));
    expect(result.output.keys.changedMeanwhile).toEqual([]);
    expect(result.output.keys.leftAlone).toEqual([]);
    expect(await scan(liveTable)).toEqual(before);
  });

  it('prints no attribute of an item: no slug, key hash or sealed secret, no name or email', async () => {
    const { merchantA, a } = await arrangeLoss();
    const dryRun = await restore('--merchant', merchantA);
    const applied = await restore('--merchant', merchantA, '--apply', '--overwrite');
    for (const printed of [dryRun.stdout, applied.stdout]) {
      for (const secret of a.secrets) expect(printed).not.toContain(secret);
      expect(printed).not.toContain('Coffee');
      expect(printed).not.toContain('example.com');
    }
  });

  it('--apply copies exactly the missing items of that merchant, leaving differing and other merchants alone', async () => {
    const { merchantA, a, b, lostOfA } = await arrangeLoss();
    const before = await scan(liveTable);

    const result = await restore('--merchant', merchantA, '--apply');

    expect(result.code).toBe(0);
    expect(result.output).toMatchObject({
      dryRun: false,
      missing: 5,
      differing: 2,
      copied: 5,
      overwritten: 0,
    });
    const restoredItems = await scan(restoredTable);
    const restoredOf = (item: Item) =>
      restoredItems.find((found) => JSON.stringify(keyOf(found)) === JSON.stringify(keyOf(item)));
    const expected = [...before, ...lostOfA.map((item) => restoredOf(item) as Item)];
    expect(await scan(liveTable)).toEqual(sortedByKey(expected));
    // Still as the live table had them: A's changes, B's loss and change, A's expired event.
    const live = await scan(liveTable);
    expect(live).toContainEqual(expect.objectContaining({ ...keyOf(a.items.product), name: 'Coffee' }));
    expect(live).toContainEqual(
      expect.objectContaining({ ...keyOf(b.items.customer), email: 'b-changed@example.com' }),
    );
    expect(live.map(keyOf)).not.toContainEqual(keyOf(b.items.product));
    expect(live.map(keyOf)).not.toContainEqual(keyOf(a.items.expiredEvent));
    expect(live.map(keyOf)).not.toContainEqual(keyOf(a.items.recoveryLock));
    expect(live.map(keyOf)).not.toContainEqual(keyOf(a.items.idempotency));

    const again = await restore('--merchant', merchantA, '--apply');
    expect(again.output).toMatchObject({
      missing: 0,
      copied: 0,
      identical: 2 + lostOfA.length,
      differing: 2,
    });
  });

  it('--apply --overwrite also puts the differing items back as restored, and only that merchant', async () => {
    const { merchantA, a, b } = await arrangeLoss();

    const result = await restore('--merchant', merchantA, '--apply', '--overwrite');

    expect(result.output).toMatchObject({ overwrite: true, copied: 5, differing: 2, overwritten: 2 });
    const live = await scan(liveTable);
    const restored = await scan(restoredTable);
    const merchantKeysOfA = Object.entries(a.items)
      .filter(([name]) => !['expiredEvent', 'idempotency', 'recoveryLock'].includes(name))
      .map(([, item]) => JSON.stringify(keyOf(item)));
    const ofA = (items: Item[]) =>
      items.filter((item) => merchantKeysOfA.includes(JSON.stringify(keyOf(item))));
    expect(ofA(live)).toEqual(ofA(restored));
    expect(live).toContainEqual(
      expect.objectContaining({ ...keyOf(b.items.customer), email: 'b-changed@example.com' }),
    );
    expect(live.map(keyOf)).not.toContainEqual(keyOf(b.items.product));
  });

  it('leaves alone an item the service wrote between the dry run and --apply', async () => {
    const { merchantA, a } = await arrangeLoss();
    const dryRun = await restore('--merchant', merchantA);
    expect(dryRun.output.keys.missing).toContainEqual(keyOf(a.items.invoice));
    const rewritten = { ...a.items.invoice, total: 99_999 };
    await putAll(liveTable, [rewritten]);

    const result = await restore('--merchant', merchantA, '--apply');

    expect(result.output).toMatchObject({ missing: 4, copied: 4, differing: 3 });
    expect(await scan(liveTable)).toContainEqual(
      expect.objectContaining({ ...keyOf(a.items.invoice), total: 99_999 }),
    );
  });

  it('a write racing the copy itself fails its condition and is counted changedMeanwhile, not clobbered', async () => {
    const { merchantA, a } = await arrangeLoss();
    // Just before the first PutItem of each kind, the service writes that item itself.
    const racers = new Map<string, Item>([
      [JSON.stringify(keyOf(a.items.invoice)), { ...a.items.invoice, total: 1 }],
      [JSON.stringify(keyOf(a.items.product)), { ...a.items.product, name: 'Mate' }],
    ]);
    const client = createDynamoDbClient(endpoint, testDynamoDbAccessKeyId());
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Item?: Record<string, { S?: string }> };
        const key =
          input.Item === undefined ? '' : JSON.stringify({ PK: input.Item.PK?.S, SK: input.Item.SK?.S });
        const racer = context.commandName === 'PutItemCommand' ? racers.get(key) : undefined;
        if (racer !== undefined) {
          racers.delete(key);
          await putAll(liveTable, [racer]);
        }
        return next(args);
      },
      { step: 'initialize' },
    );
    try {
      const selection = { kind: 'merchant', merchantId: merchantA } as const;
      const summary = await restoreItems({
        client,
        restoredTable,
        liveTable,
        selection,
        apply: true,
        overwrite: true,
        now: new Date(),
      });
      expect(summary).toMatchObject({
        missing: 5,
        copied: 4,
        differing: 2,
        overwritten: 1,
        changedMeanwhile: 2,
      });
      expect(sortedKeys(summary.keys.changedMeanwhile)).toEqual(
        sortedKeys([a.items.invoice, a.items.product]),
      );
    } finally {
      client.destroy();
    }
    const live = await scan(liveTable);
    expect(live).toContainEqual(expect.objectContaining({ ...keyOf(a.items.invoice), total: 1 }));
    expect(live).toContainEqual(expect.objectContaining({ ...keyOf(a.items.product), name: 'Mate' }));
    expect(racers.size).toBe(0);
  });

  it('fails with one line, exit 1, for a merchant the restored table does not hold', async () => {
    await arrangeLoss();
    const result = await restore('--merchant', newId(IdPrefix.merchant));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: merchant mer_\w+ has no items in restored-[^\n]+\n$/);
  });
});

describe('items restore leaves alone what is later in its life than the copy', () => {
  it('puts back an endpoint damaged outside the service, and never one the service moved on since', async () => {
    const merchantId = newId(IdPrefix.merchant);
    const endpointItem = () => ({
      ...keys.webhookEndpoint(merchantId, newId(IdPrefix.webhookEndpoint)),
      entityType: EntityType.webhookEndpoint,
      merchantId,
      url: 'https://hooks.example.com/in',
      version: 3,
    });
    const damaged = endpointItem();
    const movedOn = endpointItem();
    await putAll(restoredTable, [damaged, movedOn]);
    // A stray write keeps the version; the merchant's change of URL wrote version 4.
    await putAll(liveTable, [
      { ...damaged, url: 'https://damaged.invalid/' },
      { ...movedOn, url: 'https://elsewhere.example.com/in', version: 4 },
    ]);

    const dryRun = await restore('--merchant', merchantId);
    expect(dryRun.output).toMatchObject({ differing: 1, leftAlone: 1 });
    const result = await restore('--merchant', merchantId, '--apply', '--overwrite');

    expect(result.output).toMatchObject({ differing: 1, overwritten: 1, leftAlone: 1 });
    expect(result.output.keys.leftAlone).toEqual([
      { ...keyOf(movedOn), reason: 'a later version since the copy' },
    ]);
    const live = await scan(liveTable);
    expect(live).toContainEqual(damaged);
    expect(live).toContainEqual({ ...movedOn, url: 'https://elsewhere.example.com/in', version: 4 });
  });
});

describe('items restore --from-key --to-key', () => {
  it("copies the items whose partition key is in the range, here B's partition and no other", async () => {
    const { merchantB, a, b } = await arrangeLoss();
    const partition = keys.merchantPartition(merchantB);

    const dryRun = await restore('--from-key', partition, '--to-key', partition);
    expect(dryRun.output).toMatchObject({
      selection: { fromKey: partition, toKey: partition },
      missing: 1,
      differing: 1,
    });
    expect(dryRun.output).not.toHaveProperty('notCovered');
    const applied = await restore('--from-key', partition, '--to-key', partition, '--apply');

    expect(applied.output).toMatchObject({
      read: 5,
      identical: 2,
      inFlight: 1,
      missing: 1,
      differing: 1,
      copied: 1,
    });
    const live = await scan(liveTable);
    expect(live).toContainEqual(b.items.product);
    expect(live.map(keyOf)).not.toContainEqual(keyOf(a.items.invoice));
  });

  it('reaches what --merchant cannot, such as idempotency records', async () => {
    const { a } = await arrangeLoss();
    const result = await restore('--from-key', 'IDEMPOTENCY#', '--to-key', 'IDEMPOTENCY#~', '--apply');
    expect(result.output).toMatchObject({ read: 2, missing: 1, copied: 1, identical: 1 });
    expect(await scan(liveTable)).toContainEqual(a.items.idempotency);
  });
});

describe('items restore usage', () => {
  const merchant = newId(IdPrefix.merchant);
  const cases: [string, string[], RegExp][] = [
    ['no --from-table', ['items', 'restore', '--merchant', merchant], /needs --from-table/],
    [
      'both selectors',
      ['items', 'restore', '--from-table', 't', '--merchant', merchant, '--from-key', 'A', '--to-key', 'B'],
      /either --merchant or --from-key/,
    ],
    ['neither selector', ['items', 'restore', '--from-table', 't'], /choose the items/],
    ['half a range', ['items', 'restore', '--from-table', 't', '--from-key', 'A'], /go together/],
    [
      'a reversed range',
      ['items', 'restore', '--from-table', 't', '--from-key', 'B', '--to-key', 'A'],
      /sorts after/,
    ],
    ['a malformed merchant', ['items', 'restore', '--from-table', 't', '--merchant', 'acme'], /merchant id/],
    [
      '--overwrite without --apply',
      ['items', 'restore', '--from-table', 't', '--merchant', merchant, '--overwrite'],
      /--overwrite goes with --apply: a dry run writes nothing \(give --apply --overwrite, or neither/,
    ],
  ];
  it.each(cases)('exits 2 with one line for %s', async (_name, args, message) => {
    const result = await admin(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/^error: [^\n]+usage: npm run -s admin -- items restore [^\n]+\n$/);
  });

  it('refuses the live table as the restored one, exit 2, and writes nothing', async () => {
    const { merchantA } = await arrangeLoss();
    const before = await scan(liveTable);
    const result = await admin(
      'items',
      'restore',
      '--from-table',
      liveTable,
      '--merchant',
      merchantA,
      '--apply',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: --from-table must name the restored table, not the live table [^\n]+\n$/,
    );
    expect(await scan(liveTable)).toEqual(before);
  });

  it('refuses --overwrite without --apply before reading either table, and writes nothing', async () => {
    const { merchantA } = await arrangeLoss();
    const before = await scan(liveTable);
    const result = await restore('--merchant', merchantA, '--overwrite');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: --overwrite goes with --apply[^\n]+\n$/);
    expect(await scan(liveTable)).toEqual(before);
  });

  it('names a restored table that does not exist, exit 1', async () => {
    const result = await admin('items', 'restore', '--from-table', 'no-such-table', '--merchant', merchant);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: restored table no-such-table not found: check --from-table (aws dynamodb list-tables)\n',
    );
  });
});

describe('items restore copies typed values exactly', () => {
  it('a number set past double precision and binary compare identical once copied', async () => {
    const item = {
      PK: { S: 'MERCHANT#typed' },
      SK: { S: 'ODD' },
      amounts: { NS: ['1', '12345678901234567890'] },
      blob: { B: new Uint8Array([0, 255, 7]) },
    };
    const raw = createDynamoDbClient(endpoint, testDynamoDbAccessKeyId());
    try {
      await raw.send(new PutItemCommand({ TableName: restoredTable, Item: item }));
    } finally {
      raw.destroy();
    }
    const result = await restore('--from-key', 'MERCHANT#typed', '--to-key', 'MERCHANT#typed', '--apply');
    expect(result.output).toMatchObject({ copied: 1 });
    const again = await restore('--from-key', 'MERCHANT#typed', '--to-key', 'MERCHANT#typed');
    expect(again.output).toMatchObject({ identical: 1, missing: 0, differing: 0 });
  });
});
