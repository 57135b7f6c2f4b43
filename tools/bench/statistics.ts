/** The middle of the samples; the mean of the two middle ones when their count is even. */
export function median(samples: readonly number[]): number {
  const sorted = sortedCopy(samples);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The nearest-rank percentile: the smallest sample with at least `p` % of the samples at or below
 * it, so p99 of 200 samples is the second largest and every result is a real sample.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile ${p} is not in (0, 100]`);
  const sorted = sortedCopy(samples);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1] as number;
}

function sortedCopy(samples: readonly number[]): number[] {
  if (samples.length === 0) throw new RangeError('no samples');
  return [...samples].sort((a, b) => a - b);
}
