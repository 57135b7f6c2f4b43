/**
 * Errors of the business rules, free of HTTP. The HTTP layer maps each to one code of
 * docs/architecture.md#conventions-for-every-endpoint: RuleViolation → its code (409), InvalidFields → 400
 * validation_error with one detail per field.
 */
export class RuleViolation extends Error {
  override name = 'RuleViolation';
  readonly code: 'invalid_state' | 'limit_exceeded';
  constructor(code: 'invalid_state' | 'limit_exceeded', message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.code = code;
  }
}

export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

export class InvalidFields extends Error {
  override name = 'InvalidFields';
  readonly problems: readonly FieldProblem[];
  constructor(problems: readonly FieldProblem[], options: { cause?: unknown } = {}) {
    super(problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '), options);
    this.problems = problems;
  }
}
