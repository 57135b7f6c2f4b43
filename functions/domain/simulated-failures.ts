/**
 * Sandbox failure simulation (docs/decisions/sandbox-failure-simulation.md): an endpoint's next N attempts
 * fail without a request. At most 50 at a time: ten deliveries' worth of attempts, plenty to watch retries
 * and exhaustion.
 */
export const maxSimulatedFailures = 50;

/** The attempt's error message: what failed, and how many more simulated failures are left. */
export function simulatedFailureMessage(remaining: number): string {
  const left =
    remaining === 0
      ? 'none remain'
      : `${remaining} more ${remaining === 1 ? 'attempt' : 'attempts'} will fail`;
  return `Simulated failure (sandbox simulateFailures): no request was sent; ${left}.`;
}

/** The outcome of a simulated attempt: failed, no response, as long as it took to count it down. */
export function simulatedFailureOutcome(remaining: number, durationMs: number) {
  return {
    statusCode: null,
    durationMs,
    errorMessage: simulatedFailureMessage(remaining),
    succeeded: false,
  } as const;
}
