import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DynamoDbAccessKey,
  KeyFileError,
  readKey,
  readOrCreateKey,
  SecretsKey,
} from '../../../tools/local/private-files';

const readOrCreateDynamoDbAccessKey = (dir: string) => readOrCreateKey(dir, DynamoDbAccessKey);
const readDynamoDbAccessKey = (dir: string) => readKey(dir, DynamoDbAccessKey);

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'dynamodb-access-key-'));
});
afterEach(() => rm(stateDir, { recursive: true, force: true }));

describe('readOrCreateDynamoDbAccessKey', () => {
  it('makes a 128-bit key of letters and digits once, in dynamodb.key readable by its owner only', async () => {
    const key = await readOrCreateDynamoDbAccessKey(stateDir);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const file = join(stateDir, 'dynamodb.key');
    expect(await readFile(file, 'utf8')).toBe(`${key}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('returns the stored key on every later call and leaves the file untouched', async () => {
    const first = await readOrCreateDynamoDbAccessKey(stateDir);
    const before = await stat(join(stateDir, 'dynamodb.key'));
    expect(await readOrCreateDynamoDbAccessKey(stateDir)).toBe(first);
    expect(await readDynamoDbAccessKey(stateDir)).toBe(first);
    const after = await stat(join(stateDir, 'dynamodb.key'));
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
  });

  it('gives racing first calls one key', async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => readOrCreateDynamoDbAccessKey(stateDir)));
    expect(new Set(keys).size).toBe(1);
    expect(await readDynamoDbAccessKey(stateDir)).toBe(keys[0]);
  });

  it('makes a different key for another state folder', async () => {
    const other = await mkdtemp(join(tmpdir(), 'dynamodb-access-key-'));
    try {
      expect(await readOrCreateDynamoDbAccessKey(other)).not.toBe(
        await readOrCreateDynamoDbAccessKey(stateDir),
      );
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('refuses a damaged key file instead of replacing it, naming the file and not its content', async () => {
    const damaged = 'not-a-key-0123456789abcdef';
    await writeFile(join(stateDir, 'dynamodb.key'), damaged);
    const error = await readOrCreateDynamoDbAccessKey(stateDir).catch((e: Error) => e);
    expect(error).toBeInstanceOf(KeyFileError);
    expect((error as Error).message).toContain(join(stateDir, 'dynamodb.key'));
    expect((error as Error).message).not.toContain(damaged);
    expect(await readFile(join(stateDir, 'dynamodb.key'), 'utf8')).toBe(damaged);
  });
});

describe('readDynamoDbAccessKey', () => {
  it('is undefined when the state folder has no key and creates none', async () => {
    expect(await readDynamoDbAccessKey(stateDir)).toBeUndefined();
    await expect(stat(join(stateDir, 'dynamodb.key'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the secrets key', () => {
  it('is 32 random bytes in base64, made once in secrets.key and refused when damaged', async () => {
    const key = await readOrCreateKey(stateDir, SecretsKey);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(await readOrCreateKey(stateDir, SecretsKey)).toBe(key);
    expect((await stat(join(stateDir, 'secrets.key'))).mode & 0o777).toBe(0o600);

    await writeFile(join(stateDir, 'secrets.key'), 'short');
    await expect(readKey(stateDir, SecretsKey)).rejects.toThrow(
      /secrets\.key does not hold a local secrets key/,
    );
  });
});
