import { describe, expect, it } from 'vitest';
import type { Invoice, LineItem } from '../../../functions/domain/invoice';
import type { EmailKind } from '../../../functions/domain/invoice-email';
import type { Currency } from '../../../functions/domain/money';
import { type InvoiceEmailInput, renderInvoiceEmail } from '../../../functions/email/invoice-email';
import { invoiceEmailHtml } from '../../../functions/email/templates/invoice-email-html';
import { invoiceIn } from '../../support/domain-invoice';

const payUrl = 'https://pay.example.test/pay#c2x1Zy1vZi10aGUtdGVzdA';
const kinds: readonly EmailKind[] = ['issued', 'resent', 'paid'];

const lines: readonly LineItem[] = [
  {
    kind: 'product_charge',
    productId: 'prod_1',
    priceId: 'price_1',
    description: 'Espresso machine',
    quantity: 2,
    unitAmount: 50000,
    lineTotal: 100000,
  },
  {
    kind: 'manual_adjustment',
    adjustmentType: 'shipping',
    description: 'Shipping',
    quantity: 1,
    unitAmount: 23450,
    lineTotal: 23450,
  },
];

/** An invoice of 1,234.50 in `currency` with two lines, `paid` of it paid. */
function invoiceOf(status: Invoice['status'], paid: number, overrides: Partial<Invoice> = {}): Invoice {
  const currency: Currency = overrides.currency ?? 'USD';
  const base = invoiceIn(status, 123450, paid);
  return {
    ...base,
    currency,
    lineItems: lines,
    productTotal: { amount: 100000, currency },
    total: { amount: 123450, currency },
    amountPaid: { amount: paid, currency },
    amountRemaining: { amount: 123450 - paid, currency },
    dueDate: '2026-12-01T00:00:00.000Z',
    notes: 'Thank you for your order.',
    ...overrides,
  };
}

/** The email of `kind` for the usual invoice: open for issued and resent, paid in full for the receipt. */
function emailOf(kind: EmailKind, overrides: Partial<InvoiceEmailInput> = {}) {
  const invoice = kind === 'paid' ? invoiceOf('paid', 123450) : invoiceOf('issued', 0);
  return renderInvoiceEmail({ kind, invoice, merchantName: 'Bean & Leaf Roasters', payUrl, ...overrides });
}

