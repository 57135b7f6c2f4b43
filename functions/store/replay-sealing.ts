import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { IdempotencyContext } from './idempotency';

/**
 * Fields a stored response may hold that the table keeps nowhere else in the clear: an invoice's
 * pay-link slug lives on the invoice item only (the pay link is a bearer credential).
 */
const sealedFields = new Set(['invoiceUrlSlug']);
const marker = '$sealed';
const version = 'v1';

/**
 * The key that seals a stored response's slugs: derived from the client's Idempotency-Key, which
 * the record does not keep (only a hash of it with the scope), so only a request presenting the same
 * key again (a replay) can open them, and a copy of the table alone cannot.
 */
function sealingKey(context: IdempotencyContext): Buffer {
  return createHmac('sha256', Buffer.from(context.key, 'utf8'))
    .update(`stored response seal\n${context.scopeHash}`, 'utf8')
    .digest();
}

/** The body with every sealed field's string replaced by `{"$sealed": "v1.<iv>.<data>.<tag>"}`. */
export function sealStoredBody(body: unknown, context: IdempotencyContext): unknown {
  const key = once(() => sealingKey(context));
  return mapFields(body, (name, value) =>
    sealedFields.has(name) && typeof value === 'string' ? { [marker]: seal(value, key()) } : value,
  );
}

/** The body as it was before `sealStoredBody`; throws when a sealed value does not open with this key. */
export function openStoredBody(body: unknown, context: IdempotencyContext): unknown {
  const key = once(() => sealingKey(context));
  return mapFields(body, (name, value) => {
    if (!sealedFields.has(name) || typeof value !== 'object' || value === null) return value;
    const sealed = (value as Record<string, unknown>)[marker];
    return typeof sealed === 'string' ? open(sealed, key()) : value;
  });
}

/** The key is derived only for a body that holds a sealed field: most stored responses hold none. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

function seal(text: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [version, iv, data, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

function open(sealed: string, key: Buffer): string {
  const [tag, iv, data, authTag] = sealed.split('.');
  if (tag !== version || iv === undefined || data === undefined || authTag === undefined) {
    throw new Error('a sealed stored field has an unknown form');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(authTag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** A copy of a JSON value with `change` applied to every object property, at every depth. */
function mapFields(value: unknown, change: (name: string, value: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapFields(item, change));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [name, change(name, mapFields(field, change))]),
  );
}
