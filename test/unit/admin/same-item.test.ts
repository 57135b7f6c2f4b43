import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type StoredItem, sameItem } from '../../../tools/admin/same-item';
import { assertProperty } from '../../support/property';

const { value: attributeValue } = fc.letrec<{ value: AttributeValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 4 }).map((S) => ({ S })),
    fc.integer({ min: -50, max: 50 }).map((n) => ({ N: String(n) })),
    fc.boolean().map((BOOL) => ({ BOOL })),
    fc.constant({ NULL: true }),
    fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 4 }).map((SS) => ({ SS })),
    fc
      .uniqueArray(fc.integer({ min: 0, max: 9 }).map(String), { minLength: 1, maxLength: 4 })
      .map((NS) => ({ NS })),
    fc.array(tie('value'), { maxLength: 3 }).map((L) => ({ L })),
    fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 3 }).map((M) => ({ M })),
  ),
}));

const item = fc.dictionary(fc.string({ maxLength: 3 }), attributeValue, { maxKeys: 4 });

/** The same value with every map's attributes and every set's members in reverse order. */
function reordered(value: AttributeValue): AttributeValue {
  if (value.M !== undefined) return { M: reorderedMap(value.M) };
  if (value.L !== undefined) return { L: value.L.map(reordered) };
  if (value.SS !== undefined) return { SS: [...value.SS].reverse() };
  if (value.NS !== undefined) return { NS: [...value.NS].reverse() };
  return value;
}

function reorderedMap(map: StoredItem): StoredItem {
  return Object.fromEntries(
    Object.entries(map)
      .reverse()
      .map(([name, value]) => [name, reordered(value)]),
  );
}

/** A canonical text of a value: maps by sorted attribute, sets sorted. Equal texts, equal values. */
function canonical(value: AttributeValue): string {
  if (value.M !== undefined) return `M${canonicalMap(value.M)}`;
  if (value.L !== undefined) return `L[${value.L.map(canonical).join(',')}]`;
  if (value.SS !== undefined) return `SS${JSON.stringify([...value.SS].sort())}`;
  if (value.NS !== undefined) return `NS${JSON.stringify([...value.NS].sort())}`;
  return JSON.stringify(value);
}

function canonicalMap(map: StoredItem): string {
  const names = Object.keys(map).sort();
  return `{${names.map((name) => `${JSON.stringify(name)}:${canonical(map[name] as AttributeValue)}`).join(',')}}`;
}

describe('sameItem', () => {
  it('holds for the same item whatever the order of its maps and sets', () => {
    assertProperty(fc.property(item, (stored) => sameItem(stored, reorderedMap(stored)) === true));
  });

  it('holds exactly when the two items have the same canonical form', () => {
    assertProperty(
      fc.property(item, item, (a, b) => sameItem(a, b) === (canonicalMap(a) === canonicalMap(b))),
    );
  });

  it('tells a number from a string of the same digits, and a list from a set', () => {
    expect(sameItem({ a: { N: '1' } }, { a: { S: '1' } })).toBe(false);
    expect(sameItem({ a: { L: [{ S: 'x' }] } }, { a: { SS: ['x'] } })).toBe(false);
    expect(sameItem({ a: { L: [{ S: 'x' }, { S: 'y' }] } }, { a: { L: [{ S: 'y' }, { S: 'x' }] } })).toBe(
      false,
    );
  });

  it('compares binary values and binary sets by their bytes', () => {
    const bytes = (...values: number[]) => new Uint8Array(values);
    expect(sameItem({ b: { B: bytes(1, 2) } }, { b: { B: bytes(1, 2) } })).toBe(true);
    expect(sameItem({ b: { B: bytes(1, 2) } }, { b: { B: bytes(1, 3) } })).toBe(false);
    expect(sameItem({ b: { BS: [bytes(1), bytes(2)] } }, { b: { BS: [bytes(2), bytes(1)] } })).toBe(true);
  });

  it('counts an attribute present on one side only as a difference', () => {
    expect(sameItem({ a: { S: 'x' } }, { a: { S: 'x' }, b: { NULL: true } })).toBe(false);
    expect(sameItem({ a: { S: 'x' }, b: { NULL: true } }, { a: { S: 'x' } })).toBe(false);
  });
});
