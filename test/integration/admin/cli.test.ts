import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authorize } from '../../../functions/authorizer/authorize';
import { resetFunctionEnvironment } from '../../../functions/config';
import { newId } from '../../../functions/domain/ids';
import { createDocumentClient, resetDocumentClient } from '../../../functions/store/client';
import { getApiKey } from '../../../functions/store/merchants';
import { getPortalSession } from '../../../functions/store/portal-sessions';
import { createTableInput } from '../../../functions/store/table';
import { buildPutNewEndpoint } from '../../../functions/store/webhook-endpoints';
import { runAdmin } from '../../../tools/admin/cli';
import { findFreePort } from '../../../tools/local/ports';
import { runAdminProcess } from '../../support/admin-process';
import {
  testDynamoDbAccessKeyId,
  testDynamoDbClient,
  testDynamoDbEndpoint,
  writeTestDynamoDbKey,
} from '../../support/dynamodb';
import { isoTimestamp } from '../../support/iso-timestamp';
import { invoicePaidEndpoint } from '../../support/stored-endpoint';

const _repoRoot = resolve(import.meta.dirname, '../../..');
const endpoint = testDynamoDbEndpoint();
const dynamodb = testDynamoDbClient();
const documents = createDocumentClient(endpoint, testDynamoDbAccessKeyId());
const savedEnv = { ...process.env };
const storeVariables = ['TABLE_NAME', 'STAGE', 'DYNAMODB_ENDPOINT', 'DYNAMODB_LOCAL_ACCESS_KEY_ID'] as const;

let tableName: string;
let stateDir: string;

beforeAll(() => {
  // authorize() reads keys through the store, which takes its table from the environment.
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.DYNAMODB_LOCAL_ACCESS_KEY_ID = testDynamoDbAccessKeyId();
  process.env.STAGE = 'sandbox';
});

beforeEach(async () => {
  tableName = `admin-${randomUUID()}`;
  await dynamodb.send(new CreateTableCommand(createTableInput(tableName)));
  process.env.TABLE_NAME = tableName;
  resetFunctionEnvironment();
  resetDocumentClient();
  stateDir = await mkdtemp(join(tmpdir(), 'admin-integration-'));
  await writeRuntime({ dynamodbEndpoint: endpoint, tableName });
});

afterEach(async () => {
  await dynamodb.send(new DeleteTableCommand({ TableName: tableName }));
  await rm(stateDir, { recursive: true, force: true });
});

afterAll(() => {
  for (const name of storeVariables) {
    const value = savedEnv[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetFunctionEnvironment();
  resetDocumentClient();
  documents.destroy();
});

/** runtime.json as `npm start` writes it (docs/architecture.md#the-local-runtime). */
async function writeRuntime(fields: { dynamodbEndpoint: string; tableName: string }) {
  const runtime = {
    baseUrl: 'http://127.0.0.1:3000',
    stage: 'sandbox',
    merchantId: 'mer_01h455vb4pex5vsknk084sn02q',
    apiKey: `merchant_sbx0123456789_${'s'.repeat(43)}`,
    ...fields,
  };
  await writeFile(join(stateDir, 'runtime.json'), JSON.stringify(runtime));
  await writeTestDynamoDbKey(stateDir);
}

async function admin(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin([...args, '--local', '--json'], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { LOCAL_STATE_DIR: stateDir },
  });
  return { code, stdout, stderr, output: code === 0 ? JSON.parse(stdout) : undefined };
}

async function scanTable(): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await documents.send(
    new ScanCommand({ TableName: tableName, ConsistentRead: true }),
  );
  return Items;
}

async function newMerchant(): Promise<string> {
  const { output } = await admin('merchants', 'create', '--name', 'Acme');
  return output.merchantId;
}

const authorizeOn = (stage: 'sandbox' | 'production', apiKey: string, now = new Date()) =>
  authorize(`Bearer ${apiKey}`, { stage, now, findKey: getApiKey, findPortalSession: getPortalSession });

const secondsFromNow = (iso: string) => (Date.parse(iso) - Date.now()) / 1000;

