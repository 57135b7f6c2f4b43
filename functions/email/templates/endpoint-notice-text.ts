/**
 * The plain-text part of a failing-endpoint notice, an Eta template over `EndpointNoticeView` (`it`),
 * rendered without escaping. A control tag closed with `-%>` takes its line break with it.
 */
export const endpointNoticeText = `<%= it.heading %>
<% if (it.merchantName !== '') { -%>
Merchant: <%= it.merchantName %>
<% } -%>

<%= it.intro %>

<% for (const row of it.rows) { -%>
<%= row.label %>: <%= row.value %>
<% } -%>

How to recover
<% it.steps.forEach((step, index) => { -%>
<%= index + 1 %>. <%= step %>
<% }) -%>

--
<%= it.footer %>
`;
