import { describe, expect, it } from 'vitest';
import { readLocalSettings } from '../../../lib/local/settings';

describe('readLocalSettings', () => {
  it('has the defaults of DESIGN §5', () => {
    expect(readLocalSettings({})).toEqual({
      PORT: 3000,
      HOST: '127.0.0.1',
      STAGE: 'sandbox',
      WEBHOOK_RETRY_DELAY_SECONDS: 60,
      WEBHOOK_TIMEOUT_MS: 10_000,
      AUTH_CACHE_SECONDS: 60,
      PUBLIC_RATE_LIMIT_PER_MINUTE: 100,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
    });
  });

  it('reads every setting from the environment', () => {
    const settings = readLocalSettings({
      PORT: '8080',
      HOST: '0.0.0.0',
      STAGE: 'production',
      WEBHOOK_RETRY_DELAY_SECONDS: '2',
      WEBHOOK_TIMEOUT_MS: '500',
      AUTH_CACHE_SECONDS: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    expect(settings).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      STAGE: 'production',
      WEBHOOK_RETRY_DELAY_SECONDS: 2,
      WEBHOOK_TIMEOUT_MS: 500,
      AUTH_CACHE_SECONDS: 0,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
    });
  });

  it('names the variable that is wrong in one line', () => {
    expect(() => readLocalSettings({ STAGE: 'staging' })).toThrow(/^Invalid local runtime settings: STAGE: /);
    expect(() => readLocalSettings({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
