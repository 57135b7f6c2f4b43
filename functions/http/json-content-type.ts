import { parse } from 'content-type';

/** The charset a body is read in, and the labels of it a client may send (docs/decisions/request-bodies.md). */
export const acceptedCharset = 'utf-8';
const utf8Labels: readonly string[] = ['utf-8', 'utf8'];

/**
 * Why a body sent with this Content-Type is not read (a 415's message), or undefined when it is:
 * `application/json` with no charset or a UTF-8 one, parsed as RFC 9110 writes media types (the
 * `content-type` package), so a malformed parameter list is refused rather than guessed at; of a
 * charset given twice, the last counts, as the parser reads it.
 */
export function jsonContentTypeProblem(contentType: string | undefined): string | undefined {
  const parsed = parsedOrUndefined(contentType);
  if (parsed?.type !== 'application/json')
    return 'The request body must be sent with Content-Type: application/json.';
  const { charset } = parsed.parameters;
  if (charset === undefined || utf8Labels.includes(charset.toLowerCase())) return undefined;
  return `The request body must be ${acceptedCharset.toUpperCase()}: send Content-Type: application/json with charset=${acceptedCharset}, or with no charset.`;
}

function parsedOrUndefined(contentType: string | undefined) {
  try {
    // An empty last parameter (`application/json;`) is allowed by RFC 9110, not by the parser.
    return contentType === undefined ? undefined : parse(contentType.replace(/;\s*$/, ''));
  } catch {
    return undefined;
  }
}
