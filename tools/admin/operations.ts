import { randomBytes } from 'node:crypto';
import type { Stage } from '../../functions/config';
import {
  ApiKeyStatus,
  effectiveKeyStatus,
  generateApiKey,
  parseApiKey,
} from '../../functions/domain/api-key';
import { newId } from '../../functions/domain/ids';
import { type ShardHistory, ShardRaiseError } from '../../functions/domain/shard-history';
import { isoTimestamp } from '../../functions/domain/time';
import {
  type ApiKeyRecord,
  getMerchant,
  listApiKeys,
  type Merchant,
  type MerchantContacts,
  putApiKey,
  putMerchant,
  updateApiKey,
  updateMerchantContacts,
} from '../../functions/store/merchants';

/**
 * The operator's commands (docs/decisions/admin-cli.md), shared by the admin CLI and the local runtime's
 * bootstrap. They use the same store code as the Lambda functions, so a key made here is exactly what the
 * authorizer expects.
 */
export class AdminError extends Error {
  override name = 'AdminError';
}

/** A raise the shard rules refuse (a lower count, one past the maximum) as the CLI's one-line error. */
export function refusedAsAdminError(raise: () => ShardHistory): ShardHistory {
  try {
    return raise();
  } catch (error) {
    if (error instanceof ShardRaiseError) throw new AdminError(error.message, { cause: error });
    throw error;
  }
}

/** Sets or removes the merchant's reply-to and notification addresses, and shows the merchant. */
export async function setMerchantContacts(merchantId: string, contacts: MerchantContacts) {
  const merchant = await updateMerchantContacts(merchantId, contacts);
  if (merchant === undefined) throw new AdminError(`merchant ${merchantId} does not exist`);
  return {
    merchantId: merchant.merchantId,
    name: merchant.name,
    supportEmail: merchant.supportEmail ?? null,
    notificationEmail: merchant.notificationEmail ?? null,
  };
}

export async function createMerchant(name: string, now = new Date()): Promise<Merchant> {
  if (name.trim().length === 0) throw new AdminError('--name must not be empty');
  const merchant = { merchantId: newId('mer'), name, createdAt: isoTimestamp(now) };
  await putMerchant(merchant);
  return merchant;
}

export interface CreatedKey {
  readonly apiKey: string;
  readonly keyPrefix: string;
  readonly merchantId: string;
  readonly stage: Stage;
  readonly expiresAt: string | null;
}

export async function createKey(
  merchantId: string,
  stage: Stage,
  options: { expiresInSeconds?: number | undefined; now?: Date } = {},
): Promise<CreatedKey> {
  const now = options.now ?? new Date();
  // A key that is expired the moment it is shown is an operator's mistake, not a request.
  if (options.expiresInSeconds !== undefined && options.expiresInSeconds <= 0) {
    throw new AdminError('--expires-in must be longer than 0s');
  }
  await requireMerchant(merchantId);
  const key = generateApiKey(stage, (size) => randomBytes(size));
  const expiresAt =
    options.expiresInSeconds === undefined
      ? undefined
      : isoTimestamp(new Date(now.getTime() + options.expiresInSeconds * 1000));
  await putApiKey({
    keyId: key.keyId,
    keyPrefix: key.keyPrefix,
    keyHash: key.keyHash,
    merchantId,
    stage,
    status: ApiKeyStatus.active,
    createdAt: isoTimestamp(now),
    expiresAt,
  });
  return { apiKey: key.apiKey, keyPrefix: key.keyPrefix, merchantId, stage, expiresAt: expiresAt ?? null };
}

export async function listKeys(merchantId: string, now = new Date()) {
  // An empty list for a mistyped id would read as "this merchant has no keys".
  await requireMerchant(merchantId);
  const records = await listApiKeys(merchantId);
  return {
    items: records.map((record) => ({
      keyPrefix: record.keyPrefix,
      status: effectiveKeyStatus(record, now),
      createdAt: record.createdAt,
      expiresAt: record.expiresAt ?? null,
    })),
  };
}

export async function revokeKey(keyPrefix: string) {
  const keyId = keyIdOfPrefix(keyPrefix);
  const record = await updateApiKey(keyId, { status: ApiKeyStatus.revoked });
  if (record === undefined) throw new AdminError(`key ${keyPrefix} does not exist`);
  return { keyPrefix: record.keyPrefix, status: ApiKeyStatus.revoked };
}

/** A new key now; every older active key of the merchant expires after the grace period. */
export async function rotateKeys(
  merchantId: string,
  stage: Stage,
  options: { expireOldInSeconds: number; now?: Date },
): Promise<CreatedKey> {
  const now = options.now ?? new Date();
  const graceEnd = new Date(now.getTime() + options.expireOldInSeconds * 1000);
  const older = (await listApiKeys(merchantId)).filter((record) => stillActiveAfter(record, now, graceEnd));
  const created = await createKey(merchantId, stage, { now });
  for (const record of older) await updateApiKey(record.keyId, { expiresAt: isoTimestamp(graceEnd) });
  return created;
}

async function requireMerchant(merchantId: string): Promise<void> {
  const merchant = await getMerchant(merchantId);
  if (merchant === undefined) throw new AdminError(`merchant ${merchantId} does not exist`);
}

/** An active key that would outlive the grace period gets its expiry moved forward to it. */
function stillActiveAfter(record: ApiKeyRecord, now: Date, graceEnd: Date): boolean {
  if (effectiveKeyStatus(record, now) !== ApiKeyStatus.active) return false;
  return record.expiresAt === undefined || Date.parse(record.expiresAt) > graceEnd.getTime();
}

/** What `--key` takes: the prefix of an API key, as `keys list` shows it. */
export const keyPrefixForm = 'a key prefix like merchant_sbx0123456789';

/** The key id a well-formed key prefix names; `undefined` for anything else. */
export function keyIdOfPrefixOrUndefined(keyPrefix: string): string | undefined {
  const parsed = parseApiKey(`${keyPrefix}_${'A'.repeat(43)}`);
  return parsed === undefined || parsed.keyPrefix !== keyPrefix ? undefined : parsed.keyId;
}

function keyIdOfPrefix(keyPrefix: string): string {
  const keyId = keyIdOfPrefixOrUndefined(keyPrefix);
  if (keyId === undefined) throw new AdminError(`--key must be ${keyPrefixForm}`);
  return keyId;
}

/** Ten years: beyond it an expiry means "never" (omit it), and far beyond it `Date` overflows. */
export const MaxDurationSeconds = 3650 * 86400;

/** `24h`, `30m`, `7d`, `45s` → seconds, at most `MaxDurationSeconds`. */
export function parseDuration(text: string): number {
  const match = /^(\d+)([smhd])$/.exec(text);
  if (match === null) throw new AdminError(`"${text}" is not a duration like 24h, 30m, 7d`);
  const unit = { s: 1, m: 60, h: 3600, d: 86400 }[match[2] as 's' | 'm' | 'h' | 'd'];
  const seconds = Number(match[1]) * unit;
  if (seconds > MaxDurationSeconds) throw new AdminError(`"${text}" is longer than the maximum of 3650d`);
  return seconds;
}
