import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  ResourceNotFoundException,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDynamoDb } from '../../../functions/store/client';
import { startFreshDynamoDbLocal } from '../../../tools/bench/fresh-dynamodb-local';
import {
  DynamoDbLocalError,
  DynamoDbLocalErrorCode,
  ensureDynamoDbLocalJar,
} from '../../../tools/dynamodb-local-files/install';
import {
  dynamoDbLocalClientConfig,
  JavaMissingError,
  startDynamoDbLocal,
} from '../../../tools/local/dynamodb-local';
import { findFreePort, isPortFree } from '../../../tools/local/ports';
import { testDynamoDbEndpoint } from '../../support/dynamodb';
import { startTestRuntime } from '../../support/local-runtime';

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'dynamodb-local-test-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** An executable shell script in the scratch directory. */
async function script(name: string, body: string): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

function listen(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host }, () => resolve(server));
  });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startDynamoDbLocal', () => {
  it('refuses a fixed port that is already in use with a clear error, before starting a JVM', async () => {
    const takenPort = Number(new URL(testDynamoDbEndpoint()).port);

    const start = startDynamoDbLocal({ inMemory: true, port: takenPort });

    await expect(start).rejects.toThrow(DynamoDbLocalError);
    await expect(start).rejects.toMatchObject({
      code: DynamoDbLocalErrorCode.portInUse,
      message: expect.stringContaining(`port ${takenPort}: the address is already in use`),
    });
  });

  // The JVM binds 0.0.0.0, so a listener on another loopback address (Linux routes all of
  // 127.0.0.0/8) passes the pre-check on 127.0.0.1 and is only seen in the JVM's own output.
  it.runIf(process.platform === 'linux')(
    'moves on to another free port when the JVM cannot bind the picked one, starts from its class archive, and stop() ends the JVM',
    async () => {
      const blockedPort = await findFreePort('127.0.0.2');
      const blocker = await listen(blockedPort, '127.0.0.2');
      const picks = [blockedPort];
      const output: string[] = [];
      const log: string[] = [];
      try {
        const dynamodb = await startDynamoDbLocal({
          inMemory: true,
          pickPort: async () => picks.shift() ?? findFreePort(),
          onOutput: (line) => output.push(line),
          log: (message) => log.push(message),
        });

        expect(output.join('\n')).toContain('Address already in use');
        expect(log).toContain(
          `Port ${blockedPort} was taken before DynamoDB Local could bind it; trying another port`,
        );
        expect(dynamodb.port).not.toBe(blockedPort);
        expect(dynamodb.endpoint).toBe(`http://127.0.0.1:${dynamodb.port}`);
        // The JVM maps the archive it starts from (docs/decisions/local-runtime.md#the-class-archive).
        expect(await readFile(`/proc/${dynamodb.pid}/maps`, 'utf8')).toMatch(
          /\/class-archive\/[0-9a-f]{32}\.jsa$/m,
        );
        const client = new DynamoDBClient(dynamoDbLocalClientConfig(dynamodb.endpoint, dynamodb.accessKeyId));
        await expect(client.send(new ListTablesCommand({}))).resolves.toMatchObject({ TableNames: [] });
        client.destroy();

        await dynamodb.stop();

        expect(isRunning(dynamodb.pid)).toBe(false);
        expect(await isPortFree(dynamodb.port)).toBe(true);
        await expect(dynamodb.exited).resolves.toBeDefined();
      } finally {
        blocker.close();
      }
    },
  );

  it('throws JavaMissingError with one line saying what to install when java is not on PATH', async () => {
    const emptyBin = await mkdtemp(join(scratch, 'bin-'));

    const start = startDynamoDbLocal({ inMemory: true, env: { PATH: emptyBin } });

    await expect(start).rejects.toThrow(JavaMissingError);
    // One line, exactly: what is missing and how to install it.
    await expect(start).rejects.toMatchObject({
      message:
        'Java 17+ is required to run DynamoDB Local: install it (Debian: apt-get install -y openjdk-17-jre-headless) and retry.',
    });
  });

  it('throws JavaMissingError when `java -version` fails', async () => {
    const brokenJava = await script('broken-java', 'echo "Error: could not find libjava.so" >&2; exit 1');

    await expect(startDynamoDbLocal({ inMemory: true, javaCommand: brokenJava })).rejects.toThrow(
      JavaMissingError,
    );
  });

  it('throws JavaMissingError naming the version found when Java is older than 17', async () => {
    const oldJava = await script('old-java', `echo 'openjdk version "11.0.22" 2024-01-16' >&2`);

    await expect(startDynamoDbLocal({ inMemory: true, javaCommand: oldJava })).rejects.toThrow(
      /^Java 17\+ is required to run DynamoDB Local \(found Java 11\): install it/,
    );
  });
});

