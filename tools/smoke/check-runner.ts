import { oneLine } from '../cli/command-failure';
import { CheckFailure } from './check-failure';

/** Where the check lines go (stdout); silenced once a stop is under way. */
export type PrintLine = (line: string) => void;

/** What a passed check found, shown in brackets after its name, and what a later step needs. */
export interface CheckResult<T> {
  readonly detail?: string;
  readonly value: T;
}

export interface CheckRunner {
  /**
   * Runs one check and prints its line: `ok   <check> (<detail>)`, or `FAIL <check>: <why>`.
   * Resolves with the check's value, or undefined when it failed. A failure that is no
   * `CheckFailure` (a port taken, a bug of the smoke) shows its name and message, on one line too.
   */
  run<T>(check: string, act: () => Promise<CheckResult<T>>): Promise<T | undefined>;
  /** A check that cannot run because an earlier one failed: a FAIL line of its own. */
  fail(check: string, why: string): void;
  /** How many checks failed so far. */
  readonly failed: number;
}

export function checkRunner(print: PrintLine): CheckRunner {
  let failed = 0;
  const fail = (check: string, why: string) => {
    failed += 1;
    print(`FAIL ${check}: ${oneLine(why)}`);
  };
  return {
    run: async (check, act) => {
      try {
        const { detail, value } = await act();
        print(`ok   ${check}${detail === undefined ? '' : ` (${detail})`}`);
        return value;
      } catch (error) {
        fail(check, whyOf(error));
        return undefined;
      }
    },
    fail,
    get failed() {
      return failed;
    },
  };
}

function whyOf(error: unknown): string {
  if (error instanceof CheckFailure) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
