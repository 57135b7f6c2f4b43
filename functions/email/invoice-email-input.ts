import type { Invoice } from '../domain/invoice';

/** The three emails of an invoice: on issue, on a resend, and the receipt on full payment. */
export const InvoiceEmailKind = { issued: 'issued', resent: 'resent', paid: 'paid' } as const;
export type InvoiceEmailKind = (typeof InvoiceEmailKind)[keyof typeof InvoiceEmailKind];

/** What one invoice email is rendered from. */
export interface InvoiceEmailInput {
  readonly kind: InvoiceEmailKind;
  readonly invoice: Invoice;
  readonly merchantName: string;
  /** The hosted pay page, `{base_url}/pay#<slug>`: never logged; left out of the receipt. */
  readonly payUrl: string;
  /** The payment that settled the invoice, for the receipt; any part may be unknown. */
  readonly payment?: {
    /** ISO 8601. */
    readonly paidAt?: string;
    /** `card`, `bank_account`, `out_of_band`, …: shown in words. */
    readonly methodKind?: string;
    readonly reference?: string;
  };
}
