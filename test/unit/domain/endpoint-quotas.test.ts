import { describe, expect, it } from 'vitest';
import { limitedUntil, type RollingLimit, withUse } from '../../../functions/domain/endpoint-quotas';

const limit: RollingLimit = { cap: 3, windowMs: 1000 };
const at = (ms: number) => new Date(ms);

describe('a rolling limit', () => {
  it('lets uses through until the cap-th newest is younger than the window, then says when', () => {
    expect(limitedUntil(limit, [], at(0))).toBeUndefined();
    expect(limitedUntil(limit, [200, 100], at(300))).toBeUndefined();
    expect(limitedUntil(limit, [300, 200, 100], at(300))).toEqual(at(1100));
    expect(limitedUntil(limit, [300, 200, 100], at(1100))).toBeUndefined();
  });

  it('keeps the newest uses within the window, at most the cap', () => {
    expect(withUse(limit, [], at(5))).toEqual([5]);
    expect(withUse(limit, [300, 200, 100], at(1150))).toEqual([1150, 300, 200]);
    expect(withUse(limit, [300, 200, 100], at(1250))).toEqual([1250, 300]);
  });
});
