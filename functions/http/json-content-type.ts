/** The charset a body is read in, and the labels of it a client may send (docs/decisions/request-bodies.md). */
export const acceptedCharset = 'utf-8';
const utf8Labels: readonly string[] = ['utf-8', 'utf8'];

const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"(?:[^"\\\\]|\\\\.)*"';
/** `application/json` and what follows it: nothing, or `;` and the parameters. */
const jsonMediaType = /^\s*application\/json\s*(;.*)?$/is;
/** One `; name=value` (RFC 9110 §5.6.6); an empty one (`;;`, a trailing `;`) is allowed too. */
const parameter = new RegExp(`^\\s*;\\s*(?:(${token})\\s*=\\s*(${token}|${quoted})\\s*)?`);

/** Why a body sent with this Content-Type is not read (a 415's message), or undefined when it is. */
export function jsonContentTypeProblem(contentType: string | undefined): string | undefined {
  const match = jsonMediaType.exec(contentType ?? '');
  const charsets = match === null ? undefined : charsetsOf(match[1] ?? '');
  if (charsets === undefined) return 'The request body must be sent with Content-Type: application/json.';
  if (charsets.every((charset) => utf8Labels.includes(charset.toLowerCase()))) return undefined;
  return `The request body must be ${acceptedCharset.toUpperCase()}: send Content-Type: application/json with charset=${acceptedCharset}, or with no charset.`;
}

/** Every `charset` parameter's value, unquoted; undefined when the parameters are not well-formed. */
function charsetsOf(parameters: string): string[] | undefined {
  const charsets: string[] = [];
  let rest = parameters;
  while (rest.trim() !== '') {
    const match = parameter.exec(rest);
    if (match === null || match[0] === '') return undefined;
    const [whole, name, value] = match;
    if (name?.toLowerCase() === 'charset' && value !== undefined) charsets.push(unquoted(value));
    rest = rest.slice(whole.length);
  }
  return charsets;
}

function unquoted(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}
