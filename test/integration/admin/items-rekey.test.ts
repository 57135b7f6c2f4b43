import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { invoiceSentEvent } from '../../../functions/domain/invoice';
import { DeliveryStatus, newDelivery } from '../../../functions/domain/webhook-delivery';
import { buildPutEvent } from '../../../functions/store/events';
import { buildPutNewInvoice } from '../../../functions/store/invoices';
import { buildPutPayment } from '../../../functions/store/payments';
import { createTableInput } from '../../../functions/store/table';
import { buildPutNewDelivery } from '../../../functions/store/webhook-deliveries';
import { listKeysOf } from '../../../tools/admin/list-keys';
import { ensureTable } from '../../../tools/local/ensure-table';
import { runAdminInProcess } from '../../support/admin-in-process';
import { invoiceIn } from '../../support/domain-invoice';
import {
  deleteTestTable,
  testDocumentClient,
  testDynamoDbClient,
  testDynamoDbEndpoint,
  writeTestDynamoDbKey,
} from '../../support/dynamodb';
import { sandboxCardPayment } from '../../support/sandbox-charges';
import { stubTableEnvironment } from '../../support/table-environment';

/*
 * `items rekey` and the local runtime's start on a table of an earlier release
 * (docs/decisions/keys-for-every-filter.md): items written before the lists' keys (GSI6, GSI7) and
 * the split of an object's events (GSI4) get them, once, an invoice loses the whole-item entry GSI7
 * replaced (GSI2), and the lists read through them find the items.
 */

type Item = Record<string, unknown>;

const documents = testDocumentClient();
let tableName: string;
let stateDir: string;
let unstub: () => void;

/** The table as the release before GSI6 and GSI7 made it. */
async function createEarlierTable(): Promise<string> {
  const name = `rekey-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const input = createTableInput(name);
  const indexes = input.GlobalSecondaryIndexes.filter((index) => !['GSI6', 'GSI7'].includes(index.IndexName));
  const keyNames = new Set(indexes.flatMap((index) => index.KeySchema.map((key) => key.AttributeName)));
  await testDynamoDbClient().send(
    new CreateTableCommand({
      ...input,
      GlobalSecondaryIndexes: indexes,
      AttributeDefinitions: input.AttributeDefinitions.filter(
        (attribute) =>
          keyNames.has(attribute.AttributeName) || ['PK', 'SK'].includes(attribute.AttributeName),
      ),
    }),
  );
  return name;
}

beforeEach(async () => {
  tableName = await createEarlierTable();
  unstub = stubTableEnvironment();
  stateDir = await mkdtemp(join(tmpdir(), 'items-rekey-'));
  const runtime = { stage: 'sandbox', dynamodbEndpoint: testDynamoDbEndpoint(), tableName };
  await writeFile(join(stateDir, 'runtime.json'), JSON.stringify(runtime));
  await writeTestDynamoDbKey(stateDir);
});

afterEach(async () => {
  unstub();
  await deleteTestTable(tableName);
  await rm(stateDir, { recursive: true, force: true });
});

afterAll(() => documents.destroy());

async function rekey(...args: string[]) {
  const result = await runAdminInProcess(['items', 'rekey', ...args, '--local', '--json'], {
    LOCAL_STATE_DIR: stateDir,
  });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

const merchantId = newId('mer');
const customerId = newId('cust');
const now = () => new Date().toISOString();

/** One item of each kind the lists' keys changed for, as the earlier release wrote it. */
function earlierItems(): Item[] {
  const invoice = invoiceIn('issued', 1000, 0, {
    invoiceId: newId('inv'),
    merchantId,
    customerId,
    invoiceUrlSlug: newId('inv'),
  });
  const payment = sandboxCardPayment(merchantId, customerId, false);
  const delivery = newDelivery({
    webhookDeliveryId: newId('whkdel'),
    webhookEndpointId: newId('whk'),
    merchantId,
    eventId: newId('evt'),
    eventType: 'invoices.InvoiceSent',
    data: {},
    paused: false,
    now: now(),
  });
  const written = [
    buildPutNewInvoice(invoice, 'Rekey Co').Put.Item,
    buildPutPayment(payment).Put.Item,
    buildPutEvent(invoiceSentEvent(invoice, true, newId('evt'), now()), 'req').Put.Item,
    buildPutNewDelivery({ ...delivery, status: DeliveryStatus.exhausted, attemptCount: 5 }, now(), []).Item,
  ] as Item[];
  return written.map((item) => {
    const { GSI6PK: _pk, GSI7PK: _customerKey, ...earlier } = item;
    // A customer's invoices were GSI2 entries of the whole invoice.
    if (item.entityType === 'Invoice')
      return {
        ...earlier,
        GSI2PK: `MERCHANT#${merchantId}#CUSTOMER#${customerId}#INVOICES`,
        GSI2SK: invoice.invoiceId,
      };
    if (item.entityType === 'Payment') {
      const { GSI2PK: _a, GSI2SK: _b, GSI4PK: _c, GSI4SK: _d, ...payment } = earlier;
      return payment;
    }
    // An object's events were one partition, whatever their type.
    if (item.entityType === 'Event')
      return { ...earlier, GSI4PK: `MERCHANT#${merchantId}#OBJECT#${invoice.invoiceId}#EVENTS` };
    return earlier;
  });
}

