import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { TypeID } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../functions/domain/api-key';
import { newEndpointNotice } from '../../functions/domain/endpoint-notice';
import { IdPrefix, newId } from '../../functions/domain/ids';
import { invoiceSlugHash, newInvoiceUrlSlug } from '../../functions/domain/invoice-slug';
import { newPortalToken, PortalTokenKind } from '../../functions/domain/portal-session';
import { newSigningSecret } from '../../functions/domain/webhook-secret';
import { renderEndpointNotice } from '../../functions/email/endpoint-notice';
import { renderInvoiceEmail } from '../../functions/email/invoice-email';
import { invoiceIn } from '../support/domain-invoice';
import { findLogSecrets, LogSecretKind, passesLuhn } from '../support/log-secrets';
import { assertProperty } from '../support/property';

const random = (size: number) => randomBytes(size);

/** `size` bytes: all clear, all set, or anything. */
const bytes = (size: number) =>
  fc.oneof(
    fc.constant(new Uint8Array(size)),
    fc.constant(new Uint8Array(size).fill(0xff)),
    fc.uint8Array({ minLength: size, maxLength: size }),
  );

/** A Powertools access line as `functions/http/request-context.ts` writes it, plus `extra` fields. */
function logLine(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    level: 'INFO',
    message: 'request handled',
    timestamp: '2026-11-22T20:37:20.205Z',
    service: 'merchant-payments',
    sampling_rate: 0,
    requestId: 'c0a8f3e2-5b1d-4e7a-9c3f-2d8b6a4e1f07',
    operationId: 'getInvoice',
    method: 'GET',
    route: '/invoices/{invoiceId}',
    status: 200,
    durationMs: 12,
    ...extra,
  });
}

