import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** An item as DynamoDB sends it: each attribute with its type, numbers as their exact digits. */
export type StoredItem = Record<string, AttributeValue>;

/**
 * True when two items hold the same attributes with the same typed values. Maps and sets compare
 * without regard to order (DynamoDB keeps neither), lists in order; numbers by their digits, as
 * DynamoDB returns them normalised.
 */
export function sameItem(a: StoredItem, b: StoredItem): boolean {
  return sameMap(a, b);
}

function sameMap(a: StoredItem, b: StoredItem): boolean {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  return names.every((name) => {
    const other = b[name];
    const value = a[name];
    return other !== undefined && value !== undefined && sameValue(value, other);
  });
}

function sameValue(a: AttributeValue, b: AttributeValue): boolean {
  if (a.S !== undefined) return a.S === b.S;
  if (a.N !== undefined) return a.N === b.N;
  if (a.BOOL !== undefined) return a.BOOL === b.BOOL;
  if (a.NULL !== undefined) return a.NULL === b.NULL;
  if (a.B !== undefined) return b.B !== undefined && sameBytes(a.B, b.B);
  if (a.M !== undefined) return b.M !== undefined && sameMap(a.M, b.M);
  if (a.L !== undefined) {
    const list = b.L;
    return (
      list?.length === a.L.length &&
      a.L.every((value, index) => sameValue(value, list[index] as AttributeValue))
    );
  }
  if (a.SS !== undefined) return b.SS !== undefined && sameSet(a.SS, b.SS);
  if (a.NS !== undefined) return b.NS !== undefined && sameSet(a.NS, b.NS);
  if (a.BS !== undefined) {
    return b.BS !== undefined && sameSet(a.BS.map(hexOf), b.BS.map(hexOf));
  }
  return false;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const members = new Set(b);
  return (
    a.length === b.length && members.size === new Set(a).size && a.every((member) => members.has(member))
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
