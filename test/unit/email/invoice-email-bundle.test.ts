import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import type { renderInvoiceEmail } from '../../../functions/email/invoice-email';
import { invoiceIn } from '../../support/domain-invoice';

/**
 * The mailer runs the renderer from its Lambda bundle, where no template file sits beside it: the
 * templates must travel inside the bundle, and Eta's file loading must stay out of it. Bundled as
 * the stack bundles a function (lib/constructs/service-function.ts), without the source map.
 */
describe('the invoice email renderer, bundled', () => {
  mkdirSync('test-results', { recursive: true });
  const outdir = mkdtempSync(join('test-results', 'invoice-email-bundle-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carries its templates and Eta without its file loading, and renders from the bundle alone', async () => {
    const result = await build({
      entryPoints: ['functions/email/invoice-email.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      mainFields: ['module', 'main'],
      minify: true,
      outdir,
      outExtension: { '.js': '.mjs' },
      metafile: true,
      logLevel: 'silent',
    });
    const packages = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules'));
    expect(packages.map((input) => input.replace(/^.*node_modules\//, ''))).toEqual(['eta/dist/core.js']);
    const [output] = Object.values(result.metafile.outputs);
    expect(output?.imports).toEqual([]);

    const bundled: { renderInvoiceEmail: typeof renderInvoiceEmail } = await import(
      pathToFileURL(join(outdir, 'invoice-email.mjs')).href
    );
    const email = bundled.renderInvoiceEmail({
      kind: 'issued',
      invoice: invoiceIn('issued', 123450),
      merchantName: 'Bean <b>&</b> Leaf',
      payUrl: 'https://pay.example.test/pay#abc',
    });
    expect(email.subject).toBe('Invoice INV-000001 from Bean <b>&</b> Leaf');
    expect(email.html).toContain('Bean &lt;b&gt;&amp;&lt;/b&gt; Leaf');
    expect(email.text).toContain('Amount due: $1,234.50');
  });
});
