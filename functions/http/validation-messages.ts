import type * as z from 'zod/mini';

/**
 * The wording of every validation message (docs/decisions/validation-messages.md). A message is
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
  givenOnce: 'must be given once.',
  sandboxOnly: 'must be left out: it is accepted only in the sandbox.',
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
  wellFormed: 'must be well-formed Unicode text, without a lone UTF-16 surrogate.',
  metadataKey:
    'must be a key of letters, digits and _ . : - only, and not __proto__, constructor or prototype.',
} as const;

/** One problem as zod reports it to an error map: its code, its data and the value it was found on. */
export type Issue = z.core.$ZodRawIssue;

/**
 * Our message for one problem the schemas found, fed to zod as the parse's error map; `location`
 * (`body`, `query`) names a value with no path. A message the schema carries itself (a TypeID's, a
 * rule's) outranks it: zod only asks for issues that have none.
 */
export function issueMessage(issue: Issue, location: string): string {
  const field = fieldName(issue.path ?? [], location);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? ValidationMessage.required(field)
        : `must be ${typeNames[issue.expected] ?? `a ${issue.expected}`}.`;
    case 'invalid_value':
      return issue.input === undefined
        ? ValidationMessage.required(field)
        : ValidationMessage.oneOf(issue.values);
    case 'invalid_union':
      return discriminatorMessage(issue, field);
    case 'too_big':
    case 'too_small':
      return sizeMessage(issue);
    case 'invalid_format':
      return formatMessage(issue);
    case 'unrecognized_keys':
      return issue.keys.map(ValidationMessage.unknownField).join(' ');
    case 'invalid_key':
      return keyMessage(issue.issues[0]);
    default:
      return 'must be valid.';
  }
}

/** The last segment of the issue's path: the field as the merchant wrote it. */
function fieldName(path: readonly PropertyKey[], location: string): string {
  const last = path.at(-1);
  return last === undefined ? location : String(last);
}

const typeNames: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'an integer',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/** A discriminated union's tag that is missing ("kind is required.") or names no form. */
function discriminatorMessage(issue: Extract<Issue, { code: 'invalid_union' }>, field: string): string {
  const { discriminator, options, input } = issue as typeof issue & {
    discriminator?: string;
    options?: readonly unknown[];
  };
  if (discriminator === undefined || options === undefined) return 'must match one of the accepted forms.';
  const tag = (input as Record<string, unknown>)[discriminator];
  return tag === undefined ? ValidationMessage.required(field) : ValidationMessage.oneOf(options);
}

/** What a size problem says, whether zod hands it to the error map or has finalized it (a record key's). */
interface SizeIssue {
  readonly code: 'too_big' | 'too_small';
  readonly origin: string;
  readonly maximum?: number | bigint;
  readonly minimum?: number | bigint;
}

/** "must be at most 100 characters.", "must have at least 1 item.", "must be at most 9007199254740991." */
function sizeMessage(issue: SizeIssue): string {
  return issue.origin === 'array' ? `must have ${limitPhrase(issue)}.` : `must be ${limitPhrase(issue)}.`;
}

function limitPhrase(issue: SizeIssue): string {
  const [words, limit] =
    issue.code === 'too_big' ? ['at most', Number(issue.maximum)] : ['at least', Number(issue.minimum)];
  const unit = issue.origin === 'array' ? 'item' : issue.origin === 'string' ? 'character' : undefined;
  return `${words} ${unit === undefined ? String(limit) : counted(limit, unit)}`;
}

function formatMessage(issue: Extract<Issue, { code: 'invalid_format' }>): string {
  if (issue.format === 'date-time') return ValidationMessage.dateTime;
  if (issue.format === 'well_formed') return ValidationMessage.wellFormed;
  return `must match the pattern ${issue.pattern}.`;
}

function counted(count: number, unit: string): string {
  return `${count} ${count === 1 ? unit : `${unit}s`}`;
}

/**
 * A record key's problem, listed under the key's own path: "must be a key of at most 40
 * characters.", or the message the key's pattern carries (`ownMessage`, set by `text`).
 */
function keyMessage(keyIssue: z.core.$ZodIssue | undefined): string {
  if (keyIssue?.code === 'too_big' || keyIssue?.code === 'too_small')
    return `must be a key of ${limitPhrase(keyIssue)}.`;
  if (keyIssue?.code === 'invalid_format' && 'ownMessage' in keyIssue) return keyIssue.message;
  return 'must be a valid key.';
}
