import { randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KmsSecretSealer } from '../../../functions/secrets/kms-secret-sealer';
import { LocalSecretSealer } from '../../../functions/secrets/local-secret-sealer';

const context = { merchantId: 'mer_1', webhookEndpointId: 'whk_1' };
const secret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==';

describe('LocalSecretSealer', () => {
  const sealer = new LocalSecretSealer(randomBytes(32));

  it('opens what it sealed, and the sealed form does not contain the secret', async () => {
    const sealed = await sealer.seal(secret, context);
    expect(sealed).not.toContain(secret.slice(6));
    expect(await sealer.open(sealed, { webhookEndpointId: 'whk_1', merchantId: 'mer_1' })).toBe(secret);
  });

  it('seals the same secret differently every time', async () => {
    expect(await sealer.seal(secret, context)).not.toBe(await sealer.seal(secret, context));
  });

  it('refuses another context, another key and a changed byte', async () => {
    const sealed = await sealer.seal(secret, context);
    await expect(sealer.open(sealed, { ...context, webhookEndpointId: 'whk_2' })).rejects.toThrow();
    await expect(new LocalSecretSealer(randomBytes(32)).open(sealed, context)).rejects.toThrow();
    const bytes = Buffer.from(sealed.slice('local:'.length), 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    await expect(sealer.open(`local:${bytes.toString('base64')}`, context)).rejects.toThrow();
  });
});

describe('KmsSecretSealer', () => {
  it('encrypts and decrypts under the stack key with the endpoint as encryption context', async () => {
    const kms = mockClient(KMSClient);
    onTestFinished(() => {
      kms.restore();
    });
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Buffer.from('ciphertext') });
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from(secret) });
    const sealer = new KmsSecretSealer('arn:aws:kms:eu-west-1:111122223333:key/k', new KMSClient({}));

    const sealed = await sealer.seal(secret, context);
    expect(sealed).toBe(`kms:${Buffer.from('ciphertext').toString('base64')}`);
    expect(await sealer.open(sealed, context)).toBe(secret);

    const encrypt = kms.commandCalls(EncryptCommand)[0]?.args[0].input;
    expect(encrypt?.KeyId).toBe('arn:aws:kms:eu-west-1:111122223333:key/k');
    expect(encrypt?.EncryptionContext).toEqual(context);
    expect(Buffer.from(encrypt?.Plaintext ?? []).toString()).toBe(secret);
    const decrypt = kms.commandCalls(DecryptCommand)[0]?.args[0].input;
    expect(decrypt?.EncryptionContext).toEqual(context);
    expect(Buffer.from(decrypt?.CiphertextBlob ?? []).toString()).toBe('ciphertext');
  });

  it('refuses a value it did not seal', async () => {
    const sealer = new KmsSecretSealer('k', new KMSClient({}));
    await expect(sealer.open('local:abc', context)).rejects.toThrow(/Not a KMS-sealed secret/);
  });
});
