import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { RecoveryStatus, recoveryNudgeAt, type StoredRecovery } from '../domain/webhook-recovery';
import { documentClient, tableName } from './client';
import { keys } from './keys';

/**
 * A nudge of a stalled recovery: its record written again, unchanged but for when it was nudged and
 * its due-index entry moved one stall time on, only while it still runs at the step it was read
 * at. The write's stream record makes the router run the batch of that step again.
 */
export function buildNudgeRecovery(stalled: StoredRecovery, now: string) {
  const { merchantId, recoveryId } = stalled.recovery;
  const nudgeAt = recoveryNudgeAt(now);
  return {
    TableName: tableName(),
    Key: keys.webhookRecovery(merchantId, recoveryId),
    UpdateExpression: 'SET nudgedAt = :now, nudgeAt = :nudgeAt, GSI1SK = :position',
    ConditionExpression: 'step = :step AND #status = :running',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':now': now,
      ':nudgeAt': nudgeAt,
      ':position': keys.recoveryNudge(nudgeAt, recoveryId).GSI1SK,
      ':step': stalled.step,
      ':running': RecoveryStatus.running,
    },
  };
}

/**
 * Nudges a recovery read as stalled. False when its condition fails: a batch committed (or the
 * recovery ended) after the read, so it is not stalled and the record is left as that batch wrote it.
 */
export async function nudgeRecovery(stalled: StoredRecovery, now: string): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand(buildNudgeRecovery(stalled, now)));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
