import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ProcessorUnavailableError } from '../payment-processor';
import type { SecretValueReader } from './stripe-secrets';

let client: SecretsManagerClient | undefined;

/** One Secrets Manager client per process, made on first use. */
function sharedClient(): SecretsManagerClient {
  client ??= new SecretsManagerClient({});
  return client;
}

/**
 * Reads a secret's text by its name through Secrets Manager's GetSecretValue: how a deployed stage's
 * functions read the platform's Stripe secrets, whose names the stack gives them (docs/processor.md).
 * A secret without text is no configured processor: 503, naming the secret, never its value.
 */
export function secretsManagerReader(secrets?: SecretsManagerClient): SecretValueReader {
  return async (secretName) => {
    // Made at the first read, not with the reader: a runtime given the values never makes one.
    const reader = secrets ?? sharedClient();
    const { SecretString } = await reader.send(new GetSecretValueCommand({ SecretId: secretName }));
    if (SecretString === undefined || SecretString.trim() === '') {
      throw new ProcessorUnavailableError(`The secret ${secretName} holds no text.`);
    }
    return SecretString;
  };
}
