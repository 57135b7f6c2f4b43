import { describe, expect, it } from 'vitest';
import { buildPutMissingItem, buildReplaceDifferingItem } from '../../../tools/admin/restored-item-writes';

const key = { PK: { S: 'MERCHANT#mer_1' }, SK: { S: 'PRODUCT#prod_1' } };

describe('buildPutMissingItem', () => {
  it('writes the restored item only while no item has its key', () => {
    const restored = { ...key, name: { S: 'Tea' } };
    expect(buildPutMissingItem('live', restored)).toEqual({
      TableName: 'live',
      Item: restored,
      ConditionExpression: 'attribute_not_exists(PK)',
    });
  });
});

describe('buildReplaceDifferingItem', () => {
  it('requires every attribute read from the live item, and the absence of those only the restored one has', () => {
    const restored = { ...key, name: { S: 'Tea' }, tags: { SS: ['hot'] } };
    const live = { ...key, name: { S: 'Coffee' }, price: { N: '5' } };
    expect(buildReplaceDifferingItem('live', restored, live)).toEqual({
      TableName: 'live',
      Item: restored,
      ConditionExpression:
        '#a0 = :a0 AND #a1 = :a1 AND #a2 = :a2 AND #a3 = :a3 AND attribute_not_exists(#a4)',
      ExpressionAttributeNames: { '#a0': 'PK', '#a1': 'SK', '#a2': 'name', '#a3': 'price', '#a4': 'tags' },
      ExpressionAttributeValues: {
        ':a0': key.PK,
        ':a1': key.SK,
        ':a2': { S: 'Coffee' },
        ':a3': { N: '5' },
      },
    });
  });
});
