import type { z } from 'zod';

/**
 * The wording of every validation message (docs/decisions.md "Validation messages"). A message is
 * read after the field it is listed under: a problem with the value starts with "must"
 * (`name`: "must be at most 200 characters."); a field that is missing or not accepted is named
 * ("merchantId is required.", "colour is not a known field."). Every message is one sentence
 * ending with a period. Schemas and handlers that word a problem themselves take it from here; the
 * domain's own messages (InvalidFields) follow the same rule.
 */
export const ValidationMessage = {
  required: (field: string) => `${field} is required.`,
  requiredWith: (field: string, other: string) => `${field} is required with ${other}.`,
  unknownField: (field: string) => `${field} is not a known field.`,
  oneOf: (values: readonly unknown[]) =>
    values.length === 1
      ? `must be ${String(values[0])}.`
      : `must be one of: ${values.map(String).join(', ')}.`,
  typeId: (prefix: string) => `must be a ${prefix}_ TypeID.`,
  email: 'must be an email address.',
  dateTime: 'must be an ISO 8601 UTC date-time ending in Z.',
  noRepeats: 'must not repeat a value.',
  atMostKeys: (maximum: number) => `must have at most ${counted(maximum, 'key')}.`,
  notAfter: (other: string) => `must not be after ${other}.`,
  someField: 'must name at least one field to change.',
  existing: (thing: string) => `must name an existing ${thing}.`,
  activeProduct: 'must name an active product.',
  priceOfProduct: 'must name a price of this product.',
  priceCurrency: (currency: string) => `must be ${currency}, the currency of the price.`,
  cursor: 'must be a nextCursor of this list, with the same filters.',
} as const;

type Issue = z.core.$ZodRawIssue;

/**
 * zod's per-parse error map for one request location (`body`, `query`): every issue zod raises
 * gets our wording, so no schema has to carry its own. Messages a schema sets itself outrank it.
 */
export function validationErrorMap(location: string): z.core.$ZodErrorMap {
  return (issue) => validationMessage(issue, location);
}

/** Our message for one zod issue; `location` names a value with no path (the whole body). */
function validationMessage(issue: Issue, location: string): string {
  const field = fieldName(issue.path, location);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return ValidationMessage.required(field);
      return typeMessage(issue, field);
    case 'invalid_value':
      if (issue.input === undefined) return ValidationMessage.required(field);
      return ValidationMessage.oneOf(issue.values);
    case 'invalid_union':
      return unionMessage(issue, field);
    case 'too_big':
    case 'too_small':
      return issue.origin === 'array' || issue.origin === 'set'
        ? `must have ${limitPhrase(issue)}.`
        : `must be ${limitPhrase(issue)}.`;
    case 'invalid_format':
      return formatMessage(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}.`;
    case 'unrecognized_keys':
      return issue.keys.map(ValidationMessage.unknownField).join(' ');
    case 'invalid_key':
      return keyMessage(issue.issues[0]);
    case 'invalid_element':
    case 'custom':
      return 'must be a valid value.';
  }
}

/** The last segment of the issue's path: the field as the merchant wrote it. */
function fieldName(path: readonly PropertyKey[] | undefined, location: string): string {
  const last = path?.at(-1);
  return last === undefined ? location : String(last);
}

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  tuple: 'an array',
  null: 'null',
};

function typeMessage(issue: Extract<Issue, { code: 'invalid_type' }>, field: string): string {
  // `z.number().int()` reports a non-number (or a query value that is no number) as "number";
  // the field takes integers only, so say so.
  const integerOnly = issue.expected === 'number' && isIntegerSchema(issue.inst);
  if (integerOnly) return 'must be an integer.';
  // A key that may never be present is a field the request does not take.
  if (issue.expected === 'never') return ValidationMessage.unknownField(field);
  const name = typeNames[issue.expected];
  return name === undefined ? `must be of type ${issue.expected}.` : `must be ${name}.`;
}

function isIntegerSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && 'isInt' in schema && schema.isInt === true;
}

function unionMessage(issue: Extract<Issue, { code: 'invalid_union' }>, field: string): string {
  const options: unknown = issue.options;
  if (issue.discriminator === undefined || !Array.isArray(options)) {
    return 'must match one of the accepted forms.';
  }
  // The path already ends at the discriminator; its value tells "missing" from "unknown".
  const input = issue.input;
  const value =
    typeof input === 'object' && input !== null
      ? (input as Record<string, unknown>)[issue.discriminator]
      : undefined;
  return value === undefined ? ValidationMessage.required(field) : ValidationMessage.oneOf(options);
}

const units: Record<string, string> = { string: 'character', array: 'item', set: 'item', file: 'byte' };

/** Inclusive, then exclusive wording of each side. */
const limitWords = { too_big: ['at most', 'less than'], too_small: ['at least', 'more than'] } as const;

type SizeIssue = {
  readonly code: 'too_big' | 'too_small';
  readonly origin: string;
  readonly maximum?: number | bigint;
  readonly minimum?: number | bigint;
  readonly inclusive?: boolean;
  readonly exact?: boolean;
};

/** "at most 100 characters", "at least 1 item", "exactly 3 characters", "less than 10". */
function limitPhrase(issue: SizeIssue): string {
  const upper = issue.code === 'too_big';
  const words = issue.exact === true ? 'exactly' : limitWords[issue.code][issue.inclusive === false ? 1 : 0];
  const limit = upper ? issue.maximum : issue.minimum;
  const unit = units[issue.origin];
  return `${words} ${unit === undefined ? String(limit) : counted(Number(limit), unit)}`;
}

function counted(count: number, unit: string): string {
  return `${count} ${count === 1 ? unit : `${unit}s`}`;
}

function formatMessage(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  if (issue.format === 'email') return ValidationMessage.email;
  if (issue.format === 'datetime') return ValidationMessage.dateTime;
  if (issue.format === 'regex') return `must match the pattern ${issue.pattern}.`;
  return `must be in ${issue.format} format.`;
}

/** A record key's problem, listed under the key's own path: "must be a key of at most 40 characters." */
function keyMessage(keyIssue: z.core.$ZodIssue | undefined): string {
  if (keyIssue?.code === 'too_big' || keyIssue?.code === 'too_small') {
    return `must be a key of ${limitPhrase(keyIssue)}.`;
  }
  return 'must be a valid key.';
}
