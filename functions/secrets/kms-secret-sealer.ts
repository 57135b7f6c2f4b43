import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import type { SealContext, SecretSealer } from './secret-sealer';

/** Plain KMS Encrypt/Decrypt: secrets are far under the 4 KB limit, so no data keys are needed. */
export class KmsSecretSealer implements SecretSealer {
  readonly #client: KMSClient;
  readonly #keyId: string;

  constructor(keyId: string, client = new KMSClient({})) {
    this.#keyId = keyId;
    this.#client = client;
  }

  async seal(plaintext: string, context: SealContext): Promise<string> {
    const { CiphertextBlob } = await this.#client.send(
      new EncryptCommand({
        KeyId: this.#keyId,
        Plaintext: Buffer.from(plaintext, 'utf8'),
        EncryptionContext: { ...context },
      }),
    );
    if (CiphertextBlob === undefined) throw new Error('KMS returned no ciphertext');
    return `kms:${Buffer.from(CiphertextBlob).toString('base64')}`;
  }

  async open(sealed: string, context: SealContext): Promise<string> {
    if (!sealed.startsWith('kms:')) throw new Error('Not a KMS-sealed secret');
    const { Plaintext } = await this.#client.send(
      new DecryptCommand({
        KeyId: this.#keyId,
        CiphertextBlob: Buffer.from(sealed.slice('kms:'.length), 'base64'),
        EncryptionContext: { ...context },
      }),
    );
    if (Plaintext === undefined) throw new Error('KMS returned no plaintext');
    return Buffer.from(Plaintext).toString('utf8');
  }
}
