import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { RecoveryLimit, TestDeliveryLimit, withUse } from '../../../functions/domain/endpoint-quotas';
import { newId } from '../../../functions/domain/ids';
import { documentClient, tableName } from '../../../functions/store/client';
import { sendTransaction, TransactionConditionFailed } from '../../../functions/store/transaction';
import {
  buildRecordDestinationUse,
  destinationKeys,
  getDestinationUse,
  QuotaAttribute,
  useHistoryOf,
} from '../../../functions/store/webhook-destinations';
import { buildFanOutTargetsQuery } from '../../../functions/store/webhook-endpoints';
import { useFreshTable } from '../../support/table-environment';

const merchantId = newId('mer');
const url = 'https://hooks.example.com/orders';
const now = new Date('2026-11-22T12:00:00.000Z');
const recoveries = { attribute: QuotaAttribute.recoveries, limit: RecoveryLimit };

beforeEach(async () => {
  await useFreshTable();
});

describe('the quota histories of a destination', () => {
  it('takes a use only from the history it read: one that read before another wrote loses, with the history as it is', async () => {
    const first = withUse(RecoveryLimit, [], now);
    await sendTransaction([buildRecordDestinationUse(merchantId, url, recoveries, [], now)]);
    const later = new Date(now.getTime() + 1000);
    const stale = buildRecordDestinationUse(merchantId, url, recoveries, [], later);
    const lost = await sendTransaction([stale]).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(TransactionConditionFailed);
    const existing = (lost as TransactionConditionFailed).failureAt(0)?.existing;
    expect(useHistoryOf(existing, QuotaAttribute.recoveries)).toEqual(first);
    await sendTransaction([buildRecordDestinationUse(merchantId, url, recoveries, first, later)]);
    expect(useHistoryOf(await getDestinationUse(merchantId, url), QuotaAttribute.recoveries)).toEqual([
      later.getTime(),
      now.getTime(),
    ]);
  });

  it('counts every spelling of one host and path as one destination, and keeps the two histories apart', async () => {
    const tests = { attribute: QuotaAttribute.testDeliveries, limit: TestDeliveryLimit };
    await sendTransaction([buildRecordDestinationUse(merchantId, url, tests, [], now)]);
    for (const spelling of [
      'https://HOOKS.example.com/orders',
      'https://hooks.example.com/orders/',
      'https://hooks.example.com/orders?endpoint=2',
      'https://hooks.example.com:443/orders#x',
    ])
      expect(
        useHistoryOf(await getDestinationUse(merchantId, spelling), QuotaAttribute.testDeliveries),
      ).toEqual([now.getTime()]);
    expect(await getDestinationUse(merchantId, 'https://hooks.example.com/other')).toBeUndefined();
    expect(await getDestinationUse(merchantId, 'https://hooks.example.com:8443/orders')).toBeUndefined();
    expect(await getDestinationUse(newId('mer'), url)).toBeUndefined();
    expect(useHistoryOf(await getDestinationUse(merchantId, url), QuotaAttribute.recoveries)).toEqual([]);
  });

  it('expires an hour after its newest use', async () => {
    await sendTransaction([buildRecordDestinationUse(merchantId, url, recoveries, [], now)]);
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: destinationKeys.webhookDestination(merchantId, url) }),
    );
    expect(Item?.ttl).toBe(Math.ceil((now.getTime() + RecoveryLimit.windowMs) / 1000));
    expect(Item?.entityType).toBe('WebhookDestination');
  });
});

describe('the place of a destination item', () => {
  it('sorts outside the range the router reads for endpoints and their sequences', () => {
    const query = buildFanOutTargetsQuery(merchantId);
    const { SK } = destinationKeys.webhookDestination(merchantId, url);
    const from = String(query.ExpressionAttributeValues[':from']);
    const to = String(query.ExpressionAttributeValues[':to']);
    expect(SK >= from && SK <= to).toBe(false);
  });
});
