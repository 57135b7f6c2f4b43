import type { Issue, Path, Schema } from './schema';

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
export function integer(options: IntegerOptions = {}): Schema<number> {
  const { min, max, coerce } = options;
  return {
    node: {
      kind: 'integer',
      ...(min === undefined ? {} : { minimum: min }),
      ...(max === undefined ? {} : { maximum: max }),
      ...(coerce === undefined ? {} : { coerce }),
    },
    run: (input: unknown, path: Path, issues: Issue[]) => {
      const value = coerce === true ? Number(input) : input;
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        issues.push({ code: 'invalid_type', expected: 'integer', input: value, path });
        return value;
      }
      if (value > Number.MAX_SAFE_INTEGER) {
        issues.push({ code: 'too_big', limit: Number.MAX_SAFE_INTEGER, path });
      } else if (value < Number.MIN_SAFE_INTEGER) {
        issues.push({ code: 'too_small', limit: Number.MIN_SAFE_INTEGER, path });
      }
      if (min !== undefined && value < min) issues.push({ code: 'too_small', limit: min, path });
      if (max !== undefined && value > max) issues.push({ code: 'too_big', limit: max, path });
      return value;
    },
  };
}
