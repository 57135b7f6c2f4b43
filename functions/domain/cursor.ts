import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque, tamper-proof list cursors (docs/decisions/lists-and-cursors.md): the last key of a page, base64url
 * JSON, followed by an HMAC over that payload and the scope it was issued for (merchant, list and filters).
 * A cursor used with another scope, or altered in any byte, fails verification.
 */
export function signCursor(lastKey: Record<string, unknown>, scope: string, signingKey: Uint8Array): string {
  const payload = Buffer.from(JSON.stringify(lastKey), 'utf8').toString('base64url');
  return `${payload}.${mac(payload, scope, signingKey)}`;
}

/** The last key the cursor carries, or undefined when it is malformed, altered or out of scope. */
export function verifyCursor(
  cursor: string,
  scope: string,
  signingKey: Uint8Array,
): Record<string, unknown> | undefined {
  const [payload, signature, ...rest] = cursor.split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(payload, scope, signingKey), 'base64url');
  const presented = Buffer.from(signature, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  try {
    const lastKey: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof lastKey === 'object' && lastKey !== null && !Array.isArray(lastKey)
      ? (lastKey as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function mac(payload: string, scope: string, signingKey: Uint8Array): string {
  return createHmac('sha256', signingKey).update(`${scope}\n${payload}`, 'utf8').digest('base64url');
}
