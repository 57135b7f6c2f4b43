import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  ResourceNotFoundException,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalDynamoDb } from '../../functions/store/client';
import { runAdmin } from '../../tools/admin/cli';
import { createKey, createMerchant } from '../../tools/admin/operations';
import { withTarget } from '../../tools/admin/target';
import { dynamoDbLocalClientConfig } from '../../tools/local/dynamodb-local';
import { ensureTable } from '../../tools/local/ensure-table';
import { startLocalEntry } from '../support/local-entry';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The entry point of `npm start`, as npm-start.test.ts runs it, on a state folder of the test's. */
function startLocal(stateDir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Started {
  const { child, output } = startLocalEntry(
    args,
    { ...process.env, ...env, PORT: '0', LOCAL_STATE_DIR: stateDir },
    import.meta.filename,
  );
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  running.add(child);
  void exited.then(() => running.delete(child));
  return { child, output, exited };
}

async function ready(started: Started) {
  await expect.poll(started.output, { timeout: 60_000, interval: 200 }).toMatch(/listening on http:\/\/\S+/);
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  expect(await started.exited).toBe(0);
}

interface RuntimeFile {
  baseUrl: string;
  stage: 'sandbox' | 'production';
  dynamodbEndpoint: string;
  tableName: string;
  merchantId: string;
  apiKey: string;
}

async function runtimeFile(stateDir: string): Promise<RuntimeFile> {
  return JSON.parse(await readFile(join(stateDir, 'runtime.json'), 'utf8')) as RuntimeFile;
}

const running = new Set<ChildProcess>();
const clients: DynamoDBClient[] = [];
const stateDirs: string[] = [];
afterAll(async () => {
  for (const client of clients) client.destroy();
  for (const child of running) child.kill('SIGKILL');
  for (const dir of stateDirs) await rm(dir, { recursive: true, force: true });
});

async function newStateDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'merchant-payments-access-'));
  stateDirs.push(dir);
  return dir;
}

function clientFor(endpoint: string, accessKeyId: string): DynamoDBClient {
  const client = new DynamoDBClient({ ...dynamoDbLocalClientConfig(endpoint, accessKeyId), maxAttempts: 1 });
  clients.push(client);
  return client;
}

async function productNames(runtime: RuntimeFile): Promise<string[]> {
  const listed = await fetch(`${runtime.baseUrl}/catalog/products?merchantId=${runtime.merchantId}`, {
    headers: { Authorization: `Bearer ${runtime.apiKey}` },
  });
  expect(listed.status).toBe(200);
  return ((await listed.json()) as { items: { name: string }[] }).items.map((item) => item.name);
}

