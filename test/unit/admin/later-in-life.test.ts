import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { EntityType } from '../../../functions/store/keys';
import { LeftAloneReason, laterInLife } from '../../../tools/admin/later-in-life';

const item = (entityType: string, attributes: Record<string, unknown>) =>
  marshall({ PK: 'P', SK: 'S', entityType, ...attributes }, { removeUndefinedValues: true });

/** The copy's item and the live one, of one kind, as `[copy, live]`. */
const pair = (entityType: string, copy: Record<string, unknown>, live: Record<string, unknown>) =>
  [item(entityType, copy), item(entityType, live)] as const;

describe('laterInLife', () => {
  it.each([
    [
      'a key revoked since',
      pair(EntityType.apiKey, { status: 'active' }, { status: 'revoked' }),
      LeftAloneReason.revoked,
    ],
    [
      'a key whose expiry a rotation set',
      pair(
        EntityType.apiKey,
        { status: 'active' },
        { status: 'active', expiresAt: '2026-12-01T10:00:00.000Z' },
      ),
      LeftAloneReason.rotated,
    ],
    [
      'a key whose expiry a rotation brought forward',
      pair(
        EntityType.apiKey,
        { status: 'active', expiresAt: '2027-01-01T00:00:00.000Z' },
        { status: 'active', expiresAt: '2026-12-01T10:00:00.000Z' },
      ),
      LeftAloneReason.rotated,
    ],
    [
      'a portal session revoked since',
      pair(EntityType.portalSession, {}, { revokedAt: '2026-12-01T10:00:00.000Z' }),
      LeftAloneReason.revoked,
    ],
    [
      'a portal link exchanged since',
      pair(EntityType.portalSession, {}, { exchangedAt: '2026-12-01T10:00:00.000Z', sessionTokenHash: 'h' }),
      LeftAloneReason.exchanged,
    ],
    [
      "an endpoint's secret rotated since",
      pair(
        EntityType.webhookEndpoint,
        { version: 3, sealedSigningSecret: 'a' },
        { version: 4, sealedSigningSecret: 'b' },
      ),
      LeftAloneReason.rotated,
    ],
    [
      'an endpoint deleted since',
      pair(EntityType.webhookEndpoint, { version: 3, status: 'active' }, { version: 4, status: 'deleted' }),
      LeftAloneReason.deleted,
    ],
    [
      'an endpoint whose URL changed since',
      pair(
        EntityType.webhookEndpoint,
        { version: 3, url: 'https://a.example' },
        { version: 5, url: 'https://b.example' },
      ),
      LeftAloneReason.laterVersion,
    ],
    [
      'the deliveries marker of an endpoint deleted since',
      pair(EntityType.webhookDeliveriesMarker, { deleted: false }, { deleted: true }),
      LeftAloneReason.deleted,
    ],
    [
      'an invoice whose slug was rotated since',
      pair(
        EntityType.invoice,
        { currentRevisionNumber: 2, invoiceUrlSlug: 'old' },
        { currentRevisionNumber: 3, invoiceUrlSlug: 'new' },
      ),
      LeftAloneReason.rotated,
    ],
    [
      'an invoice paid since',
      pair(
        EntityType.invoice,
        { currentRevisionNumber: 2, status: 'open' },
        { currentRevisionNumber: 3, status: 'paid' },
      ),
      LeftAloneReason.laterVersion,
    ],
    [
      'a payment refunded since',
      pair(EntityType.payment, { version: 1 }, { version: 2 }),
      LeftAloneReason.laterVersion,
    ],
    [
      'a processor account that applied a Stripe event since',
      pair(EntityType.processorAccount, { version: 1, state: 'pending' }, { version: 2, state: 'active' }),
      LeftAloneReason.laterVersion,
    ],
    [
      'a delivery attempted since',
      pair(
        EntityType.webhookDelivery,
        { attemptCount: 0, status: 'pending' },
        { attemptCount: 1, status: 'succeeded' },
      ),
      LeftAloneReason.laterVersion,
    ],
    [
      'an email sent since',
      pair(
        EntityType.invoiceEmail,
        { attemptCount: 0, status: 'queued' },
        { attemptCount: 1, status: 'sent' },
      ),
      LeftAloneReason.laterVersion,
    ],
    [
      'an email SES reported bounced since',
      pair(
        EntityType.invoiceEmail,
        { attemptCount: 1, status: 'sent' },
        { attemptCount: 1, status: 'bounced' },
      ),
      LeftAloneReason.laterVersion,
    ],
    [
      "the count of a merchant's emails of an hour, one sent since",
      pair(EntityType.emailHourCount, { count: 3 }, { count: 4 }),
      LeftAloneReason.counted,
    ],
    [
      "an endpoint's delivery sequence advanced since",
      pair(EntityType.webhookDeliverySequence, { lastSequence: 7 }, { lastSequence: 9 }),
      LeftAloneReason.laterVersion,
    ],
    [
      'the invoice number counter advanced since',
      pair(EntityType.invoiceNumberCounter, { value: 7 }, { value: 8 }),
      LeftAloneReason.laterVersion,
    ],
    [
      'a merchant whose write shards were raised since',
      pair(EntityType.merchant, {}, { writeShards: [{ since: '2026-12-01T10:00:00.000Z', count: 4 }] }),
      LeftAloneReason.laterVersion,
    ],
    [
      "the count of a merchant's endpoints, one deleted since",
      pair(EntityType.webhookEndpointCounter, { count: 3 }, { count: 2 }),
      LeftAloneReason.counted,
    ],
    [
      "the count of a merchant's endpoints, one created since",
      pair(EntityType.webhookEndpointCounter, { count: 2 }, { count: 3 }),
      LeftAloneReason.counted,
    ],
  ])('leaves alone %s', (_name, [copy, live], reason) => {
    expect(laterInLife(copy, live)).toBe(reason);
  });

  it.each([
    // Damage written outside the service keeps the version: --overwrite may repair it.
    [
      'an endpoint changed without a new version',
      pair(
        EntityType.webhookEndpoint,
        { version: 4, url: 'https://a.example' },
        { version: 4, url: 'https://x' },
      ),
    ],
    [
      'an invoice of the same revision',
      pair(
        EntityType.invoice,
        { currentRevisionNumber: 3, memo: 'a' },
        { currentRevisionNumber: 3, memo: 'b' },
      ),
    ],
    ['a payment whose live version is older', pair(EntityType.payment, { version: 3 }, { version: 2 })],
    [
      'a key revoked in the copy too',
      pair(EntityType.apiKey, { status: 'revoked' }, { status: 'revoked', keyPrefix: 'damaged' }),
    ],
    [
      'a key whose copy expires sooner',
      pair(
        EntityType.apiKey,
        { status: 'active', expiresAt: '2026-11-01T00:00:00.000Z' },
        { status: 'active', expiresAt: '2026-12-01T10:00:00.000Z' },
      ),
    ],
    [
      'a product, which has no lifecycle to undo',
      pair(EntityType.product, { name: 'Tea' }, { name: 'Coffee' }),
    ],
    [
      'two items of different kinds',
      [item(EntityType.apiKey, { status: 'active' }), item(EntityType.product, {})],
    ],
  ] as const)('lets --overwrite replace %s', (_name, [copy, live]) => {
    expect(laterInLife(copy, live)).toBeUndefined();
  });
});
