import type { BenchContext } from './bench-context';

/**
 * Awaits something that must be stopped, and registers its stop with the bench, so a SIGINT in the
 * middle of a section still ends it. `stop()` runs it once and unregisters it.
 */
export async function runningUntilStopped<
  T extends { stop?: () => Promise<void>; close?: () => Promise<void> },
>(
  context: Pick<BenchContext, 'onStop'>,
  starting: Promise<T>,
): Promise<{ value: T; stop: () => Promise<void> }> {
  const value = await starting;
  let stopped = false;
  const stopValue = async () => {
    if (stopped) return;
    stopped = true;
    await (value.stop ?? value.close)?.call(value);
  };
  const unregister = context.onStop(stopValue);
  return {
    value,
    stop: async () => {
      unregister();
      await stopValue();
    },
  };
}
