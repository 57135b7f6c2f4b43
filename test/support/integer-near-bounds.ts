import fc from 'fast-check';

/** How close to a bound counts as "at the bound": the bound itself and its three neighbours. */
const edge = 3;

/**
 * Integers of [min, max] where a third of the values lie within 3 of `min`, a third within 3 of
 * `max` and the rest anywhere, so the bounds come up in every run rather than by luck. `reach`
 * extends both ends past the range by that much, for rules that must refuse what lies outside.
 * Past Number.MAX_SAFE_INTEGER the values are the nearest doubles (2^53 + 1 is 2^53).
 */
export function integerNearBounds({
  min,
  max,
  reach = 0,
}: {
  min: number;
  max: number;
  reach?: number;
}): fc.Arbitrary<number> {
  return fc.oneof(
    fc.integer({ min: -reach, max: Math.min(edge, max - min) }).map((offset) => min + offset),
    fc.integer({ min: -Math.min(edge, max - min), max: reach }).map((offset) => max + offset),
    fc.integer({ min, max }),
  );
}
