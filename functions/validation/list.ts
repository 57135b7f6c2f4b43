import * as z from 'zod/mini';

export interface ListOptions {
  readonly min?: number;
  readonly max?: number;
}

/**
 * Length checks of an array only: zod's would also measure a string sent in its place. `when` is
 * a check definition's own field, which zod's parameter types leave out.
 */
const arraysOnly = { when: (payload: z.core.ParsePayload) => Array.isArray(payload.value) };

/**
 * An array of `items`. One over its maximum is refused as a whole before any item is checked (zod
 * checks a size cap first), so an oversized request costs no more than its length; otherwise every
 * item is checked, then the minimum.
 */
export function list<T extends z.core.SomeType>(items: T, options: ListOptions = {}) {
  const { min, max } = options;
  return z
    .array(items)
    .check(
      ...(min === undefined ? [] : [z.minLength(min, arraysOnly as z.core.$ZodCheckMinLengthParams)]),
      ...(max === undefined ? [] : [z.maxLength(max, arraysOnly as z.core.$ZodCheckMaxLengthParams)]),
    );
}
