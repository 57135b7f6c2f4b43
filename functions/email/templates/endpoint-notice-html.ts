import { emailPage, font, muted, text } from './email-layout';

/**
 * The HTML part of a failing-endpoint notice, an Eta template over `EndpointNoticeView` (`it`), on
 * the emails' page (`email-layout.ts`), printing every value with `<%= %>`, which escapes.
 */
export const endpointNoticeHtml = emailPage(`<% if (it.merchantName !== '') { %>
<tr><td style="${muted}padding:24px 32px 4px;"><%= it.merchantName %></td></tr>
<% } %>
<tr><td style="${font}font-size:22px;line-height:28px;font-weight:bold;color:#1f2328;padding:8px 32px 0;"><%= it.heading %></td></tr>
<tr><td style="${text}padding:12px 32px 20px;"><%= it.intro %></td></tr>
<tr><td style="padding:0 32px 20px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f6f8fa;">
<% for (const row of it.rows) { %>
<tr><td valign="top" style="${muted}padding:6px 12px;white-space:nowrap;"><%= row.label %></td><td style="${text}padding:6px 12px;word-break:break-all;"><%= row.value %></td></tr>
<% } %>
</table>
</td></tr>
<tr><td style="${text}font-weight:bold;padding:0 32px 4px;">How to recover</td></tr>
<tr><td style="padding:0 32px 12px;">
<ol style="${text}margin:0;padding-left:20px;">
<% for (const step of it.steps) { %>
<li style="padding:2px 0;"><%= step %></li>
<% } %>
</ol>
</td></tr>
`);
