/** A customer as the API returns it (docs/decisions/customers-and-prices.md). */
export interface Customer {
  readonly customerId: string;
  readonly merchantId: string;
  readonly name: string;
  readonly email: string;
  readonly createdAt: string;
}

/**
 * The email is kept exactly as given: the interface's rule only refuses malformed addresses, and a
 * local part may be case-sensitive (RFC 5321 §2.4), so the API never rewrites what the merchant sent.
 */
export function newCustomer(input: {
  customerId: string;
  merchantId: string;
  name: string;
  email: string;
  createdAt: string;
}): Customer {
  return {
    customerId: input.customerId,
    merchantId: input.merchantId,
    name: input.name,
    email: input.email,
    createdAt: input.createdAt,
  };
}
