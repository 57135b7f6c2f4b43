import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealContext, SecretSealer } from './secret-sealer';

/**
 * The local runtime's stand-in for KMS: AES-256-GCM under a key the runtime keeps in its state
 * folder, with the context as additional authenticated data.
 */
export class LocalSecretSealer implements SecretSealer {
  readonly #key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new Error('The local secrets key must be 32 bytes');
    this.#key = Buffer.from(key);
  }

  async seal(plaintext: string, context: SealContext): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(contextBytes(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `local:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  async open(sealed: string, context: SealContext): Promise<string> {
    if (!sealed.startsWith('local:')) throw new Error('Not a locally sealed secret');
    const bytes = Buffer.from(sealed.slice('local:'.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, 12));
    decipher.setAAD(contextBytes(context));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** Key order must not matter, as with KMS encryption contexts. */
function contextBytes(context: SealContext): Buffer {
  const entries = Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify(entries), 'utf8');
}
