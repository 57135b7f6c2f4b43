import { emailPage, font, muted, text } from './email-layout';

/**
 * The HTML part of every invoice email, an Eta template over `InvoiceEmailView` (`it`), on the
 * emails' page (`email-layout.ts`). Only `<%= %>`, which escapes, ever prints a value
 * (`test/unit/email/invoice-email.test.ts` holds the template to that).
 */
const lead = `${font}font-size:15px;line-height:22px;color:#1f2328;`;
const cell = `${text}padding:8px 0;border-bottom:1px solid #e6e8eb;`;
const headCell = `${muted}font-weight:bold;padding:8px 0;border-bottom:2px solid #d0d7de;`;

export const invoiceEmailHtml =
  emailPage(`<tr><td style="${muted}padding:24px 32px 4px;"><%= it.merchantName %></td></tr>
<tr><td style="${font}font-size:22px;line-height:28px;font-weight:bold;color:#1f2328;padding:0 32px;"><%= it.heading %></td></tr>
<tr><td style="${lead}padding:12px 32px 20px;"><%= it.intro %></td></tr>
<% if (it.receipt.length > 0) { %>
<tr><td style="padding:0 32px 20px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f6f8fa;">
<% for (const row of it.receipt) { %>
<tr><td style="${muted}padding:6px 12px;"><%= row.label %></td><td align="right" style="${text}font-weight:bold;padding:6px 12px;"><%= row.value %></td></tr>
<% } %>
</table>
</td></tr>
<% } %>
<% if (it.lines.length > 0) { %>
<tr><td style="padding:0 32px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
<tr><th align="left" scope="col" style="${headCell}">Description</th><th align="right" scope="col" style="${headCell}padding-left:12px;">Qty</th><th align="right" scope="col" style="${headCell}padding-left:12px;">Unit price</th><th align="right" scope="col" style="${headCell}padding-left:12px;">Amount</th></tr>
<% for (const line of it.lines) { %>
<tr><td style="${cell}"><%= line.description %></td><td align="right" style="${cell}padding-left:12px;"><%= line.quantity %></td><td align="right" style="${cell}padding-left:12px;white-space:nowrap;"><%= line.unitAmount %></td><td align="right" style="${cell}padding-left:12px;white-space:nowrap;"><%= line.lineTotal %></td></tr>
<% } %>
</table>
</td></tr>
<% } %>
<tr><td style="padding:12px 32px 8px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
<% for (const row of it.summary) { %>
<tr><td align="right" style="${text}padding:4px 0;"><%= row.label %></td><td align="right" width="140" style="${text}font-weight:bold;padding:4px 0 4px 12px;white-space:nowrap;"><%= row.value %></td></tr>
<% } %>
</table>
</td></tr>
<% if (it.payUrl !== null) { %>
<tr><td align="center" style="padding:20px 32px 8px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" bgcolor="#0b5cd5" style="background-color:#0b5cd5;border-radius:6px;">
<a href="<%= it.payUrl %>" style="${font}display:inline-block;padding:12px 28px;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;">View and pay invoice</a>
</td></tr></table>
</td></tr>
<tr><td style="${muted}padding:8px 32px 16px;word-break:break-all;">Or open this link: <a href="<%= it.payUrl %>" style="color:#0b5cd5;"><%= it.payUrl %></a></td></tr>
<% } %>
<% if (it.noteLines.length > 0) { %>
<tr><td style="padding:12px 32px 8px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-left:3px solid #d0d7de;">
<tr><td style="${muted}font-weight:bold;padding:0 12px 4px;">Notes from <%= it.merchantName %></td></tr>
<tr><td style="${text}padding:0 12px;"><% it.noteLines.forEach((note, index) => { %><% if (index > 0) { %><br><% } %><%= note %><% }) %></td></tr>
</table>
</td></tr>
<% } %>
`);
