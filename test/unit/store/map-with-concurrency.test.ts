import { describe, expect, it } from 'vitest';
import { mapWithConcurrency } from '../../../functions/store/map-with-concurrency';

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
