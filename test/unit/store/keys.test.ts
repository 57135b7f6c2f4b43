import fc from 'fast-check';
import { TypeID } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { IdPrefix } from '../../../functions/domain/ids';
import { dueDeliveryShard, dueDeliveryShardCount, keys } from '../../../functions/store/keys';
import { SortKeyPrefix, sortKeyPrefixRange } from '../../../functions/store/table';
import { assertProperty } from '../../support/property';

/**
 * Delivery ids as a busy second mints them: UUIDv7 one millisecond apart whose other bytes count
 * up, so neighbouring ids differ in a few bits only. Built from fixed bytes, the set never varies.
 */
function deliveryIds(count: number): string[] {
  const start = Date.parse('2026-11-22T12:00:00.000Z');
  return Array.from({ length: count }, (_, index) => {
    const bytes = new Uint8Array(16);
    const view = new DataView(bytes.buffer);
    view.setUint16(0, Math.floor((start + index) / 2 ** 32));
    view.setUint32(2, (start + index) % 2 ** 32);
    view.setUint32(12, index);
    bytes[6] = 0x70;
    bytes[8] = 0x80;
    return TypeID.fromUUIDBytes(IdPrefix.webhookDelivery, bytes).toString();
  });
}

describe('dueDeliveryShard', () => {
  it('gives an id the same shard every time, in every process', () => {
    expect(dueDeliveryShard('whkdel_01jfz8r7b2e8qv6t2m5x9c4k1n')).toBe(2);
    expect(dueDeliveryShard('whkdel_01jfz8r7b2e8qv6t2m5x9c4k1v')).toBe(15);
    for (const id of deliveryIds(100)) expect(dueDeliveryShard(id)).toBe(dueDeliveryShard(id));
  });

  it('spreads 4096 ids over every shard, none with more than a quarter above or below its share', () => {
    const perShard = new Array<number>(dueDeliveryShardCount).fill(0);
    for (const id of deliveryIds(4096)) {
      const shard = dueDeliveryShard(id);
      expect(Number.isInteger(shard) && shard >= 0 && shard < dueDeliveryShardCount).toBe(true);
      perShard[shard] = (perShard[shard] ?? 0) + 1;
    }
    const share = 4096 / dueDeliveryShardCount;
    for (const count of perShard) {
      expect(count).toBeGreaterThanOrEqual(share * 0.75);
      expect(count).toBeLessThanOrEqual(share * 1.25);
    }
  });
});

describe('keys.dueDelivery', () => {
  it('puts a delivery in its shard, two-digit numbered, whatever its due time', () => {
    const id = 'whkdel_01jfz8r7b2e8qv6t2m5x9c4k1y';
    expect(keys.dueDelivery('2026-11-22T12:00:00.000Z', id)).toEqual({
      GSI1PK: 'DUE_DELIVERIES#12',
      GSI1SK: `2026-11-22T12:00:00.000Z#${id}`,
    });
    expect(keys.dueDelivery('2026-11-22T13:30:00.000Z', id).GSI1PK).toBe('DUE_DELIVERIES#12');
  });

  it('writes as many partition keys as there are shards', () => {
    const written = new Set(
      deliveryIds(1000).map((id) => keys.dueDelivery('2026-11-22T12:00:00.000Z', id).GSI1PK),
    );
    expect(written.size).toBe(dueDeliveryShardCount);
  });
});

describe('keys.dueDeliveriesPartitions', () => {
  it('lists every shard a delivery can be written to', () => {
    const written = new Set(
      deliveryIds(1000).map((id) => keys.dueDelivery('2026-11-22T12:00:00.000Z', id).GSI1PK),
    );
    expect(keys.dueDeliveriesPartitions()).toEqual([...written].sort());
  });
});

describe('keys.shardOfDeliveriesPartition', () => {
  it('reads back the shard of every deliveries partition an endpoint can have', () => {
    const webhookEndpointId = 'whk_01jzb8bx3y4z5a6b7c8d9e0f1g';
    for (let shard = 0; shard < 16; shard += 1) {
      expect(keys.shardOfDeliveriesPartition(keys.deliveriesPartition(webhookEndpointId, shard))).toBe(shard);
    }
  });
});

describe('sortKeyPrefixRange', () => {
  /** DynamoDB orders string keys by their UTF-8 bytes. */
  const within = (key: string, from: string, to: string) =>
    Buffer.compare(Buffer.from(from), Buffer.from(key)) <= 0 &&
    Buffer.compare(Buffer.from(key), Buffer.from(to)) <= 0;
  const keyText = fc.string({ unit: fc.constantFrom(...'#$_-ABCEIKMNOPRSTUWYZ0123456789abhjkmnpqrstvwxyz') });

  it('holds exactly the sort keys that begin with the prefix and go on past it', () => {
    assertProperty(
      fc.property(
        fc.constantFrom(...Object.values(SortKeyPrefix), 'EMAIL#inv_01#', 'CUSTOMER#'),
        keyText,
        fc.boolean(),
        (prefix, rest, prefixed) => {
          const key = prefixed ? `${prefix}${rest}` : rest;
          const { values } = sortKeyPrefixRange(prefix);
          // The bound itself begins with no prefix, and no key the service writes ends there.
          fc.pre(key !== values[':prefixTo']);
          const goesOn = key.startsWith(prefix) && key.length > prefix.length;
          expect(within(key, values[':prefixFrom'], values[':prefixTo'])).toBe(goesOn || key === prefix);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("reads the live endpoints' keys and leaves the deleted ones' out", () => {
    const { values } = sortKeyPrefixRange(SortKeyPrefix.webhookEndpoint);
    expect(values).toEqual({ ':prefixFrom': 'WEBHOOK_ENDPOINT#', ':prefixTo': 'WEBHOOK_ENDPOINT$' });
    expect(
      within(`${SortKeyPrefix.deletedWebhookEndpoint}whk_1`, values[':prefixFrom'], values[':prefixTo']),
    ).toBe(false);
  });
});