/** The HTML's text as a reader sees it: tags gone, entities read, white space collapsed. */
function readable(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('renderInvoiceEmail', () => {
  it.each(kinds)('names the merchant and the invoice number in the %s subject', (kind) => {
    const email = emailOf(kind);
    expect(email.subject).toContain('Bean & Leaf Roasters');
    expect(email.subject).toContain('INV-000001');
  });

  it('gives each of the three emails its own subject', () => {
    expect(new Set(kinds.map((kind) => emailOf(kind).subject)).size).toBe(3);
  });

  it.each(kinds)('shows the lines, total, amount due and due date in both parts of the %s email', (kind) => {
    const email = emailOf(kind);
    const amountDue = kind === 'paid' ? '$0.00' : '$1,234.50';
    for (const part of [email.text, readable(email.html)]) {
      expect(part).toContain('Espresso machine');
      expect(part).toContain('$500.00');
      expect(part).toContain('$1,000.00');
      expect(part).toContain('Shipping');
      expect(part).toContain('$234.50');
      expect(part).toMatch(/Total:? \$1,234\.50/);
      expect(part).toMatch(new RegExp(`Amount due:? \\${amountDue}`));
      expect(part).toMatch(/Due date:? December 1, 2026/);
    }
  });

  it('shows what was paid so far on a partly paid invoice sent again', () => {
    const invoice = invoiceOf('partially_paid', 23450);
    const email = renderInvoiceEmail({
      kind: 'resent',
      invoice,
      merchantName: 'Bean & Leaf Roasters',
      payUrl,
    });
    for (const part of [email.text, readable(email.html)]) {
      expect(part).toMatch(/Amount paid:? \$234\.50/);
      expect(part).toMatch(/Amount due:? \$1,000\.00/);
    }
  });

  it('writes Canadian amounts as CA$, never as a bare $', () => {
    const invoice = invoiceOf('issued', 0, { currency: 'CAD' });
    const email = renderInvoiceEmail({ kind: 'issued', invoice, merchantName: 'Érable Café', payUrl });
    for (const part of [email.text, readable(email.html)]) {
      expect(part).toContain('CA$1,234.50');
      expect(part).toContain('CA$500.00');
      expect(part).not.toMatch(/(?<!CA)\$/);
    }
  });

  it.each(['issued', 'resent'] as const)('links the pay page in both parts of the %s email', (kind) => {
    const email = emailOf(kind);
    expect(email.text).toContain(payUrl);
    expect(email.html).toContain(`href="${payUrl}"`);
  });

  it('leaves the pay link out of the receipt', () => {
    const email = emailOf('paid');
    for (const part of [email.subject, email.text, email.html]) {
      expect(part).not.toContain(payUrl);
      expect(part).not.toContain('/pay#');
    }
  });

  it('shows the receipt’s amount, date, payment method in words and reference', () => {
    const email = emailOf('paid', {
      payment: {
        paidAt: '2026-11-03T18:04:05.000Z',
        methodKind: 'bank_account',
        reference: 'ACH-20261103-7',
      },
    });
    for (const part of [email.text, readable(email.html)]) {
      expect(part).toMatch(/Amount paid:? \$1,234\.50/);
      expect(part).toMatch(/Paid on:? November 3, 2026/);
      expect(part).toMatch(/Payment method:? Bank account/);
      expect(part).toMatch(/Reference:? ACH-20261103-7/);
      expect(part).not.toContain('bank_account');
    }
  });

  it.each([
    ['card', 'Card'],
    ['out_of_band', 'Recorded by the merchant'],
    ['us_bank_account', 'Us bank account'],
    ['constructor', 'Constructor'],
  ])('writes the payment method %s as "%s"', (methodKind, words) => {
    expect(emailOf('paid', { payment: { methodKind } }).text).toContain(`Payment method: ${words}`);
  });

  it('renders a receipt whose payment is unknown without its date, method or reference', () => {
    const email = emailOf('paid');
    for (const part of [email.text, readable(email.html)]) {
      expect(part).toMatch(/Amount paid:? \$1,234\.50/);
      for (const label of ['Paid on', 'Payment method', 'Reference', 'undefined', 'null']) {
        expect(part).not.toContain(label);
      }
    }
  });

  it('dates a receipt by the invoice’s paidAt when the payment has none', () => {
    const invoice = invoiceOf('paid', 123450, { paidAt: '2026-11-04T09:00:00.000Z' });
    const email = renderInvoiceEmail({ kind: 'paid', invoice, merchantName: 'Bean & Leaf Roasters', payUrl });
    expect(email.text).toContain('Paid on: November 4, 2026');
  });

  it('renders an invoice without a due date or notes', () => {
    const { dueDate: _dueDate, notes: _notes, ...invoice } = invoiceOf('issued', 0);
    const email = renderInvoiceEmail({
      kind: 'issued',
      invoice,
      merchantName: 'Bean & Leaf Roasters',
      payUrl,
    });
    for (const part of [email.text, readable(email.html)]) {
      expect(part).toMatch(/Total:? \$1,234\.50/);
      for (const absent of ['Due date', ', due', 'Notes from', 'undefined', 'null']) {
        expect(part).not.toContain(absent);
      }
    }
  });

  describe('what the merchant or customer wrote', () => {
    const script = '<script>alert("x")</script>';
    const invoice = invoiceOf('issued', 0, {
      notes: `Pay by Friday ${script}\nTom & Jerry's`,
      lineItems: [{ ...(lines[0] as LineItem), description: `Grinder ${script}` }, lines[1] as LineItem],
    });
    const email = renderInvoiceEmail({ kind: 'issued', invoice, merchantName: `Evil ${script} Inc`, payUrl });

    it('arrives in the HTML escaped, never as markup', () => {
      expect(email.html).not.toMatch(/<script/i);
      expect(email.html).toContain('Evil &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Inc');
      expect(email.html).toContain('Grinder &lt;script&gt;');
      expect(email.html).toContain('Pay by Friday &lt;script&gt;');
      expect(email.html).toContain('Tom &amp; Jerry&#39;s');
    });

    it('arrives in the text part as written', () => {
      expect(email.text).toContain(`Evil ${script} Inc`);
      expect(email.text).toContain(`Grinder ${script}`);
      expect(email.text).toContain(`Pay by Friday ${script}\nTom & Jerry's`);
      expect(email.subject).toBe(`Invoice INV-000001 from Evil ${script} Inc`);
    });

    it('keeps the lines of the notes apart in the HTML', () => {
      expect(email.html).toContain('&lt;/script&gt;<br>Tom &amp; Jerry&#39;s');
    });
  });

  it('keeps the subject on one line whatever the merchant name holds', () => {
    const email = emailOf('issued', { merchantName: 'Bean\r\nBcc: someone@example.test\u0000 Roasters' });
    expect(email.subject).toBe('Invoice INV-000001 from Bean Bcc: someone@example.test Roasters');
  });

  it.each(kinds)(
    'lays the %s email out as mail clients render it: tables, inline styles, nothing fetched',
    (kind) => {
      const { html } = emailOf(kind);
      expect(html).toMatch(/^<!DOCTYPE html>/);
      expect(html).toContain('<table role="presentation"');
      for (const banned of [/<style/i, /<script/i, /<link/i, /<img/i, /\bclass=/i, /url\(/i]) {
        expect(html).not.toMatch(banned);
      }
    },
  );

  it('prints values in the HTML template only through the escaping tag', () => {
    expect(invoiceEmailHtml).toContain('<%= it.merchantName %>');
    expect(invoiceEmailHtml).not.toMatch(/<%[~-]/);
  });
});
