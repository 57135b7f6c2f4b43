import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFunctionEnvironment } from '../../../functions/config';
import { resetDocumentClient } from '../../../functions/store/client';
import { sendTransaction, TransactionConditionFailed } from '../../../functions/store/transaction';
import { transactionConflict } from '../../support/dynamodb-faults';

const dynamodb = mockClient(DynamoDBDocumentClient);
const items = [{ Put: { TableName: 't', Item: { PK: 'A', SK: 'A' } } }];

beforeEach(() => {
  vi.stubEnv('TABLE_NAME', 't');
  vi.stubEnv('STAGE', 'sandbox');
  vi.stubEnv('DYNAMODB_ENDPOINT', 'http://127.0.0.1:9');
  resetFunctionEnvironment();
  resetDocumentClient();
  vi.useFakeTimers();
});
afterEach(() => {
  dynamodb.reset();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetFunctionEnvironment();
  resetDocumentClient();
});

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
