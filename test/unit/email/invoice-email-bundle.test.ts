import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuildResult, build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { renderInvoiceEmail } from '../../../functions/email/invoice-email';
import { invoiceIn } from '../../support/domain-invoice';

type Renderer = { renderInvoiceEmail: typeof renderInvoiceEmail };

/**
 * The mailer runs the renderer from its Lambda bundle, where no template file sits beside it: the
 * templates must travel inside the bundle, and Eta's file loading must stay out of it. Bundled as
 * the stack bundles a function (lib/constructs/service-function.ts), without the source map.
 */
describe('the invoice email renderer, bundled', () => {
  mkdirSync('test-results', { recursive: true });
  const outdir = mkdtempSync(join('test-results', 'invoice-email-bundle-'));
  const bundleUrl = pathToFileURL(join(outdir, 'invoice-email.mjs')).href;
  let result: BuildResult<{ metafile: true }>;
  beforeAll(async () => {
    result = await build({
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
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carries its templates and Eta without its file loading, and renders from the bundle alone', async () => {
    const packages = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules'));
    expect(packages.map((input) => input.replace(/^.*node_modules\//, ''))).toEqual(['eta/dist/core.js']);
    const [output] = Object.values(result.metafile.outputs);
    expect(output?.imports).toEqual([]);

    const bundled: Renderer = await import(bundleUrl);
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

  // A process's first Intl formatter costs about a third of a bare function's import: the mailer's
  // import leaves it to the first render (docs/decisions/email-templates.md).
  it('makes no Intl formatter when imported, only when it first renders', async () => {
    const made: string[] = [];
    const { NumberFormat, DateTimeFormat } = Intl;
    const counted = <T extends object>(name: string, formatter: T): T =>
      new Proxy(formatter, {
        construct: (target, args, newTarget) => {
          made.push(name);
          return Reflect.construct(target as new (...args: unknown[]) => object, args, newTarget);
        },
      });
    Intl.NumberFormat = counted('NumberFormat', NumberFormat);
    Intl.DateTimeFormat = counted('DateTimeFormat', DateTimeFormat);
    try {
      // A module of its own, so nothing an earlier import made counts.
      const bundled: Renderer = await import(`${bundleUrl}?formatters`);
      expect(made).toEqual([]);
      bundled.renderInvoiceEmail({
        kind: 'paid',
        invoice: invoiceIn('paid', 1000, 1000, {
          dueDate: '2026-12-01',
          lineItems: [
            {
              kind: 'manual_adjustment',
              adjustmentType: 'shipping',
              description: 'Shipping',
              quantity: 1,
              unitAmount: 1000,
              lineTotal: 1000,
            },
          ],
        }),
        merchantName: 'Bean & Leaf',
        payUrl: 'https://pay.example.test/pay#abc',
      });
      expect(new Set(made)).toEqual(new Set(['NumberFormat', 'DateTimeFormat']));
    } finally {
      Intl.NumberFormat = NumberFormat;
      Intl.DateTimeFormat = DateTimeFormat;
    }
  });
});
