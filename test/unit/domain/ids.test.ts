import fc from 'fast-check';
import { TypeID } from 'typeid-js';
import { describe, expect, it } from 'vitest';
import { IdPrefix, isTypeId, newId, typeIdPattern } from '../../../functions/domain/ids';
import { assertProperty } from '../../support/property';

/** Strings one edit away from an id of `mer`: another character anywhere, one more, one less. */
const nearMerchantId = fc
  .tuple(
    fc.constantFrom(
      'mer_01h455vb4pex5vsknk084sn02q',
      'mer_7zzzzzzzzzzzzzzzzzzzzzzzzz',
      'mer_00000000000000000000000000',
    ),
    fc.nat(30),
    fc.oneof(
      fc.string({ minLength: 0, maxLength: 2 }),
      fc.constantFrom('8', 'Z', 'u', 'i', '_', 'é', '\ud800'),
    ),
  )
  .map(([id, at, text]) => id.slice(0, at) + text + id.slice(at + (text.length % 2)));

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

  it("accepts exactly the strings the schemas' TypeID pattern accepts", () => {
    assertProperty(
      fc.property(fc.oneof(nearMerchantId, fc.string()), (value) => {
        expect(isTypeId(value, 'mer')).toBe(typeIdPattern('mer').test(value));
      }),
    );
  });
});
