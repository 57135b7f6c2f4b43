import type { Issue, Path, Schema } from './schema';

export interface StringOptions {
  /** Removes surrounding whitespace before the length checks; the trimmed value is the result. */
  readonly trim?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: RegExp;
  /** The message of a value that does not match `pattern`. */
  readonly patternMessage?: string;
}

export function string(options: StringOptions = {}): Schema<string> {
  const { trim, min, max, pattern, patternMessage } = options;
  return {
    node: {
      kind: 'string',
      ...(trim === undefined ? {} : { trim }),
      ...(min === undefined ? {} : { minLength: min }),
      ...(max === undefined ? {} : { maxLength: max }),
      ...(pattern === undefined ? {} : { pattern }),
    },
    run: (value: unknown, path: Path, issues: Issue[]) => {
      if (typeof value !== 'string') {
        issues.push({ code: 'invalid_type', expected: 'string', input: value, path });
        return value;
      }
      const text = trim === true ? value.trim() : value;
      checkLength(text, min, max, path, issues);
      if (pattern !== undefined && !pattern.test(text)) {
        issues.push({
          code: 'invalid_format',
          format: 'pattern',
          pattern,
          path,
          ...(patternMessage === undefined ? {} : { message: patternMessage }),
        });
      }
      return text;
    },
  };
}

export function checkLength(
  text: string,
  min: number | undefined,
  max: number | undefined,
  path: Path,
  issues: Issue[],
): void {
  if (min !== undefined && text.length < min) {
    issues.push({ code: 'too_small', limit: min, unit: 'character', path });
  }
  if (max !== undefined && text.length > max) {
    issues.push({ code: 'too_big', limit: max, unit: 'character', path });
  }
}
