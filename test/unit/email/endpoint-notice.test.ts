import { describe, expect, it } from 'vitest';
import { newEndpointNotice } from '../../../functions/domain/endpoint-notice';
import { newId } from '../../../functions/domain/ids';
import { renderEndpointNotice } from '../../../functions/email/endpoint-notice';
import { endpointNoticeHtml } from '../../../functions/email/templates/endpoint-notice-html';

const hostile = '<script>alert("x")</script>';
const endpointId = newId('whk');

const notice = (after: '24h' | '5d', lastError = 'HTTP 503 Service Unavailable') =>
  newEndpointNotice({
    merchantId: 'mer_01',
    webhookEndpointId: endpointId,
    url: 'https://hooks.example.com/in',
    failingSince: '2026-11-30T09:15:00.000Z',
    after,
    lastError,
    lastAttemptAt: '2026-12-01T09:20:00.000Z',
    recipient: 'ops@example.com',
    now: '2026-12-01T09:20:01.000Z',
  });

describe('the failing-endpoint notice', () => {
  it('names the endpoint, its url, since when it fails, its last error and how to recover', () => {
    const { subject, text, html } = renderEndpointNotice(notice('24h'), 'Acme Ltd');
    expect(subject).toBe(`Webhook endpoint ${endpointId} has failed every attempt for 24 hours`);
    for (const part of [text, html]) {
      expect(part).toContain(endpointId);
      expect(part).toContain('https://hooks.example.com/in');
      expect(part).toContain('November 30, 2026 at 09:15 UTC');
      expect(part).toContain('HTTP 503 Service Unavailable');
      expect(part).toContain(`/merchants/mer_01/webhook-endpoints/${endpointId}/recover`);
      expect(part).toContain('stays enabled');
    }
    expect(text).toContain('Last error: HTTP 503 Service Unavailable\n');
    expect(text).toContain('1. Make the URL answer');
    expect(text).toContain('One more notice follows');
  });

  it('says at five days that it is the last notice of the run', () => {
    const { subject, text } = renderEndpointNotice(notice('5d'), 'Acme Ltd');
    expect(subject).toBe(`Webhook endpoint ${endpointId} has failed every attempt for 5 days`);
    expect(text).toContain('This is the last notice for this run of failures.');
  });

  it("escapes in the HTML what a receiver or a merchant wrote: the error's reason and the name", () => {
    const { text, html } = renderEndpointNotice(notice('24h', `HTTP 500 ${hostile}`), hostile);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(text).toContain(`HTTP 500 ${hostile}`);
    expect(endpointNoticeHtml).not.toMatch(/<%[~-]/);
    for (const banned of [/<style/i, /<link/i, /<img/i, /\bclass=/i, /url\(/i])
      expect(html).not.toMatch(banned);
  });

  it('is one notice per endpoint, run and age: the same inputs give the same id', () => {
    expect(notice('24h').emailId).toBe(notice('24h').emailId);
    expect(notice('24h').emailId).not.toBe(notice('5d').emailId);
    expect(notice('24h').emailId).toMatch(/^eml_/);
  });
});
