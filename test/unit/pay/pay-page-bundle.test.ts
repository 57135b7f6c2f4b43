import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The pay page is the one route payers reach, often from a phone, and its function cold-starts
 * like any other: it must stay a small document with no AWS SDK, validation or table code in its bundle.
 * Bundled as the stack bundles it (lib/constructs/service-function.ts), without the source map.
 */
const budgetBytes = 48 * 1024;

describe('the pay page function bundle', () => {
  it(`stays under ${budgetBytes / 1024} KB and pulls in no service dependency`, async () => {
    const result = await build({
      entryPoints: ['functions/pay/serve-pay-page.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      mainFields: ['module', 'main'],
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const bytes = result.outputFiles[0]?.contents.byteLength ?? Number.POSITIVE_INFINITY;
    expect(bytes).toBeLessThan(budgetBytes);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('node_modules'))).toEqual([]);
    expect(inputs.sort()).toEqual(['functions/pay/pay-page-document.js', 'functions/pay/serve-pay-page.ts']);
  });
});
