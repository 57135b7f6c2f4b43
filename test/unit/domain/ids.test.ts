import { TypeID } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { IdPrefix, isTypeId, newId } from '../../../functions/domain/ids';

describe('isTypeId', () => {
  it('accepts every new id of its prefix, as typeid-js parses it', () => {
    for (const prefix of Object.values(IdPrefix)) {
      const id = newId(prefix);
      expect(isTypeId(id, prefix)).toBe(true);
      expect(TypeID.fromString(id, prefix).getType()).toBe(prefix);
    }
  });

  it.each([
    ['another prefix', 'prod_01h455vb4pex5vsknk084sn02q', 'mer'],
    ['a short suffix', 'mer_01h455vb4pex5vsknk084sn02', 'mer'],
    ['an uppercase suffix', 'mer_01H455VB4PEX5VSKNK084SN02Q', 'mer'],
    ['a first character past 7 (over 128 bits)', 'mer_81h455vb4pex5vsknk084sn02q', 'mer'],
    ['a letter outside Crockford base32', 'mer_01h455vb4pex5vsknk084sn02u', 'mer'],
    ['no prefix', '01h455vb4pex5vsknk084sn02q', 'mer'],
  ] as const)('refuses %s', (_label, value, prefix) => {
    expect(isTypeId(value, prefix)).toBe(false);
  });
});
