import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../functions/domain/api-key';
import { UsageError } from '../../../tools/cli/command-failure';
import { readSmokeKey } from '../../../tools/smoke/smoke-key';

const sandboxKey = generateApiKey('sandbox', (size) => randomBytes(size));
const productionKey = generateApiKey('production', (size) => randomBytes(size));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'merchant-payments-smoke-key-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function keyFile(name: string, text: string, mode: number): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text, { mode });
  return path;
}

/** The refusal, checked never to hold the key's secret part. */
async function refusal(read: Promise<unknown>): Promise<string> {
  const error = await read.then(
    () => new Error('accepted'),
    (thrown: Error) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error.message).not.toContain(sandboxKey.apiKey.slice(-43));
  return `${error.name}: ${error.message}`;
}

describe('readSmokeKey', () => {
  it('takes the key from SMOKE_API_KEY or from a file of mode 0600, and its stage from the key', async () => {
    expect(await readSmokeKey(undefined, { SMOKE_API_KEY: sandboxKey.apiKey })).toEqual({
      apiKey: sandboxKey.apiKey,
      keyPrefix: sandboxKey.keyPrefix,
      stage: 'sandbox',
    });
    const file = await keyFile('production', `${productionKey.apiKey}\n`, 0o600);
    expect(await readSmokeKey(file, {})).toMatchObject({ apiKey: productionKey.apiKey, stage: 'production' });
  });

  it('refuses a key file open to others, one that holds no key, and a key given twice, never showing it', async () => {
    const open = await keyFile('open', sandboxKey.apiKey, 0o640);
    expect(await refusal(readSmokeKey(open, {}))).toBe(
      `UsageError: --key-file "${open}" is open to others (mode 0640): make it yours only, chmod 600.`,
    );
    const twoLines = await keyFile('two-lines', `${sandboxKey.apiKey}\nmore\n`, 0o600);
    expect(await refusal(readSmokeKey(twoLines, {}))).toMatch(
      /^UsageError: --key-file ".*" does not hold an API key/,
    );
    const file = await keyFile('good', sandboxKey.apiKey, 0o600);
    expect(await refusal(readSmokeKey(file, { SMOKE_API_KEY: sandboxKey.apiKey }))).toBe(
      'UsageError: the key is given twice, in SMOKE_API_KEY and by --key-file: give it one way.',
    );
    expect(await refusal(readSmokeKey(join(dir, 'missing'), {}))).toMatch(/cannot be read: ENOENT\.$/);
  });

  it('refuses a malformed SMOKE_API_KEY without repeating it', async () => {
    const malformed = `${sandboxKey.apiKey}x`;
    const message = await refusal(readSmokeKey(undefined, { SMOKE_API_KEY: malformed }));
    expect(message).toBe(
      'SettingError: SMOKE_API_KEY is not accepted: it must be an API key, merchant_sbx… or merchant_prd… as the admin CLI printed it.',
    );
  });

  it('says where the key goes when there is none', async () => {
    await expect(readSmokeKey(undefined, { SMOKE_API_KEY: '' })).rejects.toThrow(
      new UsageError('no API key: set SMOKE_API_KEY, or give --key-file <path> naming a file of mode 0600.'),
    );
  });
});
