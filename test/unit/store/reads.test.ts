import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { batchGet, mapWithConcurrency } from '../../../functions/store/reads';
import { useMockedDocumentClient } from '../../support/mocked-document-client';

const dynamodb = useMockedDocumentClient();
const key = (n: number) => ({ PK: `ITEM#${n}`, SK: 'ITEM' });

describe('batchGet', () => {
  it('asks again for the keys left unprocessed, and answers every item found', async () => {
    dynamodb
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { t: [key(1)] }, UnprocessedKeys: { t: { Keys: [key(2), key(3)] } } })
      .resolvesOnce({ Responses: { t: [key(2)] }, UnprocessedKeys: { t: { Keys: [key(3)] } } })
      .resolvesOnce({ Responses: { t: [key(3)] } });
    const read = batchGet([key(1), key(2), key(3)]);
    await vi.runAllTimersAsync();
    await expect(read).resolves.toEqual([key(1), key(2), key(3)]);
    const asked = dynamodb
      .commandCalls(BatchGetCommand)
      .map((call) => call.args[0].input.RequestItems?.t?.Keys);
    expect(asked).toEqual([[key(1), key(2), key(3)], [key(2), key(3)], [key(3)]]);
  });

  it('fails after 10 requests that all left keys unprocessed', async () => {
    dynamodb
      .on(BatchGetCommand)
      .resolves({ Responses: { t: [] }, UnprocessedKeys: { t: { Keys: [key(1)] } } });
    const read = batchGet([key(1)]);
    const settled = expect(read).rejects.toThrow('BatchGetItem left keys unprocessed');
    await vi.runAllTimersAsync();
    await settled;
    expect(dynamodb.commandCalls(BatchGetCommand)).toHaveLength(10);
  });

  it('sends 100 keys a request', async () => {
    dynamodb.on(BatchGetCommand).resolves({ Responses: { t: [] } });
    await batchGet(Array.from({ length: 250 }, (_, n) => key(n)));
    const sizes = dynamodb
      .commandCalls(BatchGetCommand)
      .map((call) => call.args[0].input.RequestItems?.t?.Keys?.length);
    expect(sizes.sort()).toEqual([100, 100, 50]);
  });
});

describe('mapWithConcurrency', () => {
  it('never runs more tasks at once than allowed, and keeps the results in the order of the items', async () => {
    let running = 0;
    let mostRunning = 0;
    const items = Array.from({ length: 17 }, (_, index) => index);

    const results = await mapWithConcurrency(items, 4, async (item) => {
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      // Later items finish first, so results arrive out of order.
      for (let turn = 0; turn < 20 - item; turn += 1) await Promise.resolve();
      running -= 1;
      return item * 10;
    });

    expect(mostRunning).toBe(4);
    expect(results).toEqual(items.map((item) => item * 10));
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapWithConcurrency([1, 2, 3], 2, async (item) => {
        if (item === 2) throw new Error('partition 2 unreadable');
        return item;
      }),
    ).rejects.toThrow('partition 2 unreadable');
  });

  it('resolves with no results for no items', async () => {
    expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
  });
});
