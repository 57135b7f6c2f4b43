import type { Stage } from '../config';
import {
  ApiKeyStatus,
  apiKeyMatches,
  effectiveKeyStatus,
  parseApiKey,
  StageKeyCode,
} from '../domain/api-key';
import type { ApiKeyRecord } from '../store/merchants';

export type AuthorizationResult =
  | { readonly allowed: true; readonly merchantId: string; readonly keyPrefix: string }
  | { readonly allowed: false; readonly reason: string };

/** The scheme is case-insensitive and may be followed by several spaces (RFC 9110 §11.1, §11.4). */
const bearerPattern = /^bearer +(\S+)$/i;

/**
 * Decides whether an Authorization header grants access on this stage. Every refusal is the same
 * 401 to the caller; `reason` is for logs only and never holds the key.
 */
export async function authorize(
  authorization: string | undefined,
  context: { stage: Stage; now: Date; findKey: (keyId: string) => Promise<ApiKeyRecord | undefined> },
): Promise<AuthorizationResult> {
  const token = authorization === undefined ? undefined : bearerPattern.exec(authorization.trim())?.[1];
  if (token === undefined) return { allowed: false, reason: 'missing or non-bearer Authorization header' };
  const parsed = parseApiKey(token);
  if (parsed === undefined) return { allowed: false, reason: 'malformed key' };
  if (parsed.stageCode !== StageKeyCode[context.stage])
    return { allowed: false, reason: 'key of another stage' };
  const record = await context.findKey(parsed.keyId);
  if (record === undefined || !apiKeyMatches(token, record.keyHash)) {
    return { allowed: false, reason: 'unknown key' };
  }
  const status = effectiveKeyStatus(record, context.now);
  if (status !== ApiKeyStatus.active) return { allowed: false, reason: `${status} key` };
  return { allowed: true, merchantId: record.merchantId, keyPrefix: record.keyPrefix };
}
