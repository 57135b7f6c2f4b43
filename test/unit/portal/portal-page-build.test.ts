import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { portalBasePolicy } from '../../../functions/domain/portal-framing';
import {
  buildPortalPage,
  portalPageModuleText,
  portalPageModuleUrl,
} from '../../../functions/portal/build-portal-page';
import { portalAssets, portalPageHtml } from '../../../functions/portal/portal-page-document';
import { handler as serveAsset } from '../../../functions/portal/serve-portal-asset';
import { handler as servePage } from '../../../functions/portal/serve-portal-page';

/** The gzipped size the issue allows the page's script. */
const maxScriptGzipBytes = 60 * 1024;

const script = portalAssets.find((asset) => asset.name.endsWith('.js'));
const style = portalAssets.find((asset) => asset.name.endsWith('.css'));

const event = (pathParameters: Record<string, string>) =>
  ({ pathParameters, requestContext: { requestId: 'req-1' } }) as unknown as APIGatewayProxyEvent;

describe('the built portal', () => {
  it('is what its sources build, the same on every build', async () => {
    const [first, second] = await Promise.all([buildPortalPage(), buildPortalPage()]);
    expect(second).toEqual(first);
    expect({ html: portalPageHtml, assets: portalAssets }).toEqual(first);
    expect(await readFile(portalPageModuleUrl, 'utf8')).toBe(portalPageModuleText(first));
  });

  it(`keeps its script under ${maxScriptGzipBytes / 1024} KB gzipped`, () => {
    const gzipped = gzipSync(script?.body ?? '').length;
    console.info(`portal script: ${script?.body.length} bytes, ${gzipped} bytes gzipped`);
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped).toBeLessThanOrEqual(maxScriptGzipBytes);
  });

  it('holds no inline script, style, style attribute or event handler attribute', () => {
    expect(portalPageHtml).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(portalPageHtml).not.toMatch(/<style/i);
    expect(portalPageHtml).not.toMatch(/\sstyle\s*=/i);
    expect(portalPageHtml).not.toMatch(/\son[a-z]+\s*=/i);
    expect(portalPageHtml.match(/<script /g)).toHaveLength(1);
  });

  it('links its two content-hashed assets by relative URL', () => {
    expect(portalAssets.map((asset) => asset.name)).toEqual([
      expect.stringMatching(/^portal-[\w-]{12}\.js$/),
      expect.stringMatching(/^portal-[\w-]{12}\.css$/),
    ]);
    expect(portalPageHtml).toContain(`<script src="assets/${script?.name}" defer></script>`);
    expect(portalPageHtml).toContain(`<link rel="stylesheet" href="assets/${style?.name}">`);
  });

  it('builds its script minified, its types gone', () => {
    expect(script?.body).not.toMatch(/\binterface\b|: HTMLElement\b/);
    expect(script?.body.split('\n').length).toBeLessThan(5);
    expect(script?.body).not.toContain('innerHTML');
  });
});

describe('servePortalPage', () => {
  it('serves the page framed by nobody for a malformed id, without looking it up', async () => {
    const result = await servePage(event({ portalSessionId: 'not-a-session' }));
    expect(result).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': [...portalBasePolicy, "frame-ancestors 'none'"].join('; '),
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
      },
      body: portalPageHtml,
    });
  });
});

describe('servePortalPage on an id longer than its path parameter allows', () => {
  it('answers 404 not_found in the API error shape, as a malformed id of any API path does', async () => {
    for (const portalSessionId of ['a'.repeat(257), `psn_${'0'.repeat(26)}${'x'.repeat(300)}`]) {
      const result = await servePage(event({ portalSessionId }));
      expect(result.statusCode).toBe(404);
      expect(JSON.parse(result.body)).toEqual({
        error: { code: 'not_found', message: 'No portal link has this id.', requestId: 'req-1' },
      });
    }
    // 256 characters is still an id the page may be opened with: it says the link is not valid.
    expect((await servePage(event({ portalSessionId: 'a'.repeat(256) }))).statusCode).toBe(200);
  });
});

describe('servePortalAsset', () => {
  it('serves each asset with its type, cached for a year', async () => {
    for (const asset of portalAssets) {
      const result = await serveAsset(event({ asset: asset.name }));
      expect(result).toEqual({
        statusCode: 200,
        headers: {
          'Content-Type': asset.contentType,
          'Cache-Control': 'public, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
        },
        body: asset.body,
      });
    }
    expect(script?.contentType).toBe('text/javascript; charset=utf-8');
    expect(style?.contentType).toBe('text/css; charset=utf-8');
  });

  it('answers 404 not_found in the API error shape for any other name', async () => {
    const result = await serveAsset(event({ asset: 'portal.ts' }));
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body)).toEqual({
      error: { code: 'not_found', message: 'No such portal asset.', requestId: 'req-1' },
    });
  });
});
