import { functionEnvironment } from '../config';
import { KmsSecretSealer } from './kms-secret-sealer';
import { LocalSecretSealer } from './local-secret-sealer';
import type { SecretSealer } from './secret-sealer';

let sealer: SecretSealer | undefined;

/** KMS when the stack names a key; the local key when the local runtime provides one. */
export function secretSealer(): SecretSealer {
  if (sealer !== undefined) return sealer;
  const { SECRETS_KEY_ID, LOCAL_SECRETS_KEY } = functionEnvironment();
  if (SECRETS_KEY_ID !== undefined) sealer = new KmsSecretSealer(SECRETS_KEY_ID);
  else if (LOCAL_SECRETS_KEY !== undefined)
    sealer = new LocalSecretSealer(Buffer.from(LOCAL_SECRETS_KEY, 'base64'));
  else throw new Error('Neither SECRETS_KEY_ID nor LOCAL_SECRETS_KEY is set');
  return sealer;
}

export function resetSecretSealer(): void {
  sealer = undefined;
}
