import type { Invoice, LineItem } from '../domain/invoice';
import type { EmailKind } from '../domain/invoice-email';
import type { Money } from '../domain/money';
import { dateText } from './date-text';
import type { InvoiceEmailInput } from './invoice-email-input';
import { moneyText } from './money-text';

/**
 * Made on first use, as the money and date formatters are: a process's first `Intl` formatter costs
 * about a third of a bare function's import, so it is paid by the first render, not by the mailer's
 * import, and not at all by a mailer whose messages render nothing (docs/decisions/email-templates.md).
 */
let quantityFormatter: Intl.NumberFormat | undefined;

/** A quantity as en-US writes whole numbers: `1,000`. */
function quantityText(quantity: number): string {
  quantityFormatter ??= new Intl.NumberFormat('en-US');
  return quantityFormatter.format(quantity);
}

/** One label and its value, a row of the summary or of the receipt. */
export interface EmailRow {
  readonly label: string;
  readonly value: string;
}

export interface EmailLine {
  readonly description: string;
  readonly quantity: string;
  readonly unitAmount: string;
  readonly lineTotal: string;
}

/**
 * Everything an invoice email shows, already in words: the templates only lay it out, and escape
 * every value of it in the HTML part.
 */
export interface InvoiceEmailView {
  readonly subject: string;
  readonly merchantName: string;
  readonly heading: string;
  readonly intro: string;
  readonly lines: readonly EmailLine[];
  readonly summary: readonly EmailRow[];
  /** The payment's rows; empty except in the receipt. */
  readonly receipt: readonly EmailRow[];
  /** null in the receipt: a paid invoice has nothing left to pay. */
  readonly payUrl: string | null;
  readonly noteLines: readonly string[];
  readonly footer: string;
}

/** Words for the payment method kinds the service records; any other kind is spelled out as given. */
const methodWords: ReadonlyMap<string, string> = new Map([
  ['card', 'Card'],
  ['bank_account', 'Bank account'],
  ['out_of_band', 'Recorded by the merchant'],
]);

/** What the email of `input.kind` says about `input.invoice`, every amount and date in words. */
export function invoiceEmailView(input: InvoiceEmailInput): InvoiceEmailView {
  const { invoice, kind } = input;
  const merchantName = oneLine(input.merchantName);
  const dueDate = invoice.dueDate === undefined ? undefined : dateText(invoice.dueDate);
  return {
    subject: subjectOf(kind, invoice.invoiceNumber, merchantName),
    merchantName,
    heading: headingOf(kind, invoice.invoiceNumber),
    intro: introOf(kind, invoice, merchantName, dueDate),
    lines: invoice.lineItems.map((line) => lineOf(line, invoice.currency)),
    summary: summaryOf(kind, invoice, dueDate),
    receipt: kind === 'paid' ? receiptOf(input) : [],
    payUrl: kind === 'paid' ? null : input.payUrl,
    noteLines:
      invoice.notes === undefined || invoice.notes.trim() === '' ? [] : invoice.notes.split(/\r\n|\r|\n/),
    footer: `You are receiving this email because ${merchantName} sent you invoice ${invoice.invoiceNumber}.`,
  };
}

/**
 * A name as one line: a subject is a header, and a line break or control character in it would
 * break the header or hide the rest of the subject.
 */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
  return text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
}

function subjectOf(kind: EmailKind, invoiceNumber: string, merchantName: string): string {
  if (kind === 'paid') return `Receipt for invoice ${invoiceNumber} from ${merchantName}`;
  if (kind === 'resent') return `Reminder: invoice ${invoiceNumber} from ${merchantName}`;
  return `Invoice ${invoiceNumber} from ${merchantName}`;
}

function headingOf(kind: EmailKind, invoiceNumber: string): string {
  return kind === 'paid' ? `Receipt for invoice ${invoiceNumber}` : `Invoice ${invoiceNumber}`;
}

function introOf(
  kind: EmailKind,
  invoice: Invoice,
  merchantName: string,
  dueDate: string | undefined,
): string {
  const due = moneyText(invoice.amountRemaining);
  const by = dueDate === undefined ? '' : `, due ${dueDate}`;
  if (kind === 'paid') {
    return `Thank you for your payment. ${merchantName} has received ${moneyText(invoice.amountPaid)} for invoice ${invoice.invoiceNumber}, which is now paid in full.`;
  }
  if (kind === 'resent') {
    return `${merchantName} is reminding you of invoice ${invoice.invoiceNumber}: ${due} is still due${by}.`;
  }
  return `${merchantName} has sent you invoice ${invoice.invoiceNumber} for ${due}${by}.`;
}

function lineOf(line: LineItem, currency: Money['currency']): EmailLine {
  return {
    description: line.description,
    quantity: quantityText(line.quantity),
    unitAmount: moneyText({ amount: line.unitAmount, currency }),
    lineTotal: moneyText({ amount: line.lineTotal, currency }),
  };
}

/** Total, what was paid before (not in the receipt, which has its own row), what is due and when. */
function summaryOf(kind: EmailKind, invoice: Invoice, dueDate: string | undefined): EmailRow[] {
  const rows: EmailRow[] = [{ label: 'Total', value: moneyText(invoice.total) }];
  if (kind !== 'paid' && invoice.amountPaid.amount > 0) {
    rows.push({ label: 'Amount paid', value: moneyText(invoice.amountPaid) });
  }
  rows.push({ label: 'Amount due', value: moneyText(invoice.amountRemaining) });
  if (dueDate !== undefined) rows.push({ label: 'Due date', value: dueDate });
  return rows;
}

/** The receipt's rows: the amount always; the date, method and reference where they are known. */
function receiptOf({ invoice, payment }: InvoiceEmailInput): EmailRow[] {
  const rows: EmailRow[] = [{ label: 'Amount paid', value: moneyText(invoice.amountPaid) }];
  const paidAt = payment?.paidAt ?? invoice.paidAt;
  const paidOn = paidAt === undefined ? undefined : dateText(paidAt);
  if (paidOn !== undefined) rows.push({ label: 'Paid on', value: paidOn });
  const method = payment?.methodKind?.trim();
  if (method) rows.push({ label: 'Payment method', value: methodWords.get(method) ?? spelledOut(method) });
  const reference = payment?.reference?.trim();
  if (reference) rows.push({ label: 'Reference', value: reference });
  return rows;
}

/** `us_bank_account` → `Us bank account`: a kind this module has no words for yet, still readable. */
function spelledOut(kind: string): string {
  const words = kind.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