describe('startDynamoDbLocal with an access key', () => {
  const ownerKey = randomBytes(16).toString('hex');
  const tableName = 'protected-table';

  function clientFor(endpoint: string, accessKeyId: string): DynamoDBClient {
    return new DynamoDBClient({ ...dynamoDbLocalClientConfig(endpoint, accessKeyId), maxAttempts: 1 });
  }

  async function createTableWithItem(client: DynamoDBClient, id: string): Promise<void> {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await client.send(new PutItemCommand({ TableName: tableName, Item: { id: { S: id } } }));
  }

  async function itemIds(client: DynamoDBClient): Promise<string[]> {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
    return Items.map((item) => String(item.id?.S));
  }

  it('keeps its tables from any client signing with another key, the old fixed one included', async () => {
    const dbPath = join(await mkdtemp(join(scratch, 'keyed-')), 'dynamodb');
    const dynamodb = await startDynamoDbLocal({ inMemory: false, dbPath, accessKeyId: ownerKey });
    const owner = clientFor(dynamodb.endpoint, ownerKey);
    const outsiders = [LocalDynamoDb.defaultAccessKeyId, randomBytes(16).toString('hex')].map((key) =>
      clientFor(dynamodb.endpoint, key),
    );
    try {
      expect(dynamodb.accessKeyId).toBe(ownerKey);
      await createTableWithItem(owner, 'owned');

      for (const outsider of outsiders) {
        expect((await outsider.send(new ListTablesCommand({}))).TableNames).toEqual([]);
        const key = { id: { S: 'owned' } };
        await expect(outsider.send(new GetItemCommand({ TableName: tableName, Key: key }))).rejects.toThrow(
          ResourceNotFoundException,
        );
        const write = new PutItemCommand({ TableName: tableName, Item: { id: { S: 'intruder' } } });
        await expect(outsider.send(write)).rejects.toThrow(ResourceNotFoundException);
      }

      expect((await owner.send(new ListTablesCommand({}))).TableNames).toEqual([tableName]);
      expect(await itemIds(owner)).toEqual(['owned']);
      // The database file is named after the key: its folder is closed to other local users.
      expect((await stat(dbPath)).mode & 0o777).toBe(0o700);
    } finally {
      for (const client of [owner, ...outsiders]) client.destroy();
      await dynamodb.stop();
    }
  });

  it('refuses an access key that is not letters and digits, which DynamoDB Local would refuse', async () => {
    await expect(startDynamoDbLocal({ inMemory: true, accessKeyId: 'not/a key' })).rejects.toMatchObject({
      code: DynamoDbLocalErrorCode.invalidAccessKey,
    });
  });
});

describe('the DynamoDB Local of npm run bench and npm run soak', () => {
  it('keeps the run’s table from a client signing with any other key, the old fixed one included', async () => {
    const stops: (() => Promise<void>)[] = [];
    const onStop = (stop: () => Promise<void>) => {
      stops.push(stop);
      return () => undefined;
    };
    const dynamodb = await startFreshDynamoDbLocal({ progress: () => undefined, onStop });
    const clients: DynamoDBClient[] = [];
    const clientFor = (accessKeyId: string) => {
      const client = new DynamoDBClient({
        ...dynamoDbLocalClientConfig(dynamodb.endpoint, accessKeyId),
        maxAttempts: 1,
      });
      clients.push(client);
      return client;
    };
    try {
      // The table is made as every bench section and the soak make theirs: by a runtime on the run's instance.
      const t = await startTestRuntime({}, { dynamodb });
      onStop(() => t.stop());
      const tableName = t.runtime.tableName;
      expect((await clientFor(dynamodb.accessKeyId).send(new ListTablesCommand({}))).TableNames).toEqual([
        tableName,
      ]);

      for (const key of [LocalDynamoDb.defaultAccessKeyId, randomBytes(16).toString('hex')]) {
        const outsider = clientFor(key);
        expect((await outsider.send(new ListTablesCommand({}))).TableNames).toEqual([]);
        const read = new GetItemCommand({ TableName: tableName, Key: { PK: { S: 'x' }, SK: { S: 'y' } } });
        await expect(outsider.send(read)).rejects.toThrow(ResourceNotFoundException);
      }
      expect(dynamodb.accessKeyId).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      for (const client of clients) client.destroy();
      for (const stop of stops.reverse()) await stop();
    }
  }, 60_000);
});

describe('ensureDynamoDbLocalJar', () => {
  it('uses the stamped cache without running npm again', async () => {
    const failingNpm = await script('failing-npm', 'echo "npm must not run" >&2; exit 1');

    const jar = await ensureDynamoDbLocalJar({ npmCommand: failingNpm });

    expect(jar.jarPath).toMatch(/\.cache\/dynamodb-local\/2\.9\.30\/DynamoDBLocal\.jar$/);
  });

  it('deletes a tarball whose SHA-256 differs from the pinned one and fails clearly, leaving no cache entry', async () => {
    const cacheDir = await mkdtemp(join(scratch, 'cache-'));
    const tamperingNpm = await script(
      'tampering-npm',
      [
        'while [ $# -gt 0 ]; do',
        '  if [ "$1" = "--pack-destination" ]; then dest="$2"; fi',
        '  shift',
        'done',
        'printf "not the real tarball" > "$dest/amplify-dynamodb-simulator-2.9.30.tgz"',
      ].join('\n'),
    );

    const ensure = ensureDynamoDbLocalJar({ cacheDir, npmCommand: tamperingNpm });

    await expect(ensure).rejects.toMatchObject({
      code: DynamoDbLocalErrorCode.integrityMismatch,
      message: expect.stringMatching(/expected 3503ffac19f1.*The tarball was deleted/),
    });
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('reports a failed npm pack as a download failure', async () => {
    const cacheDir = await mkdtemp(join(scratch, 'cache-'));
    const offlineNpm = await script('offline-npm', 'echo "npm error code ENOTFOUND" >&2; exit 1');

    await expect(ensureDynamoDbLocalJar({ cacheDir, npmCommand: offlineNpm })).rejects.toMatchObject({
      code: DynamoDbLocalErrorCode.downloadFailed,
      message: expect.stringContaining('npm error code ENOTFOUND'),
    });
    expect(await readdir(cacheDir)).toEqual([]);
  });
});
