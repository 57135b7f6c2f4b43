import { InvalidFields, RuleViolation } from './errors';
import {
  AmountOverflowError,
  type Currency,
  type Money,
  maxAmount,
  multiplyAmount,
  sumAmounts,
} from './money';
import { requirePaymentAmount } from './payment-amount';

export const InvoiceStatus = {
  draft: 'draft',
  issued: 'issued',
  partially_paid: 'partially_paid',
  paid: 'paid',
  void: 'void',
} as const;
export type InvoiceStatus = (typeof InvoiceStatus)[keyof typeof InvoiceStatus];

export const PaymentMethodType = { card: 'card', bank_account: 'bank_account' } as const;
export type PaymentMethodType = (typeof PaymentMethodType)[keyof typeof PaymentMethodType];

export const AdjustmentType = { tax: 'tax', shipping: 'shipping', fee: 'fee', other: 'other' } as const;
export type AdjustmentType = (typeof AdjustmentType)[keyof typeof AdjustmentType];

export const LineItemKind = {
  product_charge: 'product_charge',
  manual_adjustment: 'manual_adjustment',
} as const;

export interface ProductChargeLine {
  readonly kind: 'product_charge';
  readonly productId: string;
  readonly priceId: string;
  readonly description: string;
  readonly quantity: number;
  readonly unitAmount: number;
  readonly lineTotal: number;
}

/** An adjustment is one unit of its amount (docs/decisions/invoice-create.md). */
export interface ManualAdjustmentLine {
  readonly kind: 'manual_adjustment';
  readonly adjustmentType: AdjustmentType;
  readonly description: string;
  readonly quantity: 1;
  readonly unitAmount: number;
  readonly lineTotal: number;
}

export type LineItem = ProductChargeLine | ManualAdjustmentLine;

