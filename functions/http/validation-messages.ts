import type { Issue, Path, TypeName } from '../schema';

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

/**
 * Our message for one problem the schemas found; `location` (`body`, `query`) names a value with no
 * path. A message the schema carries itself (a TypeID's, a rule's) outranks the general wording.
 */
export function issueMessage(issue: Issue, location: string): string {
  if (issue.message !== undefined) return issue.message;
  const field = fieldName(issue.path, location);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? ValidationMessage.required(field)
        : `must be ${typeNames[issue.expected]}.`;
    case 'invalid_value':
      return issue.input === undefined
        ? ValidationMessage.required(field)
        : ValidationMessage.oneOf(issue.values);
    case 'too_big':
    case 'too_small':
      return issue.unit === 'item' ? `must have ${limitPhrase(issue)}.` : `must be ${limitPhrase(issue)}.`;
    case 'invalid_format':
      if (issue.format === 'date-time') return ValidationMessage.dateTime;
      if (issue.format === 'unicode') return ValidationMessage.wellFormed;
      return `must match the pattern ${issue.pattern}.`;
    case 'unrecognized_keys':
      return issue.keys.map(ValidationMessage.unknownField).join(' ');
    case 'invalid_key':
      return keyMessage(issue.issue);
    case 'custom':
      return issue.message;
  }
}

/** The last segment of the issue's path: the field as the merchant wrote it. */
function fieldName(path: Path, location: string): string {
  const last = path.at(-1);
  return last === undefined ? location : String(last);
}

const typeNames: Record<TypeName, string> = {
  scalar: 'a string, an integer, a boolean or null',
  string: 'a string',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

type SizeIssue = Extract<Issue, { code: 'too_big' | 'too_small' }>;

/** "at most 100 characters", "at least 1 item", "at most 9007199254740991". */
function limitPhrase(issue: SizeIssue): string {
  const words = issue.code === 'too_big' ? 'at most' : 'at least';
  return `${words} ${issue.unit === undefined ? String(issue.limit) : counted(issue.limit, issue.unit)}`;
}

function counted(count: number, unit: string): string {
  return `${count} ${count === 1 ? unit : `${unit}s`}`;
}

/** A record key's problem, listed under the key's own path: "must be a key of at most 40 characters." */
function keyMessage(keyIssue: Issue): string {
  if (keyIssue.code === 'too_big' || keyIssue.code === 'too_small')
    return `must be a key of ${limitPhrase(keyIssue)}.`;
  if (keyIssue.code === 'invalid_format' && keyIssue.message !== undefined) return keyIssue.message;
  return 'must be a valid key.';
}
