import type { Invoice } from '../domain/invoice';
import type { EmailKind } from '../domain/invoice-email';

/** What one invoice email is rendered from. */
export interface InvoiceEmailInput {
  /** On issue, on a resend, or the receipt on full payment. */
  readonly kind: EmailKind;
  readonly invoice: Invoice;
  readonly merchantName: string;
  /** The hosted pay page, `{base_url}/pay#<slug>`: never logged; left out of the receipt. */
  readonly payUrl: string;
  /** The payment that settled the invoice, for the receipt; any part may be unknown. */
  readonly payment?: {
    /** ISO 8601. */
    readonly paidAt?: string | undefined;
    /** `card`, `bank_account`, `out_of_band`, …: shown in words. */
    readonly methodKind?: string | undefined;
    readonly reference?: string | undefined;
  };
}