async function stored(item: Item): Promise<Item | undefined> {
  const { Item } = await documents.send(
    new GetCommand({ TableName: tableName, Key: { PK: item.PK, SK: item.SK }, ConsistentRead: true }),
  );
  return Item;
}

describe('items rekey', () => {
  it('counts the stale items in a dry run and writes nothing', async () => {
    const items = earlierItems();
    for (const Item of items) await documents.send(new PutCommand({ TableName: tableName, Item }));
    const report = await rekey();
    expect(report).toEqual({
      scanned: 4,
      stale: { Invoice: 1, Payment: 1, Event: 1, WebhookDelivery: 1 },
      rewritten: 0,
      changedMeanwhile: 0,
    });
    for (const item of items) expect(await stored(item)).toEqual(item);
  });

  it("gives each item this release's keys and nothing else, and finds nothing stale a second time", async () => {
    const items = earlierItems();
    for (const Item of items) await documents.send(new PutCommand({ TableName: tableName, Item }));
    expect((await rekey('--apply')).rewritten).toBe(4);
    for (const item of items) {
      const { GSI2PK, GSI2SK, ...kept } = item;
      const retired = item.entityType === 'Invoice' ? kept : item;
      expect(await stored(item)).toEqual({ ...retired, ...listKeysOf(item) });
    }
    expect(await rekey()).toMatchObject({ scanned: 4, stale: {}, rewritten: 0 });
  });
});

describe('the local runtime on a table of an earlier release', () => {
  it('adds the missing index and rekeys the items, so the lists find them', async () => {
    const items = earlierItems();
    for (const Item of items) await documents.send(new PutCommand({ TableName: tableName, Item }));
    await ensureTable(testDynamoDbClient(), tableName);

    const { Table } = await testDynamoDbClient().send(new DescribeTableCommand({ TableName: tableName }));
    for (const indexName of ['GSI6', 'GSI7'] as const) {
      const index = Table?.GlobalSecondaryIndexes?.find((each) => each.IndexName === indexName);
      expect(index).toMatchObject({ IndexStatus: 'ACTIVE', Projection: { ProjectionType: 'KEYS_ONLY' } });
      for (const item of items) {
        const partition = listKeysOf(item)?.[`${indexName}PK`];
        if (partition === undefined) continue;
        const { Items = [] } = await documents.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: indexName,
            KeyConditionExpression: `${indexName}PK = :partition`,
            ExpressionAttributeValues: { ':partition': partition },
          }),
        );
        expect(Items).toEqual([{ PK: item.PK, SK: item.SK, [`${indexName}PK`]: partition }]);
      }
    }
    expect(await rekey()).toMatchObject({ stale: {} });
  });
});
