import { Eta, type TemplateFunction } from 'eta/core';
import type { EndpointNotice } from '../domain/endpoint-notice';
import type { RenderedEmail } from './invoice-email';
import { endpointNoticeHtml } from './templates/endpoint-notice-html';
import { endpointNoticeText } from './templates/endpoint-notice-text';

/** What a failing-endpoint notice shows, already in words: the templates lay it out and escape it. */
export interface EndpointNoticeView {
  readonly subject: string;
  readonly merchantName: string;
  readonly heading: string;
  readonly intro: string;
  readonly rows: readonly { readonly label: string; readonly value: string }[];
  readonly steps: readonly string[];
  readonly footer: string;
}

/** Times as the notice gives them: `December 1, 2026 at 14:05 UTC`. */
let timeFormat: Intl.DateTimeFormat | undefined;

function timeText(iso: string): string {
  timeFormat ??= new Intl.DateTimeFormat('en-US', {
    dateStyle: 'long',
    timeStyle: 'short',
    hourCycle: 'h23',
    timeZone: 'UTC',
  });
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${timeFormat.format(at)} UTC`;
}

const ages = { '24h': '24 hours', '5d': '5 days' } as const;

/**
 * The notice a failing run sends the merchant (docs/emails.md#failing-endpoints): which endpoint, since
 * when, its last error, and how to recover. The endpoint is never disabled for failing, so the
 * steps say what the merchant can do, not what the service did.
 */
export function endpointNoticeView(notice: EndpointNotice, merchantName: string): EndpointNoticeView {
  const age = ages[notice.after];
  const path = `/merchants/${notice.merchantId}/webhook-endpoints/${notice.webhookEndpointId}`;
  return {
    subject: `Webhook endpoint ${notice.webhookEndpointId} has failed every attempt for ${age}`,
    merchantName,
    heading: `A webhook endpoint has failed for ${age}`,
    intro:
      `Every attempt to deliver to ${notice.url} has failed since ${timeText(notice.failingSince)}. ` +
      'The endpoint stays enabled and each delivery still gets all 5 of its attempts, but events are ' +
      'not reaching it.',
    rows: [
      { label: 'Endpoint', value: notice.webhookEndpointId },
      { label: 'URL', value: notice.url },
      { label: 'Failing since', value: timeText(notice.failingSince) },
      { label: 'Last attempt', value: timeText(notice.lastAttemptAt) },
      { label: 'Last error', value: notice.lastError },
    ],
    steps: [
      'Make the URL answer each delivery with a 2xx status: the last error above says what it answered instead.',
      `See what failed: GET ${path}/deliveries?status=exhausted.`,
      `Once it answers (POST ${path}/test sends a test delivery), send the exhausted deliveries again: POST ${path}/recover.`,
      `If the endpoint is no longer used, disable or delete it (PATCH or DELETE ${path}) to stop the attempts.`,
    ],
    footer:
      notice.after === '5d'
        ? 'This is the last notice for this run of failures. You receive it because this address is the notification address of the merchant account.'
        : 'One more notice follows if every attempt is still failing at 5 days. You receive it because this address is the notification address of the merchant account.',
  };
}

const htmlEta = new Eta({ autoEscape: true });
const textEta = new Eta({ autoEscape: false, autoTrim: false });
let compiled: { readonly html: TemplateFunction; readonly text: TemplateFunction } | undefined;

/** The subject, text and HTML of a failing-endpoint notice. */
export function renderEndpointNotice(notice: EndpointNotice, merchantName: string): RenderedEmail {
  compiled ??= { html: htmlEta.compile(endpointNoticeHtml), text: textEta.compile(endpointNoticeText) };
  const view = endpointNoticeView(notice, merchantName);
  return {
    subject: view.subject,
    text: textEta.render(compiled.text, view),
    html: htmlEta.render(compiled.html, view),
  };
}
