import { expect } from 'vitest';
import { RuleViolation } from '../../functions/domain/errors';

/** Asserts that `run` refuses with a RuleViolation of code `invalid_state`. */
export function expectInvalidState(run: () => unknown) {
  expect(run).toThrow(RuleViolation);
  try {
    run();
  } catch (error) {
    expect((error as RuleViolation).code).toBe('invalid_state');
  }
}
