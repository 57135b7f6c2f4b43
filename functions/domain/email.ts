/**
 * The interface's email rule, exactly as worded (docs/decisions/customers-and-prices.md): a local part
 * without a leading dot or consecutive dots, and a domain whose TLD has 2 or more letters. Local
 * parts use RFC 5322's atom characters; domain labels are letters, digits and inner hyphens. Written
 * without lookaheads, since the OpenAPI document publishes it for clients' validators and generators.
 */
export const emailPattern =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-](?:\.?[A-Za-z0-9!#$%&'*+/=?^_`{|}~-])*\.?@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;

/** RFC 5321 limits the whole address to 254 characters. */
export const maxEmailLength = 254;

export function isValidEmail(value: string): boolean {
  return value.length <= maxEmailLength && emailPattern.test(value);
}
