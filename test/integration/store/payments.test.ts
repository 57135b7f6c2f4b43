import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { ProcessorMetricNames } from '../../../functions/payments/processor-metric-names';
import { documentClient } from '../../../functions/store/client';
import {
  type IdempotencyContext,
  IdempotencyInProgress,
  IdempotentReplay,
} from '../../../functions/store/idempotency';
import {
  buildUnlock,
  callProcessor,
  completeProcessorCall,
  lockHeldBy,
  ProcessorCallBusy,
  type ProcessorCallLock,
  processorCallLeaseMs,
  reserveProcessorCall,
} from '../../../functions/store/payments';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';
import { useFreshTable } from '../../support/table-environment';

let tableName: string;
beforeAll(async () => {
  tableName = await useFreshTable();
});

function contextOf(fingerprint = 'fp-1', now = new Date()): IdempotencyContext {
  return { key: 'key', requestId: 'request-1', scopeHash: newId('evt'), fingerprint, now };
}

const later = (context: IdempotencyContext, ms: number, fingerprint = context.fingerprint) => ({
  ...context,
  fingerprint,
  now: new Date(context.now.getTime() + ms),
});

/** An item standing in for an invoice: a revision, lockable by a processor call. */
async function lockable(revision = 1): Promise<ProcessorCallLock> {
  const key = { PK: `TEST#${newId('inv')}`, SK: 'ITEM' };
  await documentClient().send(new PutCommand({ TableName: tableName, Item: { ...key, revision } }));
  return {
    key,
    asRead: {
      expression: '#revision = :revision',
      names: { '#revision': 'revision' },
      values: { ':revision': revision },
    },
  };
}

const itemOf = async (key: { PK: string; SK: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true })))
    .Item;

describe('reserveProcessorCall', () => {
  it('reserves once: a retry of the same request is in progress, another payload is a different request', async () => {
    const context = contextOf();
    expect(await reserveProcessorCall(context, { callId: 'pmt_first' })).toBe('pmt_first');
    const retry = reserveProcessorCall(later(context, 1000), { callId: 'pmt_second' });
    await expect(retry).rejects.toThrow(IdempotencyInProgress);
    await expect(retry).rejects.toMatchObject({ sameRequest: true });
    const other = reserveProcessorCall(later(context, 1000, 'fp-2'), { callId: 'pmt_third' });
    await expect(other).rejects.toMatchObject({ sameRequest: false });
  });

  it('replays the stored response once the call completed', async () => {
    const context = contextOf();
    const callId = await reserveProcessorCall(context, { callId: 'pmt_done' });
    await completeProcessorCall(context, callId, { status: 201, body: { paymentId: callId } }, []);
    const retry = reserveProcessorCall(later(context, 1000), { callId: 'pmt_new' });
    await expect(retry).rejects.toThrow(IdempotentReplay);
    await expect(retry).rejects.toMatchObject({ response: { status: 201, body: { paymentId: 'pmt_done' } } });
  });

  it('lets a retry take over a call whose lease ran out, with the first call’s id', async () => {
    const context = contextOf();
    const lock = await lockable();
    expect(await reserveProcessorCall(context, { callId: 'pmt_dead', lock })).toBe('pmt_dead');
    const afterLease = later(context, processorCallLeaseMs + 1);
    expect(await reserveProcessorCall(afterLease, { callId: 'pmt_new', lock })).toBe('pmt_dead');
    // Only one takeover of the same dead reservation wins.
    await expect(reserveProcessorCall(afterLease, { callId: 'pmt_other', lock })).rejects.toThrow(
      IdempotencyInProgress,
    );
    await completeProcessorCall(afterLease, 'pmt_dead', { status: 201, body: {} }, [
      { Update: buildUnlock(lock.key, 'pmt_dead') },
    ]);
    expect((await itemOf(lock.key))?.processorCallId).toBeUndefined();
  });

  it('refuses an item another live call holds, and reports an item changed since it was read', async () => {
    const lock = await lockable(1);
    await reserveProcessorCall(contextOf(), { callId: 'pmt_holder', lock });
    await expect(reserveProcessorCall(contextOf(), { callId: 'pmt_second', lock })).rejects.toThrow(
      ProcessorCallBusy,
    );
    const unlocked = await lockable(1);
    const stale = { ...unlocked, asRead: { ...unlocked.asRead, values: { ':revision': 0 } } };
    const fresh = contextOf();
    // A changed item is reported as undefined: the caller reads it again.
    expect(await reserveProcessorCall(fresh, { callId: 'pmt_third', lock: stale })).toBeUndefined();
    // The failed reservation left no record behind: the same key can reserve again at once.
    expect(await reserveProcessorCall(later(fresh, 10), { callId: 'pmt_fourth', lock: unlocked })).toBe(
      'pmt_fourth',
    );
  });

  it('drops the reservation and the lock when the processor fails, so a retry starts afresh', async () => {
    const context = contextOf();
    const lock = await lockable();
    await reserveProcessorCall(context, { callId: 'pmt_failed', lock });
    const failing = callProcessor(context, 'pmt_failed', lock.key, async () => {
      throw new Error('processor down');
    });
    await expect(failing).rejects.toThrow('processor down');
    expect((await itemOf(lock.key))?.processorCallId).toBeUndefined();
    expect(await reserveProcessorCall(later(context, 10), { callId: 'pmt_retry', lock })).toBe('pmt_retry');
  });
});

describe('callProcessor: metrics', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('writes ProcessorCalls and ProcessorErrors for each call in Lambda, a failed one counted as an error', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'MerchantPayments-sandbox-createSandboxPayment');
    const context = contextOf();
    const lock = await lockable();
    const lines = await printedJsonLinesDuring(async () => {
      const answered = await reserveProcessorCall(context, { callId: 'pmt_answered', lock });
      if (answered === undefined) throw new Error('the lock was not taken');
      await callProcessor(context, answered, lock.key, async () => 'charged');
      const other = contextOf();
      const failed = await reserveProcessorCall(other, { callId: 'pmt_failing' });
      await expect(
        callProcessor(other, failed, undefined, async () => {
          throw new Error('processor down');
        }),
      ).rejects.toThrow('processor down');
    });
    const counts = lines
      .filter((line) => ProcessorMetricNames.calls in line)
      .map((line) => ({ calls: line.ProcessorCalls, errors: line.ProcessorErrors, stage: line.stage }));
    expect(counts).toEqual([
      { calls: 1, errors: 0, stage: 'sandbox' },
      { calls: 1, errors: 1, stage: 'sandbox' },
    ]);
  });
});

describe('completeProcessorCall', () => {
  it('writes only while the call still holds its lock', async () => {
    const context = contextOf();
    const lock = await lockable();
    const callId = 'pmt_writer';
    expect(await reserveProcessorCall(context, { callId, lock })).toBe(callId);
    const held = lockHeldBy('pmt_someone_else');
    const wrongHolder = {
      Update: {
        TableName: tableName,
        Key: lock.key,
        UpdateExpression: 'SET revision = :next',
        ConditionExpression: held.expression,
        ExpressionAttributeNames: held.names,
        ExpressionAttributeValues: { ...held.values, ':next': 2 },
      },
    };
    await expect(
      completeProcessorCall(context, callId, { status: 201, body: {} }, [wrongHolder]),
    ).rejects.toThrow();
    expect((await itemOf(lock.key))?.revision).toBe(1);
  });
});
