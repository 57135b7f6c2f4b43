import type { ErrorAnswer } from './answerable-error';
import type { ErrorDetail } from './error-code';

/** The most problems one 400 lists; its message counts the rest (docs/decisions/validation-cost.md). */
export const maxListedDetails = 100;

/** A 400 listing at most `maxListedDetails` problems, whoever found them; past that, its message counts them all. */
export function validationAnswer(
  details: readonly ErrorDetail[],
  message = 'The request is not valid.',
): ErrorAnswer {
  const listed = details.length <= maxListedDetails;
  return {
    code: 'validation_error',
    message: listed
      ? message
      : `The request is not valid: ${details.length} problems, the first ${maxListedDetails} listed.`,
    details: listed ? details : details.slice(0, maxListedDetails),
  };
}
