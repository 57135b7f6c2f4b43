/**
 * What a command has started and must stop, newest first: `onStop` adds a stop (and returns a way to
 * drop it once that part ended by itself), `stopAll` runs every stop still registered, once each,
 * going on past one that fails.
 */
export function stopRegistry() {
  const stops: (() => Promise<void>)[] = [];
  const onStop = (stop: () => Promise<void>) => {
    stops.push(stop);
    return () => {
      const index = stops.lastIndexOf(stop);
      if (index >= 0) stops.splice(index, 1);
    };
  };
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  };
  return { onStop, stopAll };
}

/**
 * Runs a command's work with its stops handed to the signal handling (`stopWith`). A run cut short
 * by a stop fails on the parts stopped under it: that is no error, and the stop exits on its own
 * once everything has ended, so such a failure never settles.
 */
export async function runStoppable<T>(
  stopWith: (stop: () => Promise<void>) => void,
  work: (registerStop: (stop: () => Promise<void>) => void) => Promise<T>,
): Promise<T> {
  let stopping = false;
  return work((stop) =>
    stopWith(async () => {
      stopping = true;
      await stop();
    }),
  ).catch((error: unknown) => {
    if (stopping) return new Promise<never>(() => undefined);
    throw error;
  });
}
