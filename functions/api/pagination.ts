import { signCursor, verifyCursor } from '../domain/cursor';
import { ValidationError } from '../http/errors';
import { ValidationMessage } from '../http/validation-messages';
import { cursorSigningKey } from '../store/merchants';
import type { QueryPage } from '../store/reads';

/** The scope a cursor is bound to: merchant, list operation and every filter value. */
export function cursorScope(
  merchantId: string,
  operationId: string,
  filters: Record<string, unknown> = {},
): string {
  return JSON.stringify([merchantId, operationId, filters]);
}

/** The start key a cursor carries; a cursor of another scope or an altered one is a 400. */
export async function startKeyOf(cursor: string | undefined, scope: string) {
  if (cursor === undefined) return undefined;
  const startKey = verifyCursor(cursor, scope, await cursorSigningKey());
  if (startKey === undefined) {
    throw new ValidationError([{ path: 'cursor', message: ValidationMessage.cursor }]);
  }
  return startKey;
}

/**
 * The page envelope of every list (docs/architecture.md#conventions-for-every-endpoint): `{items, page:
 * {hasMore, nextCursor?}}`.
 */
export async function pageResponse<T>(
  page: QueryPage,
  scope: string,
  toItem: (item: Record<string, unknown>) => T,
) {
  const nextCursor =
    page.lastKey === undefined ? undefined : signCursor(page.lastKey, scope, await cursorSigningKey());
  return {
    items: page.items.map(toItem),
    page: nextCursor === undefined ? { hasMore: false } : { hasMore: true, nextCursor },
  };
}
