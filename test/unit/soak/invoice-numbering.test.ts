import { describe, expect, it } from 'vitest';
import { numberingGaps, sequenceOf } from '../../../tools/soak/invoice-numbering';

describe('sequenceOf', () => {
  it('reads the sequence of INV- and six or more digits, and nothing else', () => {
    expect(sequenceOf('INV-000042')).toBe(42);
    expect(sequenceOf('INV-1234567')).toBe(1_234_567);
    expect(sequenceOf('INV-42')).toBeNaN();
    expect(sequenceOf('inv-000042')).toBeNaN();
  });
});

describe('numberingGaps', () => {
  it('finds nothing in 1..n in any order, nor in no invoices', () => {
    expect(numberingGaps(['INV-000003', 'INV-000001', 'INV-000002'])).toEqual({ missing: [], repeated: [] });
    expect(numberingGaps([])).toEqual({ missing: [], repeated: [] });
  });

  it('names a number skipped', () => {
    expect(numberingGaps(['INV-000001', 'INV-000003'])).toEqual({ missing: [2], repeated: [] });
  });

  it('names a number given twice, and the one it took the place of', () => {
    expect(numberingGaps(['INV-000001', 'INV-000001'])).toEqual({ missing: [2], repeated: ['INV-000001'] });
  });

  it('counts a number not of the format as repeated', () => {
    expect(numberingGaps(['INV-000001', 'INV-2'])).toEqual({ missing: [2], repeated: ['INV-2'] });
  });
});
