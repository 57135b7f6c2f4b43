import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminError } from '../../../tools/admin/operations';
import { readAdminSettings } from '../../../tools/admin/settings';
import { localStateDir, resolveTarget, withTarget } from '../../../tools/admin/target';

const secretKey = `merchant_sbx0123456789_${'s'.repeat(43)}`;
const accessKey = '0123456789abcdef0123456789abcdef';

describe('resolveTarget with --stage', () => {
  it('uses --table first', async () => {
    const target = await resolveTarget(
      { kind: 'stage', stage: 'production', tableName: 'given' },
      { TABLE_NAME: 'from-env' },
    );
    expect(target).toEqual({ stage: 'production', tableName: 'given' });
  });

  it('falls back to TABLE_NAME, then to merchant-payments-<stage>, and never sets an endpoint', async () => {
    expect(await resolveTarget({ kind: 'stage', stage: 'sandbox' }, { TABLE_NAME: 'from-env' })).toEqual({
      stage: 'sandbox',
      tableName: 'from-env',
    });
    // An exported but empty TABLE_NAME counts as unset, as for every variable.
    const unset = readAdminSettings({ TABLE_NAME: '' });
    expect(await resolveTarget({ kind: 'stage', stage: 'production' }, unset)).toEqual({
      stage: 'production',
      tableName: 'merchant-payments-production',
    });
  });
});

describe('resolveTarget with --local', () => {
  let stateDir: string;
  beforeEach(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'admin-target-'));
  });
  afterEach(() => rm(stateDir, { recursive: true, force: true }));

  /** Resolves the local target of `stateDir`, expecting it refused with an AdminError; its message. */
  async function localTargetRefusal(): Promise<string> {
    const error = await resolveTarget({ kind: 'local' }, { LOCAL_STATE_DIR: stateDir }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(AdminError);
    return (error as Error).message;
  }

  it('takes endpoint, table and stage from runtime.json and the access key from dynamodb.key in LOCAL_STATE_DIR, and keeps that folder', async () => {
    const runtime = {
      baseUrl: 'http://127.0.0.1:3000',
      stage: 'production',
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      tableName: 'local-table',
      merchantId: 'mer_01h455vb4pex5vsknk084sn02q',
      apiKey: secretKey,
    };
    await writeFile(join(stateDir, 'runtime.json'), JSON.stringify(runtime));
    await writeFile(join(stateDir, 'dynamodb.key'), `${accessKey}\n`, { mode: 0o600 });
    const target = await resolveTarget({ kind: 'local' }, { LOCAL_STATE_DIR: stateDir });
    expect(target).toEqual({
      stage: 'production',
      tableName: 'local-table',
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      stateDir,
      dynamodbAccessKeyId: accessKey,
    });
  });

  it('says to restart `npm start` when the state folder has no DynamoDB Local key', async () => {
    const runtime = { stage: 'sandbox', dynamodbEndpoint: 'http://127.0.0.1:8000', tableName: 't' };
    await writeFile(join(stateDir, 'runtime.json'), JSON.stringify(runtime));
    const resolving = resolveTarget({ kind: 'local' }, { LOCAL_STATE_DIR: stateDir });
    await expect(resolving).rejects.toThrow(AdminError);
    await expect(resolving).rejects.toThrow(
      `no DynamoDB Local key at ${join(stateDir, 'dynamodb.key')}: restart \`npm start\` to make it`,
    );
  });

  it('refuses a damaged dynamodb.key without echoing its contents', async () => {
    const runtime = { stage: 'sandbox', dynamodbEndpoint: 'http://127.0.0.1:8000', tableName: 't' };
    await writeFile(join(stateDir, 'runtime.json'), JSON.stringify(runtime));
    await writeFile(join(stateDir, 'dynamodb.key'), `${accessKey}-${secretKey}\n`);
    const message = await localTargetRefusal();
    expect(message).toContain('does not hold a DynamoDB Local access key');
    expect(message).not.toContain(accessKey);
  });

  it('says to run `npm start` when there is no runtime.json', async () => {
    const resolving = resolveTarget({ kind: 'local' }, { LOCAL_STATE_DIR: stateDir });
    await expect(resolving).rejects.toThrow(AdminError);
    await expect(resolving).rejects.toThrow('no local runtime found: run `npm start` first');
  });

  it('names the bad fields of a damaged runtime.json without echoing its contents', async () => {
    await writeFile(
      join(stateDir, 'runtime.json'),
      JSON.stringify({ stage: secretKey, tableName: secretKey, apiKey: secretKey }),
    );
    const message = await localTargetRefusal();
    expect(message).toContain('stage, dynamodbEndpoint');
    expect(message).not.toContain(secretKey);
  });

  it('names an endpoint that is no URL', async () => {
    const runtime = {
      stage: 'sandbox',
      dynamodbEndpoint: '127.0.0.1:8000',
      tableName: 't',
      apiKey: secretKey,
    };
    await writeFile(join(stateDir, 'runtime.json'), JSON.stringify(runtime));
    const message = await localTargetRefusal();
    expect(message).toMatch(/lacks a valid dynamodbEndpoint: restart/);
  });

  it('refuses a runtime.json that is not JSON', async () => {
    await writeFile(join(stateDir, 'runtime.json'), `{"apiKey":"${secretKey}"`);
    const message = await localTargetRefusal();
    expect(message).toContain('is not valid JSON');
    expect(message).not.toContain(secretKey);
  });
});

describe('localStateDir', () => {
  it('defaults to .local/ at the repository root, whatever the working directory', () => {
    expect(localStateDir({})).toBe(resolve(import.meta.dirname, '../../../.local'));
  });

  it('resolves a relative LOCAL_STATE_DIR against the working directory, as `npm start` does', () => {
    expect(localStateDir({ LOCAL_STATE_DIR: 'state' })).toBe(resolve('state'));
  });
});

describe('withTarget', () => {
  const names = ['TABLE_NAME', 'STAGE', 'DYNAMODB_ENDPOINT', 'DYNAMODB_LOCAL_ACCESS_KEY_ID'] as const;
  let saved: (string | undefined)[];
  beforeEach(() => {
    saved = names.map((name) => process.env[name]);
    Object.assign(process.env, { TABLE_NAME: 'before', STAGE: 'sandbox' });
    delete process.env.DYNAMODB_ENDPOINT;
    delete process.env.DYNAMODB_LOCAL_ACCESS_KEY_ID;
  });
  afterEach(() => {
    names.forEach((name, index) => {
      const value = saved[index];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    });
  });

  it('points the store at the target while the action runs and restores the environment after', async () => {
    const seen = await withTarget(
      {
        stage: 'production',
        tableName: 'during',
        dynamodbEndpoint: 'http://127.0.0.1:8000',
        dynamodbAccessKeyId: accessKey,
      },
      async () => names.map((name) => process.env[name]),
    );
    expect(seen).toEqual(['during', 'production', 'http://127.0.0.1:8000', accessKey]);
    expect(names.map((name) => process.env[name])).toEqual(['before', 'sandbox', undefined, undefined]);
  });

  it('leaves no endpoint set for an AWS stage and restores the environment when the action fails', async () => {
    process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9999';
    const failing = withTarget({ stage: 'sandbox', tableName: 'during' }, async () => {
      expect(process.env.DYNAMODB_ENDPOINT).toBeUndefined();
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(process.env.DYNAMODB_ENDPOINT).toBe('http://127.0.0.1:9999');
    expect(process.env.TABLE_NAME).toBe('before');
  });
});
