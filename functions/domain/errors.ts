import { AnswerableError, type ErrorAnswer } from '../errors/answerable-error';
import { validationAnswer } from '../errors/validation-answer';

/**
 * Errors of the business rules. Each declares the API's answer for it: RuleViolation → its code
 * (409), InvalidFields → 400 validation_error with one detail per field.
 */
export class RuleViolation extends AnswerableError {
  override name = 'RuleViolation';
  readonly code: 'invalid_state' | 'limit_exceeded';
  constructor(code: 'invalid_state' | 'limit_exceeded', message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.code = code;
  }

  answer(): ErrorAnswer {
    return { code: this.code, message: this.message };
  }
}

export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

export class InvalidFields extends AnswerableError {
  override name = 'InvalidFields';
  readonly problems: readonly FieldProblem[];
  constructor(problems: readonly FieldProblem[], options: { cause?: unknown } = {}) {
    super(problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '), options);
    this.problems = problems;
  }

  answer(): ErrorAnswer {
    return validationAnswer(this.problems);
  }
}
