import { describe, expect, it } from 'vitest';
import { SettingError } from '../../../functions/settings/setting';
import { readLocalSettings } from '../../../lib/local/settings';

describe('readLocalSettings', () => {
  it('has the documented defaults', () => {
    expect(readLocalSettings({})).toEqual({
      PORT: 3000,
      HOST: '127.0.0.1',
      STAGE: 'sandbox',
      WEBHOOK_RETRY_DELAY_SECONDS: 60,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_LEASE_MARGIN_MS: 20_000,
      AUTH_CACHE_SECONDS: 60,
      PUBLIC_RATE_LIMIT_PER_MINUTE: 100,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      MAIL_INBOX_PORT: undefined,
      EMAILS_PER_MERCHANT_PER_HOUR: 100,
      LOCAL_STATE_DIR: undefined,
    });
  });

  it('reads every setting from the environment', () => {
    const settings = readLocalSettings({
      PORT: '8080',
      HOST: '0.0.0.0',
      STAGE: 'production',
      WEBHOOK_RETRY_DELAY_SECONDS: '2',
      WEBHOOK_TIMEOUT_MS: '500',
      WEBHOOK_LEASE_MARGIN_MS: '1500',
      AUTH_CACHE_SECONDS: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '5',
      MAIL_INBOX_PORT: '9005',
      EMAILS_PER_MERCHANT_PER_HOUR: '7',
      LOCAL_STATE_DIR: '/tmp/state',
    });
    expect(settings).toEqual({
      PORT: 8080,
      HOST: '0.0.0.0',
      STAGE: 'production',
      WEBHOOK_RETRY_DELAY_SECONDS: 2,
      WEBHOOK_TIMEOUT_MS: 500,
      WEBHOOK_LEASE_MARGIN_MS: 1500,
      AUTH_CACHE_SECONDS: 0,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
      PUBLIC_RATE_LIMIT_PER_MINUTE: 5,
      MAIL_INBOX_PORT: 9005,
      EMAILS_PER_MERCHANT_PER_HOUR: 7,
      LOCAL_STATE_DIR: '/tmp/state',
    });
  });

  it.each([
    ['STAGE', 'staging', 'sandbox or production'],
    ['PORT', 'eighty', 'a whole number from 0 to 65535'],
    ['WEBHOOK_RETRY_DELAY_SECONDS', '901', 'a whole number from 0 to 900'],
    ['WEBHOOK_LEASE_MARGIN_MS', '500', 'a whole number from 1000 to 60000'],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'yes', '1, 0, true or false'],
  ])('names %s and what it accepts in one line', (variable, value, accepts) => {
    expect(() => readLocalSettings({ [variable]: value })).toThrow(SettingError);
    expect(() => readLocalSettings({ [variable]: value })).toThrow(
      `${variable}="${value}" is not accepted: it must be ${accepts}.`,
    );
  });
});
