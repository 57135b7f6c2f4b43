/** Prefix of every endpoint signing secret, shared with the Standard Webhooks convention. */
export const SigningSecretPrefix = 'whsec_';

const secretByteLength = 32;

/**
 * `whsec_` + 32 bytes in standard base64 with padding (docs/decisions/endpoint-management.md): 43 characters
 * and one `=`. 32 bytes fill only 4 bits of the last character's 6, so it is one of 16 values; anything else
 * would not decode back to the same bytes.
 */
const signingSecretPattern = /^whsec_[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** A new endpoint signing secret from injected randomness (32 bytes). */
export function newSigningSecret(randomBytes: (size: number) => Uint8Array): string {
  const bytes = randomBytes(secretByteLength);
  if (bytes.length !== secretByteLength)
    throw new RangeError(`randomBytes returned ${bytes.length} bytes, expected ${secretByteLength}`);
  return `${SigningSecretPrefix}${Buffer.from(bytes).toString('base64')}`;
}

/** True when `value` has exactly the form `newSigningSecret` produces. */
export function isSigningSecret(value: unknown): value is string {
  return typeof value === 'string' && signingSecretPattern.test(value);
}
