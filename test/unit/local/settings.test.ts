import { describe, expect, it } from 'vitest';
import { FunctionSettings } from '../../../functions/config';
import { readSettings, SettingError } from '../../../functions/settings/setting';
import { readLocalSettings } from '../../../tools/local/settings';

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
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
      MAIL_INBOX_PORT: undefined,
      EMAILS_PER_MERCHANT_PER_HOUR: 100,
      STRIPE_SECRET_KEY: undefined,
      STRIPE_WEBHOOK_SECRET: undefined,
      STRIPE_API_BASE_URL: undefined,
      STRIPE_TIMEOUT_MS: 4000,
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
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: 'whsec_local',
      STRIPE_API_BASE_URL: 'http://127.0.0.1:12111',
      STRIPE_TIMEOUT_MS: '250',
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
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: 'whsec_local',
      STRIPE_API_BASE_URL: 'http://127.0.0.1:12111',
      STRIPE_TIMEOUT_MS: 250,
      LOCAL_STATE_DIR: '/tmp/state',
    });
  });

  it('accepts loopback webhook URLs unless told 0, while the functions of a stage refuse them unless told 1', () => {
    expect(readLocalSettings({}).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(readLocalSettings({ WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(
      false,
    );
    expect(readLocalSettings({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(
      false,
    );
    const stage = { TABLE_NAME: 't', STAGE: 'production' };
    expect(readSettings(stage, FunctionSettings).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
  });

  it.each([
    ['STAGE', 'staging', 'sandbox or production'],
    ['PORT', 'eighty', 'a whole number from 0 to 65535'],
    ['WEBHOOK_RETRY_DELAY_SECONDS', '901', 'a whole number from 0 to 900'],
    ['WEBHOOK_LEASE_MARGIN_MS', '500', 'a whole number from 1000 to 60000'],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'yes', '1, 0, true or false'],
    ['STRIPE_API_BASE_URL', 'localhost:12111', 'an http:// or https:// URL'],
  ])('names %s and what it accepts in one line', (variable, value, accepts) => {
    expect(() => readLocalSettings({ [variable]: value })).toThrow(SettingError);
    expect(() => readLocalSettings({ [variable]: value })).toThrow(
      `${variable}="${value}" is not accepted: it must be ${accepts}.`,
    );
  });
});

describe('the Stripe secrets of the local runtime', () => {
  it.each([
    ['STRIPE_SECRET_KEY', 'pk_live_notasecretkey', 'a Stripe secret key, sk_… or rk_…'],
    ['STRIPE_WEBHOOK_SECRET', 'whsec_ has space', 'a Stripe webhook signing secret, whsec_…'],
  ])('refuses %s without repeating the value', (variable, value, accepts) => {
    expect(() => readLocalSettings({ [variable]: value })).toThrow(
      `${variable} is not accepted: it must be ${accepts}.`,
    );
    expect(() => readLocalSettings({ [variable]: value })).not.toThrow(value);
  });
});
