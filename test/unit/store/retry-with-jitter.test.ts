import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryWithJitter } from '../../../functions/store/retry-with-jitter';

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