export interface Invoice {
  readonly invoiceId: string;
  readonly invoiceNumber: string;
  readonly invoiceUrlSlug: string;
  readonly idempotencyKey: string;
  readonly merchantId: string;
  readonly customerId: string;
  readonly currentRevisionNumber: number;
  readonly status: InvoiceStatus;
  readonly currency: Currency;
  readonly lineItems: readonly LineItem[];
  readonly productTotal: Money;
  readonly total: Money;
  readonly amountPaid: Money;
  readonly amountRemaining: Money;
  readonly acceptedPaymentMethods: readonly PaymentMethodType[];
  readonly additionalNotificationEmails: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly dueDate?: string;
  readonly paidAt?: string;
  readonly notes?: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

/**
 * What a pay link reads of an invoice: the payer's view and the pay action's checks. It leaves out the
 * slug itself, the notes, the metadata and the notification addresses, which a payer never sees.
 */
export const payerInvoiceFields = [
  'merchantId',
  'invoiceId',
  'customerId',
  'invoiceNumber',
  'currentRevisionNumber',
  'status',
  'currency',
  'lineItems',
  'productTotal',
  'total',
  'amountPaid',
  'amountRemaining',
  'dueDate',
  'paidAt',
  'acceptedPaymentMethods',
] as const satisfies readonly (keyof Invoice)[];

export type PayerInvoice = Pick<Invoice, (typeof payerInvoiceFields)[number]>;

/**
 * A draft is not the payer's yet: its pay link leads nowhere until the invoice is issued, and says
 * so no differently from a slug that never existed.
 */
export function isVisibleToPayer(invoice: Pick<Invoice, 'status'>): boolean {
  return invoice.status !== InvoiceStatus.draft;
}

/** `INV-` and the per-merchant sequence, zero-padded to six digits (docs/decisions/invoice-create.md). */
export function formatInvoiceNumber(sequence: number): string {
  return `INV-${String(sequence).padStart(6, '0')}`;
}

export type RequestedLine =
  | {
      readonly kind: 'product_charge';
      readonly productId: string;
      readonly priceId: string;
      readonly quantity: number;
      readonly description?: string | undefined;
    }
  | {
      readonly kind: 'manual_adjustment';
      readonly adjustmentType: AdjustmentType;
      readonly description: string;
      readonly amount: number;
    };

/** What the catalog holds for the ids a create request names; absent when unknown or not the merchant's. */
export interface CatalogView {
  product(productId: string): { readonly name: string; readonly active: boolean } | undefined;
  price(
    priceId: string,
  ): { readonly productId: string; readonly unitAmount: number; readonly currency: Currency } | undefined;
}

/**
 * Prices each requested line (docs/decisions/invoice-create.md): the product and price must be the
 * merchant's, active, and of one another; the price's currency must be the invoice's. Every
 * problem is collected, each on its own field path, before anything is refused.
 */
export function priceLineItems(
  lines: readonly RequestedLine[],
  currency: Currency,
  catalog: CatalogView,
): LineItem[] {
  const problems: { path: string; message: string }[] = [];
  const priced = lines.map((line, index): LineItem | undefined => {
    const path = `lineItems.${index}`;
    if (line.kind === 'manual_adjustment') {
      return {
        kind: 'manual_adjustment',
        adjustmentType: line.adjustmentType,
        description: line.description,
        quantity: 1,
        unitAmount: line.amount,
        lineTotal: line.amount,
      };
    }
    const product = catalog.product(line.productId);
    const price = catalog.price(line.priceId);
    if (product === undefined) {
      problems.push({ path: `${path}.productId`, message: 'must name an existing product.' });
    } else if (!product.active) {
      problems.push({ path: `${path}.productId`, message: 'must name an active product.' });
    }
    if (price === undefined || price.productId !== line.productId) {
      problems.push({ path: `${path}.priceId`, message: 'must name a price of this product.' });
    } else if (price.currency !== currency) {
      problems.push({
        path: `${path}.priceId`,
        message: `must name a price in ${currency}; this price is in ${price.currency}.`,
      });
    }
    if (product === undefined || price === undefined) return undefined;
    try {
      return {
        kind: 'product_charge',
        productId: line.productId,
        priceId: line.priceId,
        description: line.description ?? product.name,
        quantity: line.quantity,
        unitAmount: price.unitAmount,
        lineTotal: multiplyAmount(price.unitAmount, line.quantity),
      };
    } catch (error) {
      if (!(error instanceof AmountOverflowError)) throw error;
      problems.push({ path: `${path}.quantity`, message: `must keep the line total at most ${maxAmount}.` });
      return undefined;
    }
  });
  if (problems.length > 0) throw new InvalidFields(problems);
  return priced as LineItem[];
}

export interface Totals {
  readonly productTotal: Money;
  readonly total: Money;
  readonly amountPaid: Money;
  readonly amountRemaining: Money;
}

/**
 * Invoice totals (docs/decisions/invoice-create.md); a total past the integer bound is a 400 on lineItems.
 */
export function computeTotals(lines: readonly LineItem[], currency: Currency, amountPaid = 0): Totals {
  try {
    const productTotal = sumAmounts(
      lines.filter((line) => line.kind === 'product_charge').map((line) => line.lineTotal),
    );
    const total = sumAmounts(lines.map((line) => line.lineTotal));
    return {
      productTotal: { amount: productTotal, currency },
      total: { amount: total, currency },
      amountPaid: { amount: amountPaid, currency },
      amountRemaining: { amount: total - amountPaid, currency },
    };
  } catch (error) {
    if (!(error instanceof AmountOverflowError)) throw error;
    throw new InvalidFields(
      [{ path: 'lineItems', message: `must keep the invoice total at most ${maxAmount}.` }],
      { cause: error },
    );
  }
}

/** The fields of a change every transition shares: a new revision and `updatedAt`. */
function revised(
  invoice: Pick<Invoice, 'currentRevisionNumber'>,
  now: string,
): Pick<Invoice, 'currentRevisionNumber' | 'updatedAt'> {
  return { currentRevisionNumber: invoice.currentRevisionNumber + 1, updatedAt: now };
}

function requireStatus(
  invoice: Pick<Invoice, 'status'>,
  allowed: readonly InvoiceStatus[],
  action: string,
): void {
  if (!allowed.includes(invoice.status)) {
    throw new RuleViolation('invalid_state', `An invoice that is ${invoice.status} cannot be ${action}.`);
  }
}

/** Draft and issued may be voided; every other state is a 409 (docs/decisions/invoice-lifecycle.md). */
export function voidInvoice(invoice: Invoice, now: string): Invoice {
  requireStatus(invoice, [InvoiceStatus.draft, InvoiceStatus.issued], 'voided');
  return { ...invoice, ...revised(invoice, now), status: InvoiceStatus.void };
}

export function issueInvoice(invoice: Invoice, now: string): Invoice {
  requireStatus(invoice, [InvoiceStatus.draft], 'issued');
  return { ...invoice, ...revised(invoice, now), status: InvoiceStatus.issued };
}

/** A change of an invoice and the events it sends, in the order they happened. */
export interface InvoiceTransition {
  readonly next: Invoice;
  readonly events: readonly DomainEvent[];
}

/**
 * Issues a draft with its invoices.InvoiceSent (resend false). An invoice of total 0 has nothing to
 * pay, so it is paid as it is issued, as invoicing services do: a second revision, `paid` with
 * `paidAt`, and its invoices.InvoicePaid after the InvoiceSent (docs/decisions/invoice-lifecycle.md).
 * Each event carries its own revision as `objectVersion`, so a receiver orders them however they arrive.
 */
export function issueWithEvents(invoice: Invoice, now: string, newEventId: () => string): InvoiceTransition {
  const issued = issueInvoice(invoice, now);
  const sent = invoiceSentEvent(issued, false, newEventId(), now);
  if (issued.amountRemaining.amount > 0) return { next: issued, events: [sent] };
  const paid: Invoice = { ...issued, ...revised(issued, now), status: InvoiceStatus.paid, paidAt: now };
  return { next: paid, events: [sent, invoicePaidEvent(paid, newEventId())] };
}

/** A resend changes nothing but the revision: it is recorded as a change of the invoice. */
export function resendInvoice(invoice: Invoice, now: string): Invoice {
  requireStatus(invoice, [InvoiceStatus.issued, InvoiceStatus.partially_paid], 'sent');
  return { ...invoice, ...revised(invoice, now) };
}

/**
 * Applies a payment of `amount` (≥ 1); more than what remains is a 409 (docs/decisions/invoice-lifecycle.md).
 */
export function applyPayment<T extends PayerInvoice>(
  invoice: T,
  amount: number,
  now: string,
): T & Pick<Invoice, 'updatedAt'> {
  requirePaymentAmount(amount);
  requireStatus(invoice, [InvoiceStatus.issued, InvoiceStatus.partially_paid], 'paid');
  if (amount > invoice.amountRemaining.amount) {
    throw new RuleViolation(
      'invalid_state',
      `The payment of ${amount} is more than the ${invoice.amountRemaining.amount} that remains.`,
    );
  }
  const paid = invoice.amountPaid.amount + amount;
  const remaining = invoice.total.amount - paid;
  return {
    ...invoice,
    ...revised(invoice, now),
    status: remaining === 0 ? InvoiceStatus.paid : InvoiceStatus.partially_paid,
    amountPaid: { amount: paid, currency: invoice.currency },
    amountRemaining: { amount: remaining, currency: invoice.currency },
    ...(remaining === 0 ? { paidAt: now } : {}),
  };
}

export function withNewSlug(invoice: Invoice, slug: string, now: string): Invoice {
  return { ...invoice, ...revised(invoice, now), invoiceUrlSlug: slug };
}

export const EventType = {
  paymentCreated: 'payments.PaymentCreated',
  paymentDeclined: 'payments.PaymentDeclined',
  paymentRefunded: 'payments.PaymentRefunded',
  paymentReturned: 'payments.PaymentReturned',
  payoutCreated: 'payouts.PayoutCreated',
  invoiceSent: 'invoices.InvoiceSent',
  invoicePaid: 'invoices.InvoicePaid',
} as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

/**
 * An event as the outbox keeps it; the webhook pipeline delivers `payload` as the body's `data`.
 * `objectId` and `objectVersion` sit beside the payload, never inside it (the delivered `data` is
 * exactly the documented payload): the object the event is about and its version after the change
 * (docs/decisions/delivery-sequence-numbers-and-object-versions.md, docs/decisions/the-event-log.md).
 */
export interface DomainEvent {
  readonly eventId: string;
  readonly eventType: EventType;
  readonly merchantId: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
  /** The invoice (`inv_`), payment (`pmt_`) or payout (`po_`) the event reports a change of. */
  readonly objectId: string;
  /** That object's version after the change: an invoice's `currentRevisionNumber`, a payment's `version`, 1 for a payout. */
  readonly objectVersion: number;
}

/** invoices.InvoiceSent for an issue (resend false) or a send (resend true). */
export function invoiceSentEvent(
  invoice: Invoice,
  resend: boolean,
  eventId: string,
  occurredAt: string,
): DomainEvent {
  return {
    eventId,
    eventType: EventType.invoiceSent,
    merchantId: invoice.merchantId,
    payload: invoiceSentPayload(invoice, resend, occurredAt),
    createdAt: occurredAt,
    objectId: invoice.invoiceId,
    objectVersion: invoice.currentRevisionNumber,
  };
}

/** invoices.InvoicePaid, for the payment that completes the invoice. */
export function invoicePaidEvent(invoice: PayerInvoice, eventId: string): DomainEvent {
  const payload = invoicePaidPayload(invoice);
  return {
    eventId,
    eventType: EventType.invoicePaid,
    merchantId: invoice.merchantId,
    payload,
    createdAt: payload.paidAt,
    objectId: invoice.invoiceId,
    objectVersion: invoice.currentRevisionNumber,
  };
}

/** Payload of invoices.InvoiceSent: exactly the fields docs/receiving-webhooks.md lists. */
export function invoiceSentPayload(invoice: Invoice, resend: boolean, occurredAt: string) {
  return {
    invoiceId: invoice.invoiceId,
    merchantId: invoice.merchantId,
    customerId: invoice.customerId,
    invoiceNumber: invoice.invoiceNumber,
    resend,
    occurredAt,
  };
}

/** Payload of invoices.InvoicePaid: exactly the documented fields; `amount` is the invoice total. */
export function invoicePaidPayload(invoice: PayerInvoice) {
  if (invoice.paidAt === undefined) throw new Error('invoicePaidPayload needs a paid invoice');
  return {
    invoiceId: invoice.invoiceId,
    merchantId: invoice.merchantId,
    customerId: invoice.customerId,
    invoiceNumber: invoice.invoiceNumber,
    amount: invoice.total.amount,
    currency: invoice.currency,
    paidAt: invoice.paidAt,
  };
}

/** A new draft ((new) → draft, number assigned, totals computed). */
export function newInvoice(input: {
  invoiceId: string;
  sequence: number;
  invoiceUrlSlug: string;
  idempotencyKey: string;
  merchantId: string;
  customerId: string;
  currency: Currency;
  lineItems: readonly LineItem[];
  acceptedPaymentMethods: readonly PaymentMethodType[];
  additionalNotificationEmails: readonly string[];
  dueDate?: string | undefined;
  notes?: string | undefined;
  metadata?: Readonly<Record<string, string>> | undefined;
  now: string;
}): Invoice {
  return {
    invoiceId: input.invoiceId,
    invoiceNumber: formatInvoiceNumber(input.sequence),
    invoiceUrlSlug: input.invoiceUrlSlug,
    idempotencyKey: input.idempotencyKey,
    merchantId: input.merchantId,
    customerId: input.customerId,
    currentRevisionNumber: 1,
    status: InvoiceStatus.draft,
    currency: input.currency,
    lineItems: input.lineItems,
    ...computeTotals(input.lineItems, input.currency),
    acceptedPaymentMethods: input.acceptedPaymentMethods,
    additionalNotificationEmails: input.additionalNotificationEmails,
    createdAt: input.now,
    updatedAt: input.now,
    ...(input.dueDate === undefined ? {} : { dueDate: input.dueDate }),
    ...(input.notes === undefined ? {} : { notes: input.notes }),
    ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
  };
}