describe('admin CLI against DynamoDB Local', () => {
  it('merchants create writes exactly one merchant item and prints it', async () => {
    const result = await admin('merchants', 'create', '--name', 'Acme Tools');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.output).toEqual({
      merchantId: expect.stringMatching(/^mer_[0-9a-z]{26}$/),
      name: 'Acme Tools',
      createdAt: expect.stringMatching(isoTimestamp),
    });
    expect(await scanTable()).toEqual([
      expect.objectContaining({ entityType: 'Merchant', ...result.output }),
    ]);
  });

  it('keys create --expires-in makes a key that authorizes, listed as active with its expiry', async () => {
    const merchantId = await newMerchant();
    const created = await admin('keys', 'create', '--merchant', merchantId, '--expires-in', '24h');
    expect(created.code).toBe(0);
    expect(created.output).toMatchObject({ merchantId, stage: 'sandbox' });
    expect(created.output.apiKey.startsWith(`${created.output.keyPrefix}_`)).toBe(true);
    expect(secondsFromNow(created.output.expiresAt)).toBeGreaterThan(86_400 - 30);
    expect(secondsFromNow(created.output.expiresAt)).toBeLessThanOrEqual(86_400);

    const listed = await admin('keys', 'list', '--merchant', merchantId);
    expect(listed.output).toEqual({
      items: [
        {
          keyPrefix: created.output.keyPrefix,
          status: 'active',
          createdAt: expect.any(String),
          expiresAt: created.output.expiresAt,
        },
      ],
    });
    expect(listed.stdout).not.toContain(created.output.apiKey);

    expect(await authorizeOn('sandbox', created.output.apiKey)).toEqual({
      allowed: true,
      merchantId,
      principal: {
        kind: 'apiKey',
        keyId: created.output.keyPrefix.slice('merchant_sbx'.length),
        keyPrefix: created.output.keyPrefix,
      },
    });
    const items = await scanTable();
    expect(items.map((item) => item.entityType).sort()).toEqual(['ApiKey', 'Merchant']);
    expect(JSON.stringify(items)).not.toContain(created.output.apiKey);
  });

  it('keys revoke makes the key refused at once and listed as revoked', async () => {
    const merchantId = await newMerchant();
    const created = await admin('keys', 'create', '--merchant', merchantId);
    expect(created.output.expiresAt).toBeNull();

    const revoked = await admin('keys', 'revoke', '--key', created.output.keyPrefix);
    expect(revoked.code).toBe(0);
    expect(revoked.output).toEqual({ keyPrefix: created.output.keyPrefix, status: 'revoked' });
    expect(revoked.stdout).not.toContain(created.output.apiKey);

    const listed = await admin('keys', 'list', '--merchant', merchantId);
    expect(listed.output.items).toEqual([expect.objectContaining({ status: 'revoked', expiresAt: null })]);
    expect(await authorizeOn('sandbox', created.output.apiKey)).toEqual({
      allowed: false,
      reason: 'revoked key',
    });
  });

  it('keys rotate adds an active key and moves the older key’s expiry to the end of the grace period', async () => {
    const merchantId = await newMerchant();
    const old = (await admin('keys', 'create', '--merchant', merchantId)).output;

    const rotated = await admin('keys', 'rotate', '--merchant', merchantId, '--expire-old-in', '2h');
    expect(rotated.code).toBe(0);
    expect(Object.keys(rotated.output)).toEqual(['apiKey', 'keyPrefix', 'merchantId', 'stage', 'expiresAt']);
    expect(rotated.output).toMatchObject({ merchantId, stage: 'sandbox', expiresAt: null });
    expect(rotated.output.keyPrefix).not.toBe(old.keyPrefix);

    const { items } = (await admin('keys', 'list', '--merchant', merchantId)).output;
    const oldItem = items.find((item: { keyPrefix: string }) => item.keyPrefix === old.keyPrefix);
    const newItem = items.find((item: { keyPrefix: string }) => item.keyPrefix === rotated.output.keyPrefix);
    expect(items).toHaveLength(2);
    expect(newItem).toMatchObject({ status: 'active', expiresAt: null });
    expect(oldItem.status).toBe('active');
    expect(secondsFromNow(oldItem.expiresAt)).toBeGreaterThan(7200 - 30);
    expect(secondsFromNow(oldItem.expiresAt)).toBeLessThanOrEqual(7200);

    // Both keys work during the grace period; afterwards only the new one does.
    expect((await authorizeOn('sandbox', old.apiKey)).allowed).toBe(true);
    const afterGrace = new Date(Date.parse(oldItem.expiresAt) + 1000);
    expect(await authorizeOn('sandbox', old.apiKey, afterGrace)).toEqual({
      allowed: false,
      reason: 'expired key',
    });
    expect((await authorizeOn('sandbox', rotated.output.apiKey, afterGrace)).allowed).toBe(true);
  });

  it('a sandbox key is refused on production', async () => {
    const merchantId = await newMerchant();
    const { output } = await admin('keys', 'create', '--merchant', merchantId);
    expect(await authorizeOn('production', output.apiKey)).toEqual({
      allowed: false,
      reason: 'key of another stage',
    });
  });

  it('keys create for an unknown merchant exits 1 with one stderr line and writes nothing', async () => {
    const result = await admin('keys', 'create', '--merchant', 'mer_01h455vb4pex5vsknk084sn02q');
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: merchant mer_01h455vb4pex5vsknk084sn02q does not exist\n',
    });
    expect(await scanTable()).toEqual([]);
  });

  it('keys list and keys rotate for an unknown merchant exit 1 instead of answering for nobody', async () => {
    const listed = await admin('keys', 'list', '--merchant', 'mer_01h455vb4pex5vsknk084sn02q');
    const rotated = await admin(
      'keys',
      'rotate',
      '--merchant',
      'mer_01h455vb4pex5vsknk084sn02q',
      '--expire-old-in',
      '1h',
    );
    for (const result of [listed, rotated]) {
      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(/^error: merchant .* does not exist\n$/),
      });
    }
    expect(await scanTable()).toEqual([]);
  });

  it('keys revoke of an unknown prefix exits 1 and creates nothing', async () => {
    const result = await admin('keys', 'revoke', '--key', 'merchant_sbx0123456789');
    expect(result).toMatchObject({ code: 1, stderr: 'error: key merchant_sbx0123456789 does not exist\n' });
    expect(await scanTable()).toEqual([]);
  });

  it('says `npm start` is not running when the runtime’s DynamoDB Local does not answer', async () => {
    const closed = `http://127.0.0.1:${await findFreePort()}`;
    await writeRuntime({ dynamodbEndpoint: closed, tableName });
    const result = await admin('merchants', 'create', '--name', 'Acme');
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `error: cannot reach DynamoDB Local at ${closed}: is \`npm start\` running?\n`,
    });
  });

  it('the real CLI process prints exactly one JSON object on stdout', async () => {
    const { code, stdout, stderr } = await runAdminProcess(
      ['merchants', 'create', '--name', 'Spawned', '--local', '--json'],
      { ...savedEnv, LOCAL_STATE_DIR: stateDir },
    );

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.endsWith('\n')).toBe(true);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject({ name: 'Spawned', merchantId: expect.stringMatching(/^mer_/) });
    expect(await scanTable()).toEqual([expect.objectContaining({ merchantId: printed.merchantId })]);
  }, 30_000);
});

