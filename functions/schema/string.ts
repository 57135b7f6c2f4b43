import type { Issue, Path, Schema } from './schema';

export interface StringOptions {
  /** Removes surrounding whitespace before the length checks; the trimmed value is the result. */
  readonly trim?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: RegExp;
  /** A value matching this is refused, as one that misses `pattern` is. */
  readonly notPattern?: RegExp;
  /** The message of a value that does not match `pattern` or matches `notPattern`. */
  readonly patternMessage?: string;
}

/** With the `u` flag a surrogate matches only unpaired: a pair is read as the one character it encodes. */
const loneSurrogate = /\p{Surrogate}/u;

export function string(options: StringOptions = {}): Schema<string> {
  const { trim, min, max, pattern, notPattern, patternMessage } = options;
  return {
    node: {
      kind: 'string',
      ...(trim === undefined ? {} : { trim }),
      ...(min === undefined ? {} : { minLength: min }),
      ...(max === undefined ? {} : { maxLength: max }),
      ...(pattern === undefined ? {} : { pattern }),
      ...(notPattern === undefined ? {} : { notPattern }),
    },
    run: (value: unknown, path: Path, issues: Issue[]) => {
      if (typeof value !== 'string') {
        issues.push({ code: 'invalid_type', expected: 'string', input: value, path });
        return value;
      }
      // A lone UTF-16 surrogate has no UTF-8 form: DynamoDB would store a replacement character.
      if (loneSurrogate.test(value)) {
        issues.push({ code: 'invalid_format', format: 'unicode', path });
        return value;
      }
      const text = trim === true ? value.trim() : value;
      checkLength(text, min, max, path, issues);
      const missed = pattern !== undefined && !pattern.test(text) ? pattern : undefined;
      const refused = notPattern?.test(text) ? notPattern : undefined;
      const broken = missed ?? refused;
      if (broken !== undefined) {
        issues.push({
          code: 'invalid_format',
          format: 'pattern',
          pattern: broken,
          path,
          ...(patternMessage === undefined ? {} : { message: patternMessage }),
        });
      }
      return text;
    },
  };
}

/** Lengths count characters (code points): an emoji is one character, not two UTF-16 units. */
function checkLength(
  text: string,
  min: number | undefined,
  max: number | undefined,
  path: Path,
  issues: Issue[],
) {
  const length = characterCount(text);
  if (min !== undefined && length < min)
    issues.push({ code: 'too_small', limit: min, unit: 'character', path });
  if (max !== undefined && length > max)
    issues.push({ code: 'too_big', limit: max, unit: 'character', path });
}

/** A surrogate pair is one character; a lone surrogate counts as one too. */
function characterCount(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    if (isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1))) {
      count--;
      index++;
    }
  }
  return count;
}

function isHighSurrogate(unit: number): boolean {
  return (unit & 0xfc00) === 0xd800;
}

function isLowSurrogate(unit: number): boolean {
  return (unit & 0xfc00) === 0xdc00;
}