describe('findLogSecrets', () => {
  it('finds an API key in a log line and shows only its prefix, whatever its id and secret hold', () => {
    assertProperty(
      fc.property(
        fc.constantFrom('sandbox', 'production'),
        bytes(10),
        bytes(32),
        (stage: 'sandbox' | 'production', idBytes, secretBytes) => {
          // generateApiKey asks for 10 bytes of key id, then the 32 of the secret.
          const key = generateApiKey(stage, (size) => (size === 32 ? secretBytes : idBytes));
          const secret = key.apiKey.slice(key.keyPrefix.length + 1);
          const line = logLine({ authorization: `Bearer ${key.apiKey}` });
          const found = findLogSecrets(line);
          expect(found).toEqual([
            { kind: LogSecretKind.apiKey, index: line.indexOf(key.apiKey), masked: `${key.keyPrefix}_…` },
          ]);
          expect(JSON.stringify(found)).not.toContain(secret.slice(0, 8));
        },
      ),
    );
  });

  it('finds a production key and a malformed key a client sent', () => {
    const production = generateApiKey('production', random).apiKey;
    const found = findLogSecrets(logLine({ key: production, presented: 'merchant_sbx0123456789_short' }));
    expect(found.map((secret) => secret.kind)).toEqual([LogSecretKind.apiKey, LogSecretKind.apiKey]);
  });

  it('finds a portal link and a portal session token, bare or in a link, and shows only their session part', () => {
    const session = newId(IdPrefix.portalSession);
    const link = newPortalToken(PortalTokenKind.link, 'sandbox', session, random);
    const bearer = newPortalToken(PortalTokenKind.session, 'production', session, random);
    const line = logLine({
      url: `https://api.example.com/portal/${session}#${link}`,
      authorization: `Bearer ${bearer}`,
    });
    const found = findLogSecrets(line);
    expect(found.map((secret) => [secret.kind, secret.masked])).toEqual([
      [LogSecretKind.portalToken, `${link.slice(0, -44)}_…`],
      [LogSecretKind.portalToken, `${bearer.slice(0, -44)}_…`],
    ]);
    expect(JSON.stringify(found)).not.toContain(link.slice(-43, -30));
  });

  it('finds a webhook signing secret', () => {
    const secret = newSigningSecret(random);
    const found = findLogSecrets(logLine({ endpoint: { url: 'https://example.com/hook', secret } }));
    expect(found).toEqual([
      expect.objectContaining({ kind: LogSecretKind.signingSecret, masked: 'whsec_…' }),
    ]);
  });

  it('finds every signing secret 32 random bytes can make once, as a signing secret', () => {
    // `whsec_` and 37 base64 characters before a `/` make a run of 43 slug characters.
    const slugShaped = Buffer.from(`${'A'.repeat(37)}/${'A'.repeat(5)}=`, 'base64');
    assertProperty(
      fc.property(fc.oneof(bytes(32), fc.constant(slugShaped)), (secretBytes) => {
        const secret = newSigningSecret(() => secretBytes);
        const line = logLine({ endpoint: { url: 'https://example.com/hook', secret } });
        expect(findLogSecrets(line)).toEqual([
          { kind: LogSecretKind.signingSecret, index: line.indexOf(secret), masked: 'whsec_…' },
        ]);
      }),
    );
  });

  it('finds the platform’s Stripe key, of either mode, secret or restricted, and shows only its kind', () => {
    for (const key of [
      'sk_test_51HxAbCdEf0123456789',
      'sk_live_51HxAbCdEf0123456789',
      'rk_live_51HxAbCd0123',
    ]) {
      const found = findLogSecrets(logLine({ stripe: { apiKey: key } }));
      expect(found).toEqual([expect.objectContaining({ kind: LogSecretKind.stripeSecretKey })]);
      expect(JSON.stringify(found)).not.toContain(key.slice(8));
    }
  });

  it('finds a Stripe onboarding link', () => {
    const link = 'https://connect.stripe.com/setup/s/acct_1Abc/Rk9vQmFyQmF6';
    const found = findLogSecrets(logLine({ onboardingUrl: link }));
    expect(found).toEqual([
      expect.objectContaining({
        kind: LogSecretKind.stripeOnboardingLink,
        masked: 'https://connect.stripe.com/setup/…',
      }),
    ]);
  });

  it('finds an invoice slug, bare or in a pay-link URL', () => {
    const slug = newInvoiceUrlSlug(random);
    const found = findLogSecrets(logLine({ slug, url: `https://pay.example.com/i/${slug}?x=1` }));
    expect(found.map((secret) => secret.kind)).toEqual([
      LogSecretKind.invoiceSlug,
      LogSecretKind.invoiceSlug,
    ]);
    expect(found[0]?.masked).toBe(`${slug.slice(0, 4)}…(43 chars)`);
  });

  it('finds every slug 32 random bytes can make', () => {
    assertProperty(
      fc.property(bytes(32), (slugBytes) => {
        const slug = newInvoiceUrlSlug(() => slugBytes);
        const line = logLine({ slug });
        expect(findLogSecrets(line)).toEqual([
          {
            kind: LogSecretKind.invoiceSlug,
            index: line.indexOf(slug),
            masked: `${slug.slice(0, 4)}…(43 chars)`,
          },
        ]);
      }),
    );
  });

  it('finds a Luhn-valid card number and shows only its last four digits', () => {
    const found = findLogSecrets(logLine({ card: { number: '4242424242424242' }, amex: '378282246310005' }));
    expect(found.map((secret) => secret.masked)).toEqual(['••••••••••••4242', '•••••••••••0005']);
  });

  it('finds the body of every email the service sends, either part, raw or in a JSON line', () => {
    const invoice = invoiceIn('issued', 12_500, 0, { notes: 'Thanks' });
    const bodies = [
      ...(['issued', 'resent', 'paid'] as const).map((kind) =>
        renderInvoiceEmail({ kind, invoice, merchantName: 'Acme', payUrl: 'https://pay.example.com/pay#x' }),
      ),
      renderEndpointNotice(
        newEndpointNotice({
          merchantId: 'mer_1',
          webhookEndpointId: newId(IdPrefix.webhookEndpoint),
          url: 'https://hooks.example.com/in',
          failingSince: '2026-11-30T09:15:00.000Z',
          after: '24h',
          lastError: 'HTTP 503',
          lastAttemptAt: '2026-12-01T09:20:00.000Z',
          recipient: 'ops@example.com',
          now: '2026-12-01T09:20:01.000Z',
        }),
        'Acme',
      ),
    ];
    for (const { subject, text, html } of bodies) {
      for (const part of [text, html]) {
        expect(findLogSecrets(logLine({ body: part })).map((secret) => secret.kind)).toContain(
          LogSecretKind.emailBody,
        );
        expect(findLogSecrets(part).map((secret) => secret.kind)).toContain(LogSecretKind.emailBody);
      }
      // The subject is no body: it names the invoice or the endpoint, as log lines may.
      expect(findLogSecrets(logLine({ subject }))).toEqual([]);
    }
  });

  it('leaves request ids, TypeIDs, key prefixes, SHA-256 hex, timestamps and other numbers alone', () => {
    const slug = newInvoiceUrlSlug(random);
    const line = logLine({
      invoiceId: 'inv_01h455vb4pex5vsknk084sn02q',
      deliveryId: newId(IdPrefix.webhookDelivery),
      paymentInstrumentId: newId(IdPrefix.paymentInstrument),
      keyPrefix: generateApiKey('sandbox', random).keyPrefix,
      slugHash: invoiceSlugHash(slug),
      tableName: `test-${randomUUID()}`,
      expiresAt: '2026-11-22T20:37:20.205Z',
      epochMs: 1795379834141,
      notCard: '4242424242424241',
      amountMinor: 1999,
      secretPrefix: 'whsec_',
      stripeAccountId: 'acct_1Recorded',
      stripeEventId: 'evt_1QmDx2AbCdEfGhIjKlMnOpQr',
      stripeRequestId: 'req_recorded1',
    });
    expect(findLogSecrets(line)).toEqual([]);
  });

  it('leaves every TypeID alone', () => {
    assertProperty(
      fc.property(fc.constantFrom(...Object.values(IdPrefix)), bytes(16), (prefix, uuid) => {
        expect(findLogSecrets(logLine({ id: TypeID.fromUUIDBytes(prefix, uuid).toString() }))).toEqual([]);
      }),
    );
  });
});

describe('passesLuhn', () => {
  it('accepts the sandbox test cards and refuses a changed last digit', () => {
    expect(['4242424242424242', '5555555555554444', '378282246310005'].map(passesLuhn)).toEqual([
      true,
      true,
      true,
    ]);
    expect(passesLuhn('4242424242424243')).toBe(false);
  });
});
