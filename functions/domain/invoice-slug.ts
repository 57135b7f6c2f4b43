import { createHash } from 'node:crypto';

/** 32 random bytes: 256 bits, well past the 128 a pay link needs, and unrelated to the invoice id. */
export const slugBytes = 32;

export function newInvoiceUrlSlug(randomBytes: (size: number) => Uint8Array): string {
  return Buffer.from(randomBytes(slugBytes)).toString('base64url');
}

/** Slugs are looked up by this hash, so the lookup key never reveals the slug. */
export function invoiceSlugHash(slug: string): string {
  return createHash('sha256').update(slug, 'utf8').digest('hex');
}
