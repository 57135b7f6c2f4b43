import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { sendTransaction, TransactionConditionFailed } from '../../../functions/store/transaction';
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
