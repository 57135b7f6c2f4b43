import { Eta, type TemplateFunction } from 'eta/core';
import type { InvoiceEmailInput } from './invoice-email-input';
import { invoiceEmailView } from './invoice-email-view';
import { invoiceEmailHtml } from './templates/invoice-email-html';
import { invoiceEmailText } from './templates/invoice-email-text';

export type { InvoiceEmailInput } from './invoice-email-input';

/** One email, ready for the mailer: a subject and two parts that each read on their own. */
export interface RenderedEmail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * Eta without its file loading (`eta/core`): the templates are string constants that esbuild
 * inlines into the mailer's bundle (docs/decisions/email-templates.md). The HTML escapes every
 * value; the text part prints them as written.
 */
const htmlEta = new Eta({ autoEscape: true });
const textEta = new Eta({ autoEscape: false, autoTrim: false });

// Compiled on first use, once per cold start.
let compiled: { readonly html: TemplateFunction; readonly text: TemplateFunction } | undefined;

/** The subject, text and HTML of the invoice email `input.kind` (issued, resent or the receipt). */
export function renderInvoiceEmail(input: InvoiceEmailInput): RenderedEmail {
  compiled ??= { html: htmlEta.compile(invoiceEmailHtml), text: textEta.compile(invoiceEmailText) };
  const view = invoiceEmailView(input);
  return {
    subject: view.subject,
    text: textEta.render(compiled.text, view),
    html: htmlEta.render(compiled.html, view),
  };
}
