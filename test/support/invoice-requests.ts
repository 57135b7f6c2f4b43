import { type ApiClient, type ApiResult, newKey } from './local-runtime';

/** The catalog and customer ids an invoice names (as `invoiceFixtures` returns them). */
export interface InvoiceRefs {
  readonly customerId: string;
  readonly productId: string;
  readonly priceId: string;
}

export type InvoiceAction =
  | 'void'
  | 'issue'
  | 'send'
  | 'payments'
  | 'rotate-url-slug'
  | 'clear-pay-link-declines';

/** A product_charge line of the fixtures' product and price. */
export function productLine(refs: InvoiceRefs, quantity = 1, extra: Record<string, unknown> = {}) {
  return { kind: 'product_charge', productId: refs.productId, priceId: refs.priceId, quantity, ...extra };
}

/** A manual_adjustment line (docs/decisions/invoice-create.md). */
export function adjustmentLine(amount: number, adjustmentType = 'tax', description = 'Sales tax') {
  return { kind: 'manual_adjustment', adjustmentType, description, amount };
}

/** The minimal valid create body (spec POST /invoices): merchantId, customerId, currency, lineItems. */
export function invoiceBody(merchantId: string, refs: InvoiceRefs, fields: Record<string, unknown> = {}) {
  return {
    merchantId,
    customerId: refs.customerId,
    currency: 'USD',
    lineItems: [productLine(refs, 2)],
    ...fields,
  };
}

export function createInvoice(api: ApiClient, body: unknown, idempotencyKey = newKey()): Promise<ApiResult> {
  return api('POST', '/invoices', { body, idempotencyKey });
}

/** POST /invoices/{id}/<action> with the lifecycle body (`{merchantId}` plus `fields`). */
export function invoiceAction(
  api: ApiClient,
  merchantId: string,
  invoiceId: string,
  action: InvoiceAction,
  fields: Record<string, unknown> = {},
  idempotencyKey = newKey(),
): Promise<ApiResult> {
  return api('POST', `/invoices/${invoiceId}/${action}`, {
    body: { merchantId, ...fields },
    idempotencyKey,
  });
}

/** A new one-unit invoice of the fixtures' price, issued: one invoices.InvoiceSent event. */
export async function issueInvoice(api: ApiClient, merchantId: string, refs: InvoiceRefs): Promise<any> {
  const draft = expectOk(
    await createInvoice(api, invoiceBody(merchantId, refs, { lineItems: [productLine(refs)] })),
  );
  return expectOk(await invoiceAction(api, merchantId, draft.invoiceId, 'issue'));
}

/**
 * A new invoice of 2 × the fixtures' price (12.50 USD) plus 2.50 sales tax = 27.50 USD, issued, so it
 * has a pay link; `fields` add to or replace the create body's. Returns the merchant-facing body.
 */
export async function issueTaxedInvoice(
  api: ApiClient,
  merchantId: string,
  refs: InvoiceRefs,
  fields: Record<string, unknown> = {},
): Promise<any> {
  const lineItems = [productLine(refs, 2), adjustmentLine(250)];
  const draft = expectOk(await createInvoice(api, invoiceBody(merchantId, refs, { lineItems, ...fields })));
  return expectOk(await invoiceAction(api, merchantId, draft.invoiceId, 'issue'));
}

/** Asserts a 2xx, so a broken arrange step fails with its own status and body. */
export function expectOk(result: ApiResult): any {
  if (result.status < 200 || result.status > 299) {
    throw new Error(`expected 2xx, got ${result.status}: ${JSON.stringify(result.body)}`);
  }
  return result.body;
}

/** Items an invoice create writes: the invoice, the number counter, the slug lookup, the key record. */
const createdEntityTypes = ['Invoice', 'InvoiceNumberCounter', 'InvoiceSlug', 'IdempotencyRecord'];

/** Those items, ordered by key, so two snapshots compare equal exactly when nothing was written. */
export function invoiceWrites(items: Record<string, unknown>[]): Record<string, unknown>[] {
  return items
    .filter((item) => createdEntityTypes.includes(String(item.entityType)))
    .sort((a, b) => `${a.PK}|${a.SK}`.localeCompare(`${b.PK}|${b.SK}`));
}

/** The outbox Event items of one invoice and one event type, oldest first. */
export function invoiceEvents(
  items: Record<string, unknown>[],
  invoiceId: string,
  eventType: 'invoices.InvoiceSent' | 'invoices.InvoicePaid',
): any[] {
  return items
    .filter(
      (item: any) =>
        item.entityType === 'Event' && item.eventType === eventType && item.payload?.invoiceId === invoiceId,
    )
    .sort((a: any, b: any) => String(a.eventId).localeCompare(String(b.eventId)));
}
