import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { EmailKind } from '../../functions/domain/invoice-email';
import { renderInvoiceEmail } from '../../functions/email/invoice-email';
import { launchChromium } from '../support/chromium';
import { screenshotEmails } from '../support/email-screenshot-fixtures';

/*
 * The screenshots of docs/emails.md ("What they look like"): each of the three emails rendered from
 * a fixed invoice and shown by the suite's Chromium. A pixel comparison would fail on another
 * machine's fonts, so docs/images/emails.json keeps the SHA-256 of the HTML each image was taken
 * from: this fails when a template or the view changes what an email says or how it is laid out and
 * the images were not taken again. With UPDATE_EMAIL_SCREENSHOTS=1 it takes them and writes the
 * manifest instead.
 */

const regenerate = 'UPDATE_EMAIL_SCREENSHOTS=1 npx vitest run test/browser/email-screenshots.test.ts';
const update = process.env.UPDATE_EMAIL_SCREENSHOTS === '1';

const imagesDir = new URL('../../docs/images/', import.meta.url);
const manifestUrl = new URL('emails.json', imagesDir);
const docUrl = new URL('../../docs/emails.md', import.meta.url);
/** About a mail client's reading pane: the email's 600 px table and its margin. */
const viewportWidth = 700;
const kinds = Object.keys(screenshotEmails) as EmailKind[];

interface ManifestEntry {
  readonly kind: EmailKind;
  readonly image: string;
  readonly subject: string;
  readonly htmlSha256: string;
}

interface Manifest {
  readonly regenerate: string;
  readonly viewportWidth: number;
  readonly emails: readonly ManifestEntry[];
}

/** What the image of `kind` shows, rendered as the mailer renders it. */
function currentEntry(kind: EmailKind): ManifestEntry & { readonly html: string } {
  const { subject, html } = renderInvoiceEmail(screenshotEmails[kind]);
  const htmlSha256 = createHash('sha256').update(html).digest('hex');
  return { kind, image: `email-${kind}.png`, subject, htmlSha256, html };
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's width from its header chunk, or undefined for anything that is no PNG. */
function pngWidth(bytes: Buffer): number | undefined {
  const isPng = bytes.length >= 24 && bytes.subarray(0, 8).equals(pngSignature);
  return isPng && bytes.toString('latin1', 12, 16) === 'IHDR' ? bytes.readUInt32BE(16) : undefined;
}

/**
 * The email as a mail client shows it: no script runs and nothing is fetched (the HTML has no
 * external resource, and a request would fail the run rather than wait on the network).
 */
async function takeScreenshot(browser: Browser, html: string, image: string): Promise<void> {
  const context = await browser.newContext({
    viewport: { width: viewportWidth, height: 400 },
    deviceScaleFactor: 1,
    javaScriptEnabled: false,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  try {
    const requested: string[] = [];
    await context.route('**/*', (route) => {
      requested.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    await page.screenshot({ path: new URL(image, imagesDir).pathname, fullPage: true });
    expect(requested, `${image}: the email asked for resources`).toEqual([]);
  } finally {
    await context.close();
  }
}

let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
});

describe('the email screenshots of docs/emails.md', () => {
  it.runIf(update)(
    'are taken again from the templates, with the manifest',
    async () => {
      browser = await launchChromium();
      const emails = kinds.map(currentEntry);
      for (const { html, image } of emails) await takeScreenshot(browser, html, image);
      const manifest: Manifest = {
        regenerate,
        viewportWidth,
        emails: emails.map(({ html: _, ...entry }) => entry),
      };
      await writeFile(manifestUrl, `${JSON.stringify(manifest, null, 2)}\n`);
    },
    60_000,
  );

  it.each(kinds)('show the %s email as the templates render it today', async (kind) => {
    const stale = `docs/images/email-${kind}.png is stale: run \`${regenerate}\` and commit the result`;
    const manifest = JSON.parse(await readFile(manifestUrl, 'utf8')) as Manifest;
    const { html: _, ...current } = currentEntry(kind);
    expect(manifest.viewportWidth, stale).toBe(viewportWidth);
    expect(
      manifest.emails.find((entry) => entry.kind === kind),
      stale,
    ).toEqual(current);
    const image = await readFile(new URL(current.image, imagesDir)).catch(() => Buffer.alloc(0));
    expect(pngWidth(image), stale).toBe(viewportWidth);
  });

  it('are all shown in docs/emails.md', async () => {
    const doc = await readFile(docUrl, 'utf8');
    for (const kind of kinds) expect(doc).toContain(`](images/email-${kind}.png)`);
  });
});
