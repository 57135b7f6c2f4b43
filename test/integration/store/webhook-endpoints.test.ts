import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { RecoveryLimit, withUse } from '../../../functions/domain/endpoint-quotas';
import { newId } from '../../../functions/domain/ids';
import { documentClient, tableName } from '../../../functions/store/client';
import { keys } from '../../../functions/store/keys';
import { sendTransaction, TransactionConditionFailed } from '../../../functions/store/transaction';
import {
  buildAdvanceSequence,
  buildRecordRecoveryUse,
  lastSequenceOf,
  QuotaAttribute,
  useHistoryOf,
} from '../../../functions/store/webhook-endpoints';
import { useFreshTable } from '../../support/table-environment';

const merchantId = newId('mer');
const endpointId = newId('whk');
const now = new Date('2026-11-22T12:00:00.000Z');

beforeEach(async () => {
  await useFreshTable();
});

async function sequenceItem() {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookDeliverySequence(merchantId, endpointId) }),
  );
  return Item;
}

describe('the recovery history on the delivery sequence item', () => {
  it('takes a start only from the history it read: a start that read before another wrote loses, with the history as it is', async () => {
    const first = withUse(RecoveryLimit, [], now);
    await sendTransaction([buildRecordRecoveryUse(merchantId, endpointId, [], first)]);
    const later = new Date(now.getTime() + 1000);
    const stale = buildRecordRecoveryUse(merchantId, endpointId, [], withUse(RecoveryLimit, [], later));
    const lost = await sendTransaction([stale]).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(TransactionConditionFailed);
    const existing = (lost as TransactionConditionFailed).failureAt(0)?.existing;
    expect(useHistoryOf(existing, QuotaAttribute.recoveries)).toEqual(first);
    await sendTransaction([
      buildRecordRecoveryUse(merchantId, endpointId, first, withUse(RecoveryLimit, first, later)),
    ]);
    expect(useHistoryOf(await sequenceItem(), QuotaAttribute.recoveries)).toEqual([
      later.getTime(),
      now.getTime(),
    ]);
  });

  it('leaves the sequence to the router: an advance keeps the history, and a history alone numbers nothing', async () => {
    await sendTransaction([buildRecordRecoveryUse(merchantId, endpointId, [], [now.getTime()])]);
    expect(lastSequenceOf(await sequenceItem())).toBe(0);
    await sendTransaction([
      buildAdvanceSequence({ merchantId, webhookEndpointId: endpointId, from: 0, to: 3 }),
    ]);
    const item = await sequenceItem();
    expect(lastSequenceOf(item)).toBe(3);
    expect(useHistoryOf(item, QuotaAttribute.recoveries)).toEqual([now.getTime()]);
  });
});
