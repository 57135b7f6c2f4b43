/**
 * Encrypts webhook signing secrets at rest (docs/decisions/endpoint-management.md). AWS seals with the
 * stack's KMS key; the local runtime with an AES-256-GCM key of its own. The context (merchant and endpoint)
 * is bound into the ciphertext, so a sealed secret moved to another endpoint's item does not open.
 */
export interface SecretSealer {
  seal(plaintext: string, context: SealContext): Promise<string>;
  open(sealed: string, context: SealContext): Promise<string>;
}

export type SealContext = Readonly<Record<string, string>>;
