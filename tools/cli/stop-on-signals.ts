/** The signals that stop a local process: Ctrl-C, a process manager's stop, a closed terminal. */
export const StopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof StopSignals)[number];

/** Exit code of a stop that failed or was cut short by a second signal. */
export const ForcedExitCode = 1;

export interface StopOnSignalsOptions {
  /** Notices about a forced exit or a failed stop (default: one line on stderr). */
  readonly log?: (line: string) => void;
  /** How often the parent process is looked at (default 1000 ms). */
  readonly parentCheckMs?: number;
  /**
   * A signal this soon after the first one is the same request (default 1000 ms): Ctrl-C reaches
   * both npm and its script, and npm forwards its copy too.
   */
  readonly repeatWindowMs?: number;
}

export interface StopHandlers {
  /** What stopping means once everything has started; until then a request to stop exits at once. */
  stopWith(stop: () => Promise<void>): void;
  /** True once a stop was requested: work cut short by it is no failure of its own. */
  stopping(): boolean;
}

/**
 * Makes this process stop the same way on SIGINT, SIGTERM and SIGHUP, and when its parent process
 * is gone: npm forwards SIGINT and SIGTERM to its script but dies of SIGHUP without passing it on.
 * Stopping runs `stop` and exits 0 (1 when it fails); a second signal while it runs, a second or
 * more after the first, exits at once. Call it first thing, so a signal during startup is not left
 * to the default action.
 */
export function stopOnSignals(options: StopOnSignalsOptions = {}): StopHandlers {
  const log = options.log ?? ((line: string) => console.error(line));
  const repeatWindowMs = options.repeatWindowMs ?? 1_000;
  const parentPid = process.ppid;
  let stop: (() => Promise<void>) | undefined;
  let requestedAt: number | undefined;
  let parentCheck: NodeJS.Timeout | undefined;

  const request = (reason: StopSignal | 'parent gone') => {
    if (requestedAt !== undefined) {
      if (reason === 'parent gone' || Date.now() - requestedAt < repeatWindowMs) return;
      log(`${reason} again while stopping: exiting without waiting`);
      process.exit(ForcedExitCode);
    }
    requestedAt = Date.now();
    clearInterval(parentCheck);
    if (stop === undefined) process.exit(0);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(ForcedExitCode);
      },
    );
  };

  for (const signal of StopSignals) process.on(signal, () => request(signal));
  // A process started by init (pid 1) has no parent that could go away.
  if (parentPid > 1) {
    parentCheck = setInterval(() => {
      if (process.ppid !== parentPid) request('parent gone');
    }, options.parentCheckMs ?? 1_000);
    parentCheck.unref();
  }

  return {
    stopWith(next) {
      stop = next;
    },
    stopping: () => requestedAt !== undefined,
  };
}
