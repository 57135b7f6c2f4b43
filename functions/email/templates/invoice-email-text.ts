/**
 * The plain-text part of every invoice email, an Eta template over `InvoiceEmailView` (`it`),
 * rendered without escaping: a customer reads every value as it was written. A control tag closed
 * with `-%>` takes its line break with it, so the lines below are the lines of the email.
 */
export const invoiceEmailText = `<%= it.heading %> from <%= it.merchantName %>

<%= it.intro %>

<% if (it.receipt.length > 0) { -%>
Payment
<% for (const row of it.receipt) { -%>
<%= row.label %>: <%= row.value %>
<% } -%>

<% } -%>
<% if (it.lines.length > 0) { -%>
Items
<% for (const line of it.lines) { -%>
- <%= line.description %>
  <%= line.quantity %> x <%= line.unitAmount %> = <%= line.lineTotal %>
<% } -%>

<% } -%>
<% for (const row of it.summary) { -%>
<%= row.label %>: <%= row.value %>
<% } -%>
<% if (it.payUrl !== null) { -%>

View and pay this invoice:
<%= it.payUrl %>
<% } -%>
<% if (it.noteLines.length > 0) { -%>

Notes from <%= it.merchantName %>:
<% for (const note of it.noteLines) { -%>
<%= note %>
<% } -%>
<% } -%>

--
<%= it.footer %>
`;
