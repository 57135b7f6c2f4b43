import * as z from 'zod/mini';

export interface IntegerOptions {
  readonly min?: number;
  readonly max?: number;
  /** A query parameter: its text is read as a number first (`Number(text)`). */
  readonly coerce?: boolean;
}

/**
 * A safe integer (±2^53 − 1) within the bounds. A value past the safe range is reported as such
 * and against the bounds too; the validation middleware lists a repeated wording once.
 */
export function integer(options: IntegerOptions = {}) {
  const { min, max, coerce } = options;
  const bounds = [
    ...(min === undefined ? [] : [z.minimum(min)]),
    ...(max === undefined ? [] : [z.maximum(max)]),
  ];
  return coerce === true ? z.coerce.number().check(z.int(), ...bounds) : z.int().check(...bounds);
}
