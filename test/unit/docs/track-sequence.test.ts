import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type DeliveriesPage,
  findDeliveryBySequence,
  LatestVersions,
  objectIdOf,
  orderingOf,
  SequenceTracker,
} from '../../../docs/receiving-webhooks/track-sequence';
import { EventType } from '../../../functions/domain/invoice';
import { signedDelivery } from '../../../functions/domain/webhook-signature';

const guide = readFileSync(new URL('../../../docs/receiving-webhooks.md', import.meta.url), 'utf8');
const trackerSource = readFileSync(
  new URL('../../../docs/receiving-webhooks/track-sequence.ts', import.meta.url),
  'utf8',
);

/** The ```ts block right after the guide's `<!-- track-sequence.ts … -->` marker. */
const trackerBlock = /^<!-- track-sequence\.ts[^\n]*-->\n```ts\n([\s\S]*?)^```$/gm;

describe('docs/receiving-webhooks.md: gaps and ordering', () => {
  it('shows track-sequence.ts byte for byte, so the code merchants copy is the code we test', () => {
    const blocks = Array.from(guide.matchAll(trackerBlock), ([, code]) => code);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toBe(trackerSource);
  });

  it('documents the three ordering headers in the Headers table', () => {
    for (const name of [
      'Merchant-Webhook-Event-Id',
      'Merchant-Webhook-Sequence',
      'Merchant-Webhook-Object-Version',
    ]) {
      expect(guide).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    }
  });
});

describe('orderingOf', () => {
  it('reads the headers our dispatcher sends, as Node.js hands them over (lower case)', () => {
    const { headers } = signedDelivery(
      {
        webhookDeliveryId: 'whkdel_01jzb8c9d0e1f2g3h4j5k6m7n8',
        eventType: EventType.invoicePaid,
        createdAt: '2026-11-22T12:00:00.000Z',
        data: {},
        eventId: 'evt_01jzb8c8z9a0b1c2d3e4f5g6h7',
        sequence: 42,
        objectVersion: 3,
      },
      'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
      1700000000,
    );
    const lowerCase = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    expect(orderingOf(lowerCase)).toEqual({
      eventId: 'evt_01jzb8c8z9a0b1c2d3e4f5g6h7',
      sequence: 42,
      objectVersion: 3,
    });
  });

  it('leaves out what a delivery created before the headers existed does not carry, and ignores malformed values', () => {
    expect(
      orderingOf({ 'Merchant-Webhook-Sequence': '0', 'merchant-webhook-object-version': '1e3' }),
    ).toEqual({
      eventId: undefined,
      sequence: undefined,
      objectVersion: undefined,
    });
  });
});

describe('SequenceTracker', () => {
  it('reports nothing missing while the numbers arrive unbroken, in any order', () => {
    const tracker = new SequenceTracker();
    for (const sequence of [2, 1, 3, 3, 5, 4]) tracker.record(sequence);
    expect(tracker.missing()).toEqual([]);
  });

  it('reports each number below the highest that has not arrived, until it arrives or is settled', () => {
    const tracker = new SequenceTracker();
    for (const sequence of [1, 2, 4, 7]) tracker.record(sequence);
    expect(tracker.missing()).toEqual([3, 5, 6]);
    tracker.record(5);
    tracker.settle(3);
    expect(tracker.missing()).toEqual([6]);
  });

  it('starts after the last number handled before it', () => {
    const tracker = new SequenceTracker(10);
    tracker.record(12);
    expect(tracker.missing()).toEqual([11]);
  });
});

describe('LatestVersions', () => {
  it('applies a newer version of an object and skips an older or repeated one', () => {
    const latest = new LatestVersions();
    expect(latest.applyIfNewer('inv_1', 2)).toBe(true);
    expect(latest.applyIfNewer('inv_1', 4)).toBe(true);
    expect(latest.applyIfNewer('inv_1', 3)).toBe(false);
    expect(latest.applyIfNewer('inv_1', 4)).toBe(false);
    expect(latest.applyIfNewer('pmt_1', 1)).toBe(true);
  });
});

describe('objectIdOf', () => {
  it.each([
    [EventType.invoiceSent, { invoiceId: 'inv_1', customerId: 'cust_1' }, 'inv_1'],
    [EventType.paymentRefunded, { refundId: 'refund_1', paymentId: 'pmt_1' }, 'pmt_1'],
    [EventType.payoutCreated, { payoutId: 'po_1', payoutAccountId: 'pacct_1' }, 'po_1'],
  ])('names the object of a %s', (type, data, objectId) => {
    expect(objectIdOf({ type, data })).toBe(objectId);
  });
});

describe('findDeliveryBySequence', () => {
  const pages: Record<string, DeliveriesPage> = {
    first: {
      items: [
        { webhookDeliveryId: 'whkdel_3', eventId: 'evt_3', sequence: 3, status: 'succeeded' },
        { webhookDeliveryId: 'whkdel_2', eventId: 'evt_2', sequence: 2, status: 'exhausted' },
      ],
      page: { hasMore: true, nextCursor: 'second' },
    },
    second: {
      items: [{ webhookDeliveryId: 'whkdel_1', eventId: 'evt_1', sequence: 1, status: 'succeeded' }],
      page: { hasMore: false },
    },
  };
  const listPage = async (cursor: string | undefined) => pages[cursor ?? 'first'] as DeliveriesPage;

  it('follows the pages to the delivery with that number', async () => {
    expect((await findDeliveryBySequence(listPage, 1))?.webhookDeliveryId).toBe('whkdel_1');
    expect((await findDeliveryBySequence(listPage, 2))?.status).toBe('exhausted');
  });

  it('finds nothing for a number no delivery has', async () => {
    expect(await findDeliveryBySequence(listPage, 9)).toBeUndefined();
  });
});
