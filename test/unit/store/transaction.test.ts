import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  retryWithJitter,
  sendTransaction,
  TransactionConditionFailed,
} from '../../../functions/store/transaction';
import { transactionConflict } from '../../support/dynamodb-faults';
import { useMockedDocumentClient } from '../../support/mocked-document-client';

const dynamodb = useMockedDocumentClient();
const items = [{ Put: { TableName: 't', Item: { PK: 'A', SK: 'A' } } }];

describe('sendTransaction', () => {
  it('sends a transaction that meets a conflict again, and succeeds when the conflict is gone', async () => {
    dynamodb
      .on(TransactWriteCommand)
      .rejectsOnce(transactionConflict())
      .rejectsOnce(transactionConflict())
      .resolves({});
    const sent = sendTransaction(items);
    await vi.runAllTimersAsync();
    await expect(sent).resolves.toBeUndefined();
    expect(dynamodb.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('gives up on a conflict after 10 retries, 11 sends in all, with the conflict itself', async () => {
    dynamodb.on(TransactWriteCommand).rejects(transactionConflict());
    const sent = sendTransaction(items);
    const settled = expect(sent).rejects.toBeInstanceOf(TransactionCanceledException);
    await vi.runAllTimersAsync();
    await settled;
    expect(dynamodb.commandCalls(TransactWriteCommand)).toHaveLength(11);
  });

  it('never retries a failed condition: it is an answer, carrying the item as it was', async () => {
    dynamodb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [
          { Code: 'TransactionConflict' },
          { Code: 'ConditionalCheckFailed', Item: { PK: { S: 'A' }, count: { N: '3' } } },
        ],
      }),
    );
    const failure = await sendTransaction(items).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransactionConditionFailed);
    expect((failure as TransactionConditionFailed).failures).toEqual([
      { index: 1, existing: { PK: 'A', count: 3 } },
    ]);
    expect(dynamodb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('never retries another error', async () => {
    const refused = new Error('ValidationException');
    dynamodb.on(TransactWriteCommand).rejects(refused);
    await expect(sendTransaction(items)).rejects.toThrow('ValidationException');
    expect(dynamodb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});

class Retryable extends Error {}

const policy = { attempts: 4, baseMs: 10, capMs: 30 };

/** An attempt that fails with `Retryable` `failures` times, then answers 'done'; it logs each start. */
function failing(failures: number, starts: number[]) {
  return async () => {
    starts.push(Date.now());
    if (starts.length <= failures) throw new Retryable(`failure ${starts.length}`);
    return 'done';
  };
}

describe('retryWithJitter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('answers the first attempt that succeeds, without waiting', async () => {
    const starts: number[] = [];
    await expect(retryWithJitter(policy, failing(0, starts), () => true)).resolves.toBe('done');
    expect(starts).toEqual([0]);
  });

  it('waits before retry n a random share of min(cap, base × 2ⁿ)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const starts: number[] = [];
    const result = retryWithJitter(policy, failing(3, starts), (error) => error instanceof Retryable);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('done');
    // Waits of 0.5 × 20, 0.5 × min(30, 40) and 0.5 × min(30, 80).
    expect(starts).toEqual([0, 10, 25, 40]);
  });

  it('waits nothing when the random draw is 0 (full jitter starts at zero)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const starts: number[] = [];
    const result = retryWithJitter(policy, failing(2, starts), () => true);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('done');
    expect(starts).toEqual([0, 0, 0]);
  });

  it('throws the last failure once `attempts` attempts in all have failed', async () => {
    const starts: number[] = [];
    const result = retryWithJitter(policy, failing(10, starts), () => true);
    const settled = expect(result).rejects.toThrow('failure 4');
    await vi.runAllTimersAsync();
    await settled;
    expect(starts).toHaveLength(4);
  });

  it('throws at once a failure its condition does not retry', async () => {
    const starts: number[] = [];
    const refused = new Error('not retryable');
    const attempt = async () => {
      starts.push(Date.now());
      throw refused;
    };
    await expect(retryWithJitter(policy, attempt, (error) => error instanceof Retryable)).rejects.toBe(
      refused,
    );
    expect(starts).toEqual([0]);
  });
});