describe('the table of npm start', () => {
  it('answers only clients holding the key of .local/dynamodb.key, kept across a restart and never printed', async () => {
    const stateDir = await newStateDir();
    const first = startLocal(stateDir);
    await ready(first);
    const runtime = await runtimeFile(stateDir);
    const keyFile = join(stateDir, 'dynamodb.key');
    const accessKey = (await readFile(keyFile, 'utf8')).trim();
    const keyStat = await stat(keyFile);
    expect(accessKey).toMatch(/^[0-9a-f]{32}$/);
    expect(keyStat.mode & 0o777).toBe(0o600);

    const created = await fetch(`${runtime.baseUrl}/catalog/products`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${runtime.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'guarded-1',
      },
      body: JSON.stringify({ merchantId: runtime.merchantId, name: 'Guarded' }),
    });
    expect(created.status).toBe(201);

    // Another address on the network knows the endpoint and the table's name, not the key.
    for (const outsiderKey of [LocalDynamoDb.defaultAccessKeyId, randomBytes(16).toString('hex')]) {
      const outsider = clientFor(runtime.dynamodbEndpoint, outsiderKey);
      expect((await outsider.send(new ListTablesCommand({}))).TableNames).toEqual([]);
      const key = { PK: { S: `MERCHANT#${runtime.merchantId}` }, SK: { S: 'MERCHANT' } };
      await expect(
        outsider.send(new GetItemCommand({ TableName: runtime.tableName, Key: key })),
      ).rejects.toThrow(ResourceNotFoundException);
      await expect(
        outsider.send(
          new PutItemCommand({ TableName: runtime.tableName, Item: { ...key, intruder: { S: 'yes' } } }),
        ),
      ).rejects.toThrow(ResourceNotFoundException);
    }

    // Nor does a table of the same name, with a valid key item, written under another access key.
    const outsiderTarget = {
      stage: runtime.stage,
      tableName: runtime.tableName,
      dynamodbEndpoint: runtime.dynamodbEndpoint,
      dynamodbAccessKeyId: LocalDynamoDb.defaultAccessKeyId,
    };
    await ensureTable(
      clientFor(runtime.dynamodbEndpoint, LocalDynamoDb.defaultAccessKeyId),
      runtime.tableName,
    );
    const forged = await withTarget(outsiderTarget, async () => {
      const merchant = await createMerchant('Forged merchant');
      return createKey(merchant.merchantId, runtime.stage);
    });
    const refused = await fetch(`${runtime.baseUrl}/catalog/products?merchantId=${forged.merchantId}`, {
      headers: { Authorization: `Bearer ${forged.apiKey}` },
    });
    expect(refused.status).toBe(401);

    const owner = clientFor(runtime.dynamodbEndpoint, accessKey);
    expect((await owner.send(new ListTablesCommand({}))).TableNames).toEqual([runtime.tableName]);
    const { Items = [] } = await owner.send(new ScanCommand({ TableName: runtime.tableName }));
    expect(Items.some((item) => item.name?.S === 'Guarded')).toBe(true);
    expect(Items.some((item) => item.intruder !== undefined)).toBe(false);

    // The admin CLI's --local finds the key beside runtime.json.
    let stdout = '';
    const listed = await runAdmin(['keys', 'list', '--merchant', runtime.merchantId, '--local', '--json'], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => undefined,
      env: { LOCAL_STATE_DIR: stateDir },
    });
    expect(listed).toBe(0);
    expect((JSON.parse(stdout) as { items: unknown[] }).items).toHaveLength(1);

    await stop(first);
    const second = startLocal(stateDir);
    await ready(second);
    const restarted = await runtimeFile(stateDir);
    const restartedStat = await stat(keyFile);
    expect((await readFile(keyFile, 'utf8')).trim()).toBe(accessKey);
    expect(restartedStat.ino).toBe(keyStat.ino);
    expect(restartedStat.mtimeMs).toBe(keyStat.mtimeMs);
    // The table survived: the merchant and key of runtime.json still authorize and see the product.
    expect(restarted.merchantId).toBe(runtime.merchantId);
    expect(await productNames(restarted)).toEqual(['Guarded']);
    // A fresh key: the fixed one now has the forged table of its own.
    const outsider = clientFor(restarted.dynamodbEndpoint, randomBytes(16).toString('hex'));
    expect((await outsider.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    await stop(second);

    for (const text of [
      first.output(),
      second.output(),
      stdout,
      await readFile(join(stateDir, 'runtime.json'), 'utf8'),
    ]) {
      expect(text).not.toContain(accessKey);
    }
  }, 180_000);

  it('is kept to the same key with --in-memory, whatever AWS region the shell names', async () => {
    const stateDir = await newStateDir();
    // DynamoDB Local keeps a database per key and region: every client of the runtime must sign
    // for the one region, or the store would look for the table in another database.
    const started = startLocal(stateDir, ['--in-memory'], { AWS_REGION: 'eu-west-1' });
    await ready(started);
    const runtime = await runtimeFile(stateDir);
    const accessKey = (await readFile(join(stateDir, 'dynamodb.key'), 'utf8')).trim();

    const outsider = clientFor(runtime.dynamodbEndpoint, LocalDynamoDb.defaultAccessKeyId);
    expect((await outsider.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    const owner = clientFor(runtime.dynamodbEndpoint, accessKey);
    expect((await owner.send(new ListTablesCommand({}))).TableNames).toEqual([runtime.tableName]);

    await stop(started);
    expect(started.output()).not.toContain(accessKey);
  }, 120_000);
});
