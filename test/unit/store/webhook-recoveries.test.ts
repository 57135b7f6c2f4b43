import { beforeEach, describe, expect, it } from 'vitest';
import { newRecovery } from '../../../functions/domain/webhook-recovery';
import { keys } from '../../../functions/store/keys';
import { buildNudgeRecovery } from '../../../functions/store/webhook-recoveries';
import { stubTableEnvironment } from '../../support/table-environment';

beforeEach(stubTableEnvironment);

const stalled = {
  ...newRecovery({
    recoveryId: 'whkrec_1',
    webhookEndpointId: 'whk_1',
    merchantId: 'mer_1',
    url: 'https://hooks.example.com/x',
    since: '2026-11-22T10:00:00.000Z',
    until: '2026-11-22T11:00:00.000Z',
    now: '2026-11-22T11:00:00.000Z',
  }),
  step: 3,
};

describe('buildNudgeRecovery', () => {
  it('writes the record only while it runs at the step it was read at, moving its entry one stall time on', () => {
    const update = buildNudgeRecovery(stalled, '2026-11-22T12:00:00.000Z');

    expect(update).toEqual({
      TableName: 'merchant-payments-test',
      Key: keys.webhookRecovery('mer_1', 'whkrec_1'),
      UpdateExpression: 'SET nudgedAt = :now, nudgeAt = :nudgeAt, GSI1SK = :position',
      ConditionExpression: 'step = :step AND #status = :running',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':now': '2026-11-22T12:00:00.000Z',
        ':nudgeAt': '2026-11-22T12:05:00.000Z',
        ':position': '2026-11-22T12:05:00.000Z#whkrec_1',
        ':step': 3,
        ':running': 'running',
      },
    });
  });
});
