import { describe, expect, it } from 'vitest';
import { rateLimiter } from '../../../tools/local/rate-limiter';

const windowMs = 60_000;
const limit = 60;

/** A limiter on a clock the test moves. */
function limiterAt(start: number) {
  const clock = { now: start };
  const limiter = rateLimiter({ limit, windowMs, now: () => clock.now });
  return { clock, limiter };
}

/** Distinct loopback addresses, as many as asked: 127.0.x.y. */
function loopbackAddresses(count: number): string[] {
  return Array.from(
    { length: count },
    (_, index) => `127.0.${Math.floor(index / 250) + 1}.${(index % 250) + 2}`,
  );
}

describe('rateLimiter', () => {
  it('allows `limit` requests of an address per window, then refuses it until the window ends', () => {
    const { clock, limiter } = limiterAt(1_000);

    const answers = Array.from({ length: limit + 1 }, () => limiter.allow('127.0.0.1'));

    expect(answers.filter(Boolean)).toHaveLength(limit);
    expect(answers.at(-1)).toBe(false);
    clock.now += windowMs - 1;
    expect(limiter.allow('127.0.0.1')).toBe(false);
    clock.now += 1;
    expect(limiter.allow('127.0.0.1')).toBe(true);
  });

  it('keeps refusing an address within its window however many other addresses call meanwhile', () => {
    const { clock, limiter } = limiterAt(1_000);
    for (let request = 0; request < limit; request += 1) limiter.allow('127.0.0.1');
    expect(limiter.allow('127.0.0.1')).toBe(false);

    // More new addresses than the 10,000 the limiter once held before emptying its whole table.
    for (const address of loopbackAddresses(10_050)) {
      clock.now += 1;
      expect(limiter.allow(address)).toBe(true);
    }

    expect(clock.now - 1_000).toBeLessThan(windowMs);
    expect(limiter.allow('127.0.0.1')).toBe(false);
  });

  it('forgets the addresses whose window has ended, so it holds only those seen within one window', () => {
    const { clock, limiter } = limiterAt(1_000);
    for (const address of loopbackAddresses(500)) limiter.allow(address);
    clock.now += windowMs / 2;
    for (const address of loopbackAddresses(700).slice(500)) limiter.allow(address);
    expect(limiter.size).toBe(700);

    // The first 500 windows have ended; the last 200 still run.
    clock.now += windowMs / 2;
    limiter.allow('127.0.0.1');
    expect(limiter.size).toBe(201);

    clock.now += windowMs;
    limiter.allow('127.0.0.1');
    expect(limiter.size).toBe(1);
  });

  it('counts an address afresh once its window has been forgotten', () => {
    const { clock, limiter } = limiterAt(1_000);
    for (let request = 0; request <= limit; request += 1) limiter.allow('127.0.0.1');
    clock.now += windowMs;
    limiter.allow('127.0.0.2');

    const answers = Array.from({ length: limit + 1 }, () => limiter.allow('127.0.0.1'));

    expect(answers.filter(Boolean)).toHaveLength(limit);
  });
});
