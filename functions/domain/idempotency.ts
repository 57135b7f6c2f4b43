import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/** Keys are kept 24 h (docs/decisions/idempotency.md). */
export const idempotencyRetentionSeconds = 24 * 60 * 60;

/** 1–255 visible ASCII characters (docs/architecture.md#conventions-for-every-endpoint). */
export const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return idempotencyKeyPattern.test(key);
}

/** Scope: merchant + method + request path + key, hashed so the table key has a fixed size. */
export function idempotencyScopeHash(scope: {
  merchantId: string;
  method: string;
  path: string;
  key: string;
}): string {
  return sha256Hex([scope.merchantId, scope.method, scope.path, scope.key].join('\n'));
}

/**
 * Fingerprint of the request payload; key order and whitespace do not change it, and an absent
 * body is the same payload as `{}` (rotate and redeliver take either).
 */
export function requestFingerprint(body: unknown): string {
  return sha256Hex(canonicalJson(body ?? {}));
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