describe('admin CLI: endpoints shards', () => {
  /** An endpoint as the create route stores it, with its deliveries marker unless `marker` is false. */
  async function storedEndpoint(merchantId: string, marker = true) {
    const endpoint = invoicePaidEndpoint(merchantId, '2026-11-22T12:00:00.000Z');
    const [endpointPut, markerPut] = buildPutNewEndpoint(endpoint, 'sealed');
    for (const put of marker ? [endpointPut, markerPut] : [endpointPut]) {
      if (put !== undefined) await documents.send(new PutCommand({ ...put.Put, TableName: tableName }));
    }
    return endpoint.webhookEndpointId;
  }

  const shardsOf = async (webhookEndpointId: string) =>
    (await scanTable())
      .filter((item) => item.webhookEndpointId === webhookEndpointId)
      .map((item) => [item.SK, item.deliveryShards]);

  it('raises the count from ten minutes on, on the endpoint and its marker, and prints the history', async () => {
    const merchantId = await newMerchant();
    const webhookEndpointId = await storedEndpoint(merchantId);
    const before = Date.now();
    const result = await admin('endpoints', 'shards', '--endpoint', webhookEndpointId, '--count', '4');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const since = result.output.deliveryShards[0].since;
    expect(result.output).toEqual({ webhookEndpointId, merchantId, deliveryShards: [{ since, count: 4 }] });
    expect(Date.parse(since) - before).toBeGreaterThanOrEqual(600_000);
    expect(Date.parse(since) - Date.now()).toBeLessThanOrEqual(600_000);
    const history = [{ since, count: 4 }];
    expect(await shardsOf(webhookEndpointId)).toEqual(
      expect.arrayContaining([
        [`WEBHOOK_ENDPOINT#${webhookEndpointId}`, history],
        ['ENDPOINT', history],
      ]),
    );

    const same = await admin('endpoints', 'shards', '--endpoint', webhookEndpointId, '--count', '4');
    expect(same.output).toEqual(result.output);
    const lower = await admin('endpoints', 'shards', '--endpoint', webhookEndpointId, '--count', '2');
    expect(lower).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `error: the shard count can only be raised: it is 4, so 2 would move written deliveries\n`,
    });
  });

  it('finds an endpoint without a marker through --merchant, and writes its marker', async () => {
    const merchantId = await newMerchant();
    const webhookEndpointId = await storedEndpoint(merchantId, false);
    const unknown = await admin('endpoints', 'shards', '--endpoint', webhookEndpointId, '--count', '2');
    expect(unknown).toMatchObject({
      code: 1,
      stderr: `error: endpoint ${webhookEndpointId} does not exist (an endpoint older than its marker needs --merchant)\n`,
    });
    const raised = await admin(
      'endpoints',
      'shards',
      '--endpoint',
      webhookEndpointId,
      '--count',
      '2',
      '--merchant',
      merchantId,
    );
    expect(raised.code).toBe(0);
    expect((await shardsOf(webhookEndpointId)).map(([sortKey]) => sortKey).sort()).toEqual([
      'ENDPOINT',
      `WEBHOOK_ENDPOINT#${webhookEndpointId}`,
    ]);
  });

  it('refuses a count that is not a whole number from 1 to 16 with exit 2, before anything is read', async () => {
    for (const count of ['0', '17', '2.5', 'four', '-1']) {
      const result = await admin('endpoints', 'shards', '--endpoint', 'whk_x', '--count', count);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: --count must be a whole number from 1 to 16, not "${count.replace('.', '\\.')}" \\(usage: `,
        ),
      );
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});

describe('admin CLI: merchants shards', () => {
  const shardsOf = async (merchantId: string) =>
    (await scanTable()).find((item) => item.SK === 'MERCHANT' && item.merchantId === merchantId)?.writeShards;

  it('raises a merchant’s count from ten minutes on, prints the history, and only raises', async () => {
    const merchantId = await newMerchant();
    const before = Date.now();
    const result = await admin('merchants', 'shards', '--merchant', merchantId, '--count', '8');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const since = result.output.writeShards[0].since;
    expect(result.output).toEqual({ merchantId, writeShards: [{ since, count: 8 }] });
    expect(Date.parse(since) - before).toBeGreaterThanOrEqual(600_000);
    expect(Date.parse(since) - Date.now()).toBeLessThanOrEqual(600_000);
    expect(await shardsOf(merchantId)).toEqual([{ since, count: 8 }]);

    const same = await admin('merchants', 'shards', '--merchant', merchantId, '--count', '8');
    expect(same.output).toEqual(result.output);
    const higher = await admin('merchants', 'shards', '--merchant', merchantId, '--count', '16');
    expect(higher.output.writeShards).toEqual([{ since, count: 8 }, expect.objectContaining({ count: 16 })]);
    const lower = await admin('merchants', 'shards', '--merchant', merchantId, '--count', '2');
    expect(lower).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'error: the shard count can only be raised: it is 16, so 2 would move written payments and invoices\n',
    });
    expect(await shardsOf(merchantId)).toEqual(higher.output.writeShards);
  });

  it('refuses an unknown merchant with exit 1 and a bad count with exit 2, writing nothing', async () => {
    const unknown = newId('mer');
    expect(await admin('merchants', 'shards', '--merchant', unknown, '--count', '4')).toMatchObject({
      code: 1,
      stderr: `error: merchant ${unknown} does not exist\n`,
    });
    const result = await admin('merchants', 'shards', '--merchant', unknown, '--count', '17');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --count must be a whole number from 1 to 16, not "17" \(usage: /);
    expect((await scanTable()).filter((item) => item.merchantId === unknown)).toEqual([]);
  });
});
