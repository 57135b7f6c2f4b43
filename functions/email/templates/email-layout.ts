/**
 * What every email's HTML part shares (the invoice emails' and the failing-endpoint notice's): the
 * page, a 600 px card of table rows on a grey ground, and the footer row last, all styles inline. Mail
 * clients drop `<style>` blocks, external CSS, scripts and images, so the layout is nested tables and
 * nothing needs an image to read. The page prints `it.subject` and `it.footer` through `<%= %>`,
 * which escapes.
 */
export const font = 'font-family:Arial,Helvetica,sans-serif;';
export const text = `${font}font-size:14px;line-height:20px;color:#1f2328;`;
export const muted = `${font}font-size:13px;line-height:18px;color:#59636e;`;
const small = `${font}font-size:12px;line-height:18px;color:#59636e;`;

/** The whole HTML template of an email whose card holds `rows` (Eta source: `<tr>` lines). */
export function emailPage(rows: string): string {
  return `<!DOCTYPE html>
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
${rows}<tr><td style="${small}padding:24px 32px;border-top:1px solid #e6e8eb;"><%= it.footer %></td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}
