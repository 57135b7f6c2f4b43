import { describe, expect, it } from 'vitest';
import {
  declineLimitUntil,
  PayLinkDeclineLimit,
  secondsUntil,
  withDecline,
} from '../../../functions/domain/pay-link-declines';

const { cap, windowMs } = PayLinkDeclineLimit;
const now = new Date('2026-03-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => now.getTime() - minutes * 60_000;

describe('declineLimitUntil', () => {
  it('takes payments while fewer than the cap are kept', () => {
    expect(declineLimitUntil([], now)).toBeUndefined();
    expect(declineLimitUntil([1, 2, 3, 4].map(minutesAgo), now)).toBeUndefined();
  });

  it('refuses until the oldest of the cap’s declines is a window old', () => {
    const history = [1, 2, 3, 4, 40].map(minutesAgo);
    expect(declineLimitUntil(history, now)).toEqual(new Date(minutesAgo(40) + windowMs));
  });

  it('takes payments again the moment the oldest counted decline is exactly a window old', () => {
    const history = [1, 2, 3, 4].map(minutesAgo).concat(now.getTime() - windowMs);
    expect(declineLimitUntil(history, now)).toBeUndefined();
    expect(declineLimitUntil(history, new Date(now.getTime() - 1))).toBeDefined();
  });
});

describe('withDecline', () => {
  it('puts the new decline first and keeps at most the cap', () => {
    const history = [1, 2, 3, 4, 5].map(minutesAgo);
    expect(withDecline(history, now)).toEqual([now.getTime(), ...history.slice(0, cap - 1)]);
  });

  it('drops declines that left the window', () => {
    expect(withDecline([minutesAgo(10), minutesAgo(60), minutesAgo(90)], now)).toEqual([
      now.getTime(),
      minutesAgo(10),
    ]);
  });
});

describe('secondsUntil', () => {
  it('rounds up to whole seconds and is never less than 1', () => {
    expect(secondsUntil(new Date(now.getTime() + 1_001), now)).toBe(2);
    expect(secondsUntil(new Date(now.getTime() + 60_000), now)).toBe(60);
    expect(secondsUntil(now, now)).toBe(1);
  });
});
