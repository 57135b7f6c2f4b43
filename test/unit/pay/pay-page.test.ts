import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildPayPage, payPageModuleText, payPageModuleUrl } from '../../../functions/pay/build-pay-page';
import { payPageContentSecurityPolicy, payPageHtml } from '../../../functions/pay/pay-page-document';
import { handler } from '../../../functions/pay/serve-pay-page';

/** The text inside every `<tag>…</tag>` block of a page (the served one unless told). */
function blocks(tag: 'script' | 'style', html = payPageHtml): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map(
    (match) => match[1] as string,
  );
}

/** The hashes a policy's directive allows, e.g. `script-src 'sha256-…'` gives `['sha256-…']`. */
function allowedHashes(policy: string, directive: 'script-src' | 'style-src'): string[] {
  const sources = policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === directive);
  return (sources ?? []).slice(1).map((source) => source.replace(/^'(.*)'$/, '$1'));
}

function sha256Of(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

function sha256Source(text: string): string {
  return `'${sha256Of(text)}'`;
}

/** The page's markup with the inline script and style taken out. */
const markup = payPageHtml.replace(/<(script|style)>[\s\S]*?<\/\1>/g, '');
const script = blocks('script')[0] ?? '';

describe('the built pay page', () => {
  it('is what its sources build, the same on every build', async () => {
    const [first, second] = await Promise.all([buildPayPage(), buildPayPage()]);
    expect(second).toEqual(first);
    expect({ html: payPageHtml, contentSecurityPolicy: payPageContentSecurityPolicy }).toEqual(first);
    const built = await readFile(payPageModuleUrl, 'utf8');
    expect(built).toBe(payPageModuleText(first));
  });

  it('allows by hash exactly the inline script and style the served page holds', async () => {
    const result = await handler({ path: '/pay', httpMethod: 'GET' } as APIGatewayProxyEvent);
    const policy = String(result.headers?.['Content-Security-Policy']);
    expect(allowedHashes(policy, 'script-src')).toEqual(blocks('script', result.body).map(sha256Of));
    expect(allowedHashes(policy, 'style-src')).toEqual(blocks('style', result.body).map(sha256Of));
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
  });

  it('runs the TypeScript of functions/pay/page as its script, with its types gone', async () => {
    const source = await readFile(
      new URL('../../../functions/pay/page/pay-page.ts', import.meta.url),
      'utf8',
    );
    expect(source).toContain('function byId<T extends HTMLElement>');
    expect(script).toContain('function byId(id, type)');
    expect(script).not.toMatch(/\binterface\b|: HTMLElement\b/);
  });
});

describe('payPageContentSecurityPolicy', () => {
  it('allows exactly the one inline script and the one inline style, by their SHA-256', () => {
    expect(blocks('script')).toHaveLength(1);
    expect(blocks('style')).toHaveLength(1);
    expect(payPageHtml.match(/<script/g)).toHaveLength(1);
    expect(payPageHtml.match(/<style/g)).toHaveLength(1);
    expect(payPageContentSecurityPolicy).toBe(
      [
        "default-src 'none'",
        `script-src ${sha256Source(script)}`,
        `style-src ${sha256Source(blocks('style')[0] ?? '')}`,
        "connect-src 'self'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
  });
});

describe('payPageHtml', () => {
  it('loads nothing from anywhere: no URL, no src, and an href only for the empty data: icon', () => {
    expect(payPageHtml).not.toMatch(/https?:|["'(=]\s*\/\//i);
    expect(markup).not.toMatch(/\ssrc\s*=/i);
    expect([...markup.matchAll(/\shref\s*=\s*"([^"]*)"/gi)].map((match) => match[1])).toEqual(['data:,']);
    expect(markup).not.toMatch(/<link[^>]*stylesheet|@import|url\(/i);
  });

  it('has no inline event handlers and no style attributes', () => {
    expect(markup).not.toMatch(/\son[a-z]+\s*=/i);
    expect(markup).not.toMatch(/\sstyle\s*=/i);
  });

  it('declares its language, charset, viewport and no-referrer policy', () => {
    expect(payPageHtml).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(markup).toContain('<meta charset="utf-8">');
    expect(markup).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(markup).toContain('<meta name="referrer" content="no-referrer">');
  });

  it('labels every input and announces messages', () => {
    const inputIds = [...markup.matchAll(/<input type="text" id="([^"]+)"/g)].map((match) => match[1]);
    expect(inputIds.length).toBeGreaterThan(0);
    for (const id of inputIds) expect(markup).toContain(`<label for="${id}">`);
    expect(markup).toContain('role="alert"');
    expect(markup).toContain('role="status" aria-live="polite"');
  });

  it('calls the pay routes relative to the page, never from the site root', () => {
    expect(script).toMatch(/tryPost\("pay\/invoice"/);
    expect(script).toMatch(/tryPost\("pay\/payments"/);
    expect(script).toContain('new URL(path, location.href)');
    expect(script).not.toMatch(/['"]\/pay/);
  });

  it('keeps the slug out of storage, cookies, history and the console, and builds no HTML from data', () => {
    expect(script).not.toMatch(
      /localStorage|sessionStorage|indexedDB|document\.cookie|history\.|console\.|innerHTML|outerHTML|insertAdjacentHTML|document\.write/,
    );
  });

  it('ends neither inline block early', () => {
    expect(script).not.toMatch(/<\/script/i);
    expect(blocks('style')[0]).not.toMatch(/<\/style/i);
  });
});

describe('GET /pay handler', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers 200 with the page and its security headers, and logs nothing', async () => {
    const stdout = vi.spyOn(process.stdout, 'write');
    const stderr = vi.spyOn(process.stderr, 'write');
    const result = await handler({ path: '/pay', httpMethod: 'GET' } as APIGatewayProxyEvent);
    expect(result).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': payPageContentSecurityPolicy,
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'DENY',
        'Cache-Control': 'no-cache',
      },
      body: payPageHtml,
    });
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
  });
});
