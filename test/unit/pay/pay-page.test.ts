import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { payPageContentSecurityPolicy, payPageHtml } from '../../../functions/pay/pay-page';
import { handler } from '../../../functions/pay/serve-pay-page';

/** The text inside every `<tag>…</tag>` block of the page. */
function blocks(tag: 'script' | 'style'): string[] {
  return [...payPageHtml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map(
    (match) => match[1] as string,
  );
}

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page's markup with the inline script and style taken out. */
const markup = payPageHtml.replace(/<(script|style)>[\s\S]*?<\/\1>/g, '');
const script = blocks('script')[0] ?? '';

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
    expect(script).toContain("postJson('pay/invoice'");
    expect(script).toContain("postJson('pay/payments'");
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
