import { createHash, timingSafeEqual } from 'node:crypto';
import type { Stage } from '../config';

/** The environment code inside every key, so a key of one stage is refused by the other. */
export const StageKeyCode = { sandbox: 'sbx', production: 'prd' } as const satisfies Record<Stage, string>;

export const ApiKeyStatus = { active: 'active', revoked: 'revoked', expired: 'expired' } as const;
export type ApiKeyStatus = (typeof ApiKeyStatus)[keyof typeof ApiKeyStatus];

/** merchant_<sbx|prd><10-char key id>_<32 random bytes, base64url> (docs/decisions/auth.md). */
const apiKeyPattern = /^merchant_(sbx|prd)([a-z0-9]{10})_([A-Za-z0-9_-]{43})$/;
const keyIdAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

export interface ParsedApiKey {
  readonly stageCode: string;
  readonly keyId: string;
  /** `merchant_<code><keyId>`: safe to show and log, names the key without revealing it. */
  readonly keyPrefix: string;
}

export function parseApiKey(token: string): ParsedApiKey | undefined {
  const match = apiKeyPattern.exec(token);
  if (match === null) return undefined;
  const [, stageCode = '', keyId = ''] = match;
  return { stageCode, keyId, keyPrefix: `merchant_${stageCode}${keyId}` };
}

export interface NewApiKey extends ParsedApiKey {
  readonly apiKey: string;
  readonly keyHash: string;
}

/** Builds a key from injected randomness: 10 bytes pick the key id, 32 bytes are the secret. */
export function generateApiKey(stage: Stage, randomBytes: (size: number) => Uint8Array): NewApiKey {
  const stageCode = StageKeyCode[stage];
  const keyId = Array.from(randomBytes(10), (byte) => keyIdAlphabet[byte % keyIdAlphabet.length]).join('');
  const secret = Buffer.from(randomBytes(32)).toString('base64url');
  const apiKey = `merchant_${stageCode}${keyId}_${secret}`;
  return {
    apiKey,
    stageCode,
    keyId,
    keyPrefix: `merchant_${stageCode}${keyId}`,
    keyHash: hashApiKey(apiKey),
  };
}

/** Only this hash is stored; the key itself is shown once, at creation. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented key with a stored hash. */
export function apiKeyMatches(apiKey: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(apiKey), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

export interface ApiKeyRecordState {
  readonly status: ApiKeyStatus;
  readonly expiresAt?: string | undefined;
}

/** The status a key has at `now`: an active key past its `expiresAt` is expired. */
export function effectiveKeyStatus(record: ApiKeyRecordState, now: Date): ApiKeyStatus {
  if (record.status !== ApiKeyStatus.active) return record.status;
  if (record.expiresAt !== undefined && Date.parse(record.expiresAt) <= now.getTime())
    return ApiKeyStatus.expired;
  return ApiKeyStatus.active;
}
