import * as z from 'zod/mini';
import { type SchemaMeta, schemaMeta } from './schema-meta';

export interface TextOptions {
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

/**
 * A string, checked as docs/decisions/validation-on-zod-mini.md says: a lone UTF-16 surrogate
 * is refused before anything else (DynamoDB would store a replacement character), lengths count
 * code points after trimming, then the pattern. One check, so their order and what each stops is
 * ours; every problem it finds lets the checks built on the value (`rule`) still run.
 */
export function text(options: TextOptions = {}) {
  const schema = z.string().check((payload) => {
    const value = payload.value;
    if (loneSurrogate.test(value)) {
      payload.issues.push({ code: 'invalid_format', format: 'well_formed', input: value, continue: true });
      return;
    }
    const trimmed = options.trim === true ? value.trim() : value;
    payload.value = trimmed;
    checkLength(payload, trimmed, options);
    checkPattern(payload, trimmed, options);
  });
  schemaMeta.add(schema, textMeta(options));
  return schema;
}

type Payload = z.core.ParsePayload<string>;

function checkLength(payload: Payload, value: string, { min, max }: TextOptions): void {
  if (min === undefined && max === undefined) return;
  const length = characterCount(value);
  if (min !== undefined && length < min) {
    payload.issues.push({ code: 'too_small', origin: 'string', minimum: min, input: value, continue: true });
  }
  if (max !== undefined && length > max) {
    payload.issues.push({ code: 'too_big', origin: 'string', maximum: max, input: value, continue: true });
  }
}

function checkPattern(payload: Payload, value: string, options: TextOptions): void {
  const { pattern, notPattern, patternMessage } = options;
  const missed = pattern !== undefined && !pattern.test(value) ? pattern : undefined;
  const broken = missed ?? (notPattern?.test(value) ? notPattern : undefined);
  if (broken === undefined) return;
  payload.issues.push({
    code: 'invalid_format',
    format: 'regex',
    pattern: String(broken),
    input: value,
    continue: true,
    ...(patternMessage === undefined ? {} : { message: patternMessage, ownMessage: true }),
  });
}

/**
 * The keywords of what the check enforces. A trimmed string's lengths count what remains after
 * trimming, which no keyword can say: the raw-length bounds stay (stricter than the service at
 * the maximum, never looser), and a minimum of one becomes "holds a non-whitespace character",
 * since JavaScript's trim and `\s` share one set.
 */
function textMeta(options: TextOptions): SchemaMeta {
  const { trim, min, max, pattern, notPattern } = options;
  const meta: SchemaMeta = {
    ...(min === undefined ? {} : { minLength: min }),
    ...(max === undefined ? {} : { maxLength: max }),
    ...(pattern === undefined ? {} : { pattern: pattern.source }),
    ...(notPattern === undefined ? {} : { not: { pattern: notPattern.source } }),
  };
  if (trim !== true) return meta;
  const bounds = max === undefined ? `at least ${min ?? 0}` : `${min ?? 0} to ${max}`;
  const description = `Surrounding whitespace is removed; ${bounds} characters must remain.`;
  if (min === undefined || min === 0) return { ...meta, description };
  if (min > 1 || pattern !== undefined) {
    throw new Error('A trimmed string has a JSON Schema form only with a minimum of 1 and no pattern');
  }
  return { ...meta, pattern: '\\S', description };
}

/**
 * Characters (code points): a surrogate pair is one, a lone surrogate counts as one too. Counted
 * here rather than with zod's helper, which lives in a namespace a bundler cannot tree-shake.
 */
function characterCount(value: string): number {
  let count = value.length;
  for (let index = 0; index < value.length - 1; index++) {
    const high = (value.charCodeAt(index) & 0xfc00) === 0xd800;
    if (high && (value.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      count--;
      index++;
    }
  }
  return count;
}
