/**
 * The HTML part of a failing-endpoint notice, an Eta template over `EndpointNoticeView` (`it`), laid
 * out as the invoice emails are (nested tables, inline styles, no image) and printing every value
 * with `<%= %>`, which escapes.
 */
const font = 'font-family:Arial,Helvetica,sans-serif;';
const text = `${font}font-size:14px;line-height:20px;color:#1f2328;`;
const muted = `${font}font-size:13px;line-height:18px;color:#59636e;`;
const small = `${font}font-size:12px;line-height:18px;color:#59636e;`;

export const endpointNoticeHtml = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%= it.subject %></title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border:1px solid #e6e8eb;">
<% if (it.merchantName !== '') { %>
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
<tr><td style="${small}padding:24px 32px;border-top:1px solid #e6e8eb;"><%= it.footer %></td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
