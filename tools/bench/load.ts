/** Latencies of `count` calls of `call`, `concurrency` at a time, and the wall time they took. */
export async function loadAtConcurrency(
  count: number,
  concurrency: number,
  call: (index: number) => Promise<void>,
): Promise<{ latenciesMs: number[]; wallMs: number }> {
  const latenciesMs: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      const callStarted = performance.now();
      await call(index);
      latenciesMs.push(performance.now() - callStarted);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { latenciesMs, wallMs: performance.now() - started };
}

/**
 * Runs two loads of the same size in alternating rounds, the first one first in even rounds and
 * second in odd ones, so a change in the machine's load falls on both alike.
 */
export async function alternatingLoads(
  options: { count: number; rounds: number; concurrency: number },
  first: (index: number) => Promise<void>,
  second: (index: number) => Promise<void>,
): Promise<[LoadResult, LoadResult]> {
  const results: [LoadResult, LoadResult] = [
    { latenciesMs: [], wallMs: 0, count: 0 },
    { latenciesMs: [], wallMs: 0, count: 0 },
  ];
  const perRound = Math.ceil(options.count / options.rounds);
  for (let round = 0; round < options.rounds; round += 1) {
    const order = round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const which of order) {
      const call = which === 0 ? first : second;
      const offset = round * perRound;
      const load = await loadAtConcurrency(perRound, options.concurrency, (index) => call(offset + index));
      results[which].latenciesMs.push(...load.latenciesMs);
      results[which].wallMs += load.wallMs;
      results[which].count += perRound;
    }
  }
  return results;
}

export interface LoadResult {
  latenciesMs: number[];
  wallMs: number;
  count: number;
}
