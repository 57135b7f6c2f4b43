import fc from 'fast-check';
import { TypeID, typeid } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { typeIdBound } from '../../../functions/domain/id-time-bounds';

describe('typeIdBound', () => {
  it('puts every id minted at a millisecond between that millisecond’s bounds, and outside others', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4_000_000_000_000 }), (milliseconds) => {
        const id = typeid('pmt').toString();
        // The first 48 bits of a UUIDv7 are its milliseconds.
        const minted = new Date(
          Number.parseInt(TypeID.fromString(id).toUUID().replaceAll('-', '').slice(0, 12), 16),
        );
        const low = typeIdBound('pmt', minted, 'lowest');
        const high = typeIdBound('pmt', minted, 'highest');
        expect(low <= id && id <= high).toBe(true);
        const other = new Date(milliseconds);
        if (other.getTime() < minted.getTime()) expect(typeIdBound('pmt', other, 'highest') < id).toBe(true);
        if (other.getTime() > minted.getTime()) expect(typeIdBound('pmt', other, 'lowest') > id).toBe(true);
      }),
    );
  });
});
