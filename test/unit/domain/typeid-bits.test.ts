import fc from 'fast-check';
import { TypeID } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { typeIdMilliseconds } from '../../../functions/domain/id-time-bounds';
import { newId } from '../../../functions/domain/ids';
import { typeIdBytes, typeIdOfBytes } from '../../../functions/domain/typeid-bits';
import { assertProperty } from '../../support/property';

const anyBytes = fc.oneof(
  fc.constant(new Uint8Array(16)),
  fc.constant(new Uint8Array(16).fill(0xff)),
  fc.uint8Array({ minLength: 16, maxLength: 16 }),
);

describe('TypeID bits', () => {
  it('writes and reads the suffix exactly as the TypeID library does', () => {
    assertProperty(
      fc.property(anyBytes, (bytes) => {
        const id = typeIdOfBytes('pmt', bytes);
        expect(id).toBe(TypeID.fromUUIDBytes('pmt', bytes).toString());
        expect(typeIdBytes(id)).toEqual(bytes);
      }),
    );
  });

  it('refuses what is not a TypeID suffix', () => {
    for (const id of ['pmt_', 'pmt_8zzzzzzzzzzzzzzzzzzzzzzzzz', 'pmt_0000000000000000000000000u', 'x']) {
      expect(() => typeIdBytes(id)).toThrow(RangeError);
    }
  });
});

describe('newId', () => {
  it('mints UUIDv7 TypeIDs that sort in the order they were minted, at the current time', () => {
    const before = Date.now();
    const ids = Array.from({ length: 5000 }, () => newId('pmt'));
    for (const id of ids) {
      const uuid = TypeID.fromString(id, 'pmt').toUUID();
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(typeIdMilliseconds(ids[0] ?? '')).toBeGreaterThanOrEqual(before);
    // 5,000 ids may borrow a few milliseconds ahead, never more than one per 4,096.
    expect(typeIdMilliseconds(ids.at(-1) ?? '')).toBeLessThanOrEqual(Date.now() + 2);
  });
});
