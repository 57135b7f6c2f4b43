import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { diagnoseWebhook } from '../../../docs/receiving-webhooks/diagnose-webhook';
import { verifyWebhook } from '../../../docs/receiving-webhooks/verify-webhook';
import { subscribableEventTypes } from '../../../functions/domain/webhook-endpoint';
import { guideVectors } from '../../support/guide-vectors';
import { eventPayloadFields } from '../../support/spec-fields';

const guide = readFileSync(new URL('../../../docs/receiving-webhooks.md', import.meta.url), 'utf8');
const source = (file: string) =>
  readFileSync(new URL(`../../../docs/receiving-webhooks/${file}`, import.meta.url), 'utf8');

/** Rows of the guide's event type table: the type, when it is sent, the fields of `data`. */
const eventTypeRow = /^\| `(\w+\.\w+)` \| [^|]+ \| ((?:`\w+`(?:, )?)+) \|$/gm;

/** The ```ts blocks right after the guide's `<!-- <file>.ts: … -->` markers: file name, code. */
const embeddedBlock = /^<!-- ([\w-]+\.ts):[^\n]*-->\n```ts\n([\s\S]*?)^```$/gm;
const embedded = (file: string) =>
  Array.from(guide.matchAll(embeddedBlock))
    .filter(([, name]) => name === file)
    .map(([, , code]) => code);

/** The diagnosis example after its marker, and the ```json block of what it prints. */
const diagnosisExample =
  /^<!-- diagnose-webhook example[^\n]*-->\n```ts\n([\s\S]*?)^```\n\n```json\n([\s\S]*?)^```$/m;

const vectors = guideVectors(guide);

function headersOf({ id, timestamp, spec, standard }: (typeof vectors)[number]) {
  return {
    'merchant-webhook-id': id,
    'merchant-webhook-timestamp': String(timestamp),
    'merchant-webhook-signature': spec,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('docs/receiving-webhooks.md', () => {
  it.each(['verify-webhook.ts', 'diagnose-webhook.ts'])(
    'shows %s byte for byte, so the code merchants copy is the code we test',
    (file) => {
      expect(embedded(file)).toEqual([source(file)]);
    },
  );

  it('prints what it says its diagnosis example prints', () => {
    const [, code = '', printed = ''] = diagnosisExample.exec(guide) ?? [];
    const [importLine, ...rest] = code.split('\n');
    expect(importLine).toBe("import { diagnoseWebhook } from './diagnose-webhook';");
    const lines: unknown[] = [];
    const console = { log: (line: unknown) => lines.push(line) };
    new Function('diagnoseWebhook', 'console', rest.join('\n'))(diagnoseWebhook, console);
    expect(lines).toEqual([printed.trimEnd()]);
  });

  it('lists every subscribable event type with exactly the fields of its payload', () => {
    const rows = Array.from(guide.matchAll(eventTypeRow), ([, type = '', fields = '']) => [
      type,
      fields.replaceAll('`', '').split(', ').sort(),
    ]);
    expect(rows.map(([type]) => type)).toEqual(subscribableEventTypes);
    expect(Object.fromEntries(rows)).toEqual(eventPayloadFields);
  });

  it('publishes at least 3 vectors, one with a non-ASCII body and one whose secret has + and /', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(3);
    expect(vectors.some(({ body }) => Buffer.byteLength(body, 'utf8') > body.length)).toBe(true);
    expect(vectors.some(({ secret }) => secret.includes('+') && secret.includes('/'))).toBe(true);
  });

  it.each(vectors.map((vector, index) => [index + 1, vector] as const))(
    'has vector %i accepted by its own verification code at the vector’s time',
    (_number, vector) => {
      const now = new Date(vector.timestamp * 1000);
      const rawBody = Buffer.from(vector.body, 'utf8');
      expect(verifyWebhook({ secret: vector.secret, headers: headersOf(vector), rawBody, now })).toEqual({
        ok: true,
      });
    },
  );

  it.each(vectors.map((vector, index) => [index + 1, vector] as const))(
    'refuses vector %i replayed more than 5 minutes after (or before) its time, and accepts it at the bounds',
    (_number, vector) => {
      const at = (offsetSeconds: number) =>
        verifyWebhook({
          secret: vector.secret,
          headers: headersOf(vector),
          rawBody: Buffer.from(vector.body, 'utf8'),
          now: new Date((vector.timestamp + offsetSeconds) * 1000),
        });
      expect(at(300)).toEqual({ ok: true });
      expect(at(-300)).toEqual({ ok: true });
      expect(at(301)).toEqual({ ok: false, reason: 'timestamp_too_old' });
      expect(at(-301)).toEqual({ ok: false, reason: 'timestamp_too_new' });
    },
  );

  it.each(vectors.map((vector, index) => [index + 1, vector] as const))(
    'has vector %i accepted by the npm standardwebhooks package at the vector’s time',
    (_number, vector) => {
      vi.useFakeTimers({ now: vector.timestamp * 1000 });
      expect(new Webhook(vector.secret).verify(vector.body, headersOf(vector))).toEqual(
        JSON.parse(vector.body),
      );
    },
  );

  it('shows an example request whose signatures are right for the secret of its vector', () => {
    const example = /^```http\n([\s\S]*?)\n\n(.*)\n```$/m.exec(guide);
    const [, head = '', rawBody = ''] = example ?? [];
    const headers = Object.fromEntries(
      head
        .split('\n')
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
    );
    const vector = vectors.find(({ body }) => body === rawBody);
    expect(vector).toBeDefined();
    if (vector === undefined) return;
    const now = new Date(vector.timestamp * 1000);
    expect(verifyWebhook({ secret: vector.secret, headers, rawBody, now })).toEqual({ ok: true });
    vi.useFakeTimers({ now });
    expect(() => new Webhook(vector.secret).verify(rawBody, headers)).not.toThrow();
    expect(headers).toMatchObject({
      'Content-Type': 'application/json',
      'User-Agent': 'MerchantPayments-Webhooks/1.0',
    });
  });
});
