import type { Invoice } from '../domain/invoice';
import { getInvoice } from './invoices';

/*
 * Every invoice route answers with the invoice, pay-link slug included, and the idempotency record
 * keeps that answer for 24 h. The slug is a bearer credential (whoever holds it can pay), so the
 * record keeps no copy of it, sealed or not: a seal the table can open (a key derived from the
 * Idempotency-Key, which the invoice shows) protects nothing, and one it can't (KMS) would cost a
 * call on every invoice change to guard a copy of what the invoice item holds anyway. A replay reads
 * the slug back from the invoice instead (docs/decisions.md, "Idempotency").
 */

/**
 * The invoice as its idempotency record keeps it: `invoiceUrlSlug` is `null`, in its place, so a
 * replay that fills it in answers the same bytes in the same order.
 */
export function withoutSlug(invoice: Invoice): Omit<Invoice, 'invoiceUrlSlug'> & { invoiceUrlSlug: null } {
  return { ...invoice, invoiceUrlSlug: null };
}

/**
 * A stored invoice answer with the invoice's current slug filled in: after a rotation that is the
 * new slug, the only one that still pays. Records stored before slugs were left out hold the slug
 * (in the clear, or sealed as `{"$sealed": …}`) where this puts the current one, so they replay the
 * same way. One consistent GetItem, on replays only.
 */
export async function reviveInvoiceReplay(storedBody: unknown): Promise<unknown> {
  const body = storedBody as Partial<Record<keyof Invoice, unknown>>;
  if (typeof body !== 'object' || body === null || !('invoiceUrlSlug' in body)) return storedBody;
  const invoice = await getInvoice(String(body.merchantId), String(body.invoiceId));
  // Invoices are never deleted: a stored answer without its invoice is a broken table.
  if (invoice === undefined) throw new Error('The invoice of a stored response does not exist');
  return { ...body, invoiceUrlSlug: invoice.invoiceUrlSlug };
}
