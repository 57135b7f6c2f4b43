import { describe, expect, it } from 'vitest';
import { Stage } from '../../functions/config';
import {
  committedStageConfig,
  environmentOf,
  parseStage,
  parseStageConfig,
  StageConfigError,
  type StageConfigFile,
  stageProcessor,
} from '../../lib/stage-config';

const pinned = {
  env: { account: '123456789012', region: 'eu-west-1' },
  alarmSubscribers: { email: ['oncall@example.com'] },
  throttle: { rateLimit: 100, burstLimit: 200 },
  publicRouteThrottle: { rateLimit: 20, burstLimit: 40 },
  traceSampling: { reservoirPerSecond: 1, fixedRate: 0.05 },
  logRetentionDays: 30,
} satisfies StageConfigFile;

const certificateArn = (region: string, account = '123456789012') =>
  `arn:aws:acm:${region}:${account}:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789`;

/** The one-line refusal of `exported` as the `stage` file `f.ts`. */
function refusal(stage: Stage, exported: unknown): string {
  try {
    parseStageConfig(stage, exported, 'f.ts');
  } catch (error) {
    expect(error).toBeInstanceOf(StageConfigError);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
}

describe('parseStage', () => {
  it('accepts sandbox and production', () => {
    expect(parseStage('sandbox')).toBe('sandbox');
    expect(parseStage('production')).toBe('production');
  });

  it('rejects a missing stage with a message naming the valid stages', () => {
    expect(() => parseStage(undefined)).toThrow(/sandbox, production/);
  });

  it('rejects an unknown stage', () => {
    expect(() => parseStage('staging')).toThrow(/"staging"/);
  });
});

describe('committedStageConfig', () => {
  it.each(Object.values(Stage))('accepts the committed %s file', (stage) => {
    expect(committedStageConfig(stage).env?.account).toMatch(/^\d{12}$/);
  });

  it.each(Object.values(Stage))('sets the %s file’s X-Ray sampling explicitly', (stage) => {
    const { reservoirPerSecond, fixedRate } = committedStageConfig(stage).traceSampling;
    expect(reservoirPerSecond).toBeGreaterThanOrEqual(0);
    expect(fixedRate).toBeGreaterThan(0);
    expect(fixedRate).toBeLessThanOrEqual(0.05);
  });

  it('has production name at least one subscriber', () => {
    const { email, https } = committedStageConfig('production').alarmSubscribers;
    expect(email.length + https.length).toBeGreaterThan(0);
  });
});

describe('parseStageConfig', () => {
  it('accepts a sandbox without env or subscribers, so it deploys where the credentials point', () => {
    const { env: _env, alarmSubscribers: _subscribers, ...unpinned } = pinned;
    const config = parseStageConfig('sandbox', unpinned, 'f.ts');
    expect(config.alarmSubscribers).toEqual({ email: [], https: [] });
    expect(environmentOf(config)).toBeUndefined();
  });

  it('passes only the pinned parts of env to the stack', () => {
    const config = parseStageConfig('sandbox', { ...pinned, env: { region: 'us-east-2' } }, 'f.ts');
    expect(environmentOf(config)).toEqual({ region: 'us-east-2' });
  });

  it('refuses production without an account, a region and a subscriber, naming each field', () => {
    const { env: _env, alarmSubscribers: _subscribers, ...unpinned } = pinned;
    expect(refusal('production', unpinned)).toBe(
      'f.ts: env.account is required for production: the 12-digit AWS account it deploys to; ' +
        'env.region is required for production: the region it deploys to, like eu-west-1; ' +
        'alarmSubscribers needs an email or https subscriber for production, or no one hears its alarms',
    );
  });

  it('accepts production with only an HTTPS subscriber', () => {
    const config = parseStageConfig(
      'production',
      { ...pinned, alarmSubscribers: { https: ['https://pager.example.com/hook?key=k'] } },
      'f.ts',
    );
    expect(config.alarmSubscribers).toEqual({ email: [], https: ['https://pager.example.com/hook?key=k'] });
  });

  it.each([
    [{ env: { account: '12345678901', region: 'eu-west-1' } }, /^f\.ts: env\.account must be a 12-digit/],
    [
      { env: { account: '123456789012', region: 'Europe' } },
      /^f\.ts: env\.region must be an AWS region.*"Europe"/,
    ],
    [{ env: { account: '123456789012', region: 'eu-west' } }, /^f\.ts: env\.region must be an AWS region/],
    [{ alarmSubscribers: { email: ['oncall'] } }, /^f\.ts: alarmSubscribers\.email\[0\] must be an e-mail/],
    [
      { throttle: { rateLimit: 0, burstLimit: 200 } },
      /^f\.ts: throttle\.rateLimit must be a whole number above 0/,
    ],
    [
      { publicRouteThrottle: { rateLimit: 20, burstLimit: 200 } },
      /publicRouteThrottle\.burstLimit must be below/,
    ],
    [
      { alarmSubscribers: { email: ['a@example.com', 'b@example.com', 'a@example.com'] } },
      /^f\.ts: alarmSubscribers\.email\[2\] repeats an earlier subscriber/,
    ],
    [{ logRetentionDays: 31 }, /^f\.ts: logRetentionDays must be one of .*30, 60/],
    [{ logRetentionDays: 9999 }, /^f\.ts: logRetentionDays must be one of/],
    [{ logRetentionDays: undefined }, /^f\.ts: logRetentionDays is required$/],
    [{ throttle: '100' }, /^f\.ts: throttle must be an object$/],
    [
      { throttle: { rateLimit: 1.5, burstLimit: 200 } },
      /^f\.ts: throttle\.rateLimit must be a whole number$/,
    ],
    [{ alarmEmail: 'oncall@example.com' }, /^f\.ts: alarmEmail is not a field of a stage file$/],
    [{ traceSampling: undefined }, /^f\.ts: traceSampling is required$/],
    [
      { traceSampling: { reservoirPerSecond: 1, fixedRate: 5 } },
      /^f\.ts: traceSampling\.fixedRate must be a share from 0 to 1, like 0\.05 for 5 %$/,
    ],
    [
      { traceSampling: { reservoirPerSecond: 1, fixedRate: -0.1 } },
      /^f\.ts: traceSampling\.fixedRate must be a share from 0 to 1/,
    ],
    [
      { traceSampling: { reservoirPerSecond: -1, fixedRate: 0.05 } },
      /^f\.ts: traceSampling\.reservoirPerSecond must be a whole number of requests a second, 0 or more$/,
    ],
    [
      { traceSampling: { reservoirPerSecond: 0.5, fixedRate: 0.05 } },
      /^f\.ts: traceSampling\.reservoirPerSecond must be a whole number$/,
    ],
    [{ traceSampling: { fixedRate: 0.05 } }, /^f\.ts: traceSampling\.reservoirPerSecond is required$/],
  ])('refuses %j in one line naming the field', (change, message) => {
    const line = refusal('production', { ...pinned, ...change });
    expect(line).toMatch(message);
    expect(line).not.toContain('\n');
  });

  it.each(['http://pager.example.com/hook', 'pager.example.com/hook', 'mailto:oncall@example.com'])(
    'refuses the subscriber %s without repeating it, since a pager URL can hold its key',
    (url) => {
      const line = refusal('production', { ...pinned, alarmSubscribers: { https: [url] } });
      expect(line).toBe(
        'f.ts: alarmSubscribers.https[0] must be an https:// URL, like the CloudWatch integration URL of a pager',
      );
    },
  );

  it('accepts a custom domain with a certificate of the stack’s account and region', () => {
    const customDomain = { domainName: 'api.example.com', certificateArn: certificateArn('eu-west-1') };
    expect(parseStageConfig('production', { ...pinned, customDomain }, 'f.ts').customDomain).toEqual(
      customDomain,
    );
  });

  it.each([
    [
      { domainName: 'api.example.com', certificateArn: certificateArn('us-east-1') },
      "customDomain.certificateArn must be a certificate in the stack's region eu-west-1 (got us-east-1)",
    ],
    [
      { domainName: 'api.example.com', certificateArn: certificateArn('eu-west-1', '999999999999') },
      "customDomain.certificateArn must be a certificate of the stack's account 123456789012 (got 999999999999)",
    ],
    [
      { domainName: 'api.example.com', certificateArn: 'arn:aws:iam::123456789012:server-certificate/x' },
      'customDomain.certificateArn must be an ACM certificate ARN',
    ],
    [
      { domainName: 'API.example.com', certificateArn: certificateArn('eu-west-1') },
      'customDomain.domainName must be a lower-case host name',
    ],
    [
      { domainName: 'api.example.com', certificateArn: certificateArn('eu-west-1'), basePath: 'v1/x' },
      'customDomain.basePath must be one path segment',
    ],
  ])('refuses the custom domain %j', (customDomain, message) => {
    expect(refusal('production', { ...pinned, customDomain })).toContain(`f.ts: ${message}`);
  });

  it('refuses a custom domain on a stage whose region is not pinned', () => {
    const customDomain = { domainName: 'api.example.com', certificateArn: certificateArn('eu-west-1') };
    expect(refusal('sandbox', { ...pinned, env: { account: '123456789012' }, customDomain })).toBe(
      'f.ts: env.region is required with a customDomain',
    );
  });
});

describe('the email section', () => {
  const sending = {
    delivery: 'ses',
    fromAddress: 'invoices@payments.example.com',
    identity: { domain: 'payments.example.com' },
  } as const;

  it('captures, sending none, when a stage file has no email section', () => {
    expect(parseStageConfig('sandbox', pinned, 'f.ts').email).toMatchObject({
      delivery: 'capture',
      emailsPerMerchantPerHour: 100,
    });
  });

  it('keeps a sending production section with its identity and the default ceiling', () => {
    expect(parseStageConfig('production', { ...pinned, email: sending }, 'f.ts').email).toEqual({
      ...sending,
      emailsPerMerchantPerHour: 100,
    });
  });

  it('accepts an address identity that is the From address', () => {
    const email = { ...sending, identity: { emailAddress: sending.fromAddress } };
    expect(parseStageConfig('production', { ...pinned, email }, 'f.ts').email.identity).toEqual({
      emailAddress: sending.fromAddress,
    });
  });

  it.each([
    [
      'sandbox',
      { email: sending },
      /^f\.ts: email\.delivery must be "capture" for sandbox: a deployed sandbox never emails anyone$/,
    ],
    [
      'production',
      { email: { delivery: 'ses', fromAddress: sending.fromAddress } },
      /^f\.ts: email\.identity is required with delivery "ses"/,
    ],
    [
      'production',
      { email: { ...sending, fromAddress: 'invoices@other.example.com' } },
      /^f\.ts: email\.fromAddress must be an address at payments\.example\.com, the identity SES lets the stage send from/,
    ],
    [
      'production',
      {
        email: {
          ...sending,
          identity: { domain: 'payments.example.com', emailAddress: sending.fromAddress },
        },
      },
      /^f\.ts: email\.identity must name exactly one of domain or emailAddress$/,
    ],
    ['production', { email: { ...sending, delivery: 'smtp' } }, /^f\.ts: email\.delivery must be "ses"/],
    [
      'production',
      { email: { ...sending, emailsPerMerchantPerHour: 0 } },
      /^f\.ts: email\.emailsPerMerchantPerHour must be a whole number from 1 to 100000$/,
    ],
    [
      'production',
      { email: { ...sending, bcc: 'x@example.com' } },
      /email\.bcc is not a field of a stage file/,
    ],
  ] as const)('refuses in %s the email section %j', (stage, fields, message) => {
    expect(refusal(stage, { ...pinned, ...fields })).toMatch(message);
  });

  it('has the committed sandbox capture and production send', () => {
    expect(committedStageConfig('sandbox').email.delivery).toBe('capture');
    expect(committedStageConfig('sandbox').email.identity).toBeUndefined();
    expect(committedStageConfig('production').email.delivery).toBe('ses');
  });
});

describe('processor section', () => {
  const stripe = {
    kind: 'stripe',
    secretKeySecretName: 'payments/stripe-secret-key',
    webhookSigningSecretName: 'payments/stripe-webhook-secret',
  } as const;

  it('takes payments from the simulator when a sandbox file has no processor section', () => {
    expect(stageProcessor('sandbox', parseStageConfig('sandbox', pinned, 'f.ts'))).toEqual({
      kind: 'simulator',
    });
  });

  it('leaves production without a processor (its pay routes answer 503) when the section is absent', () => {
    expect(stageProcessor('production', parseStageConfig('production', pinned, 'f.ts'))).toBeUndefined();
  });

  it('keeps the names of the two Stripe secrets of production', () => {
    expect(parseStageConfig('production', { ...pinned, processor: stripe }, 'f.ts').processor).toEqual(
      stripe,
    );
  });

  it('has the committed sandbox on the simulator and production on Stripe', () => {
    expect(committedStageConfig('sandbox').processor?.kind).toBe('simulator');
    expect(committedStageConfig('production').processor).toMatchObject({ kind: 'stripe' });
  });

  it('refuses the simulator in production and Stripe in the sandbox, in one line', () => {
    expect(refusal('production', { ...pinned, processor: { kind: 'simulator' } })).toBe(
      'f.ts: processor.kind must be "stripe" for production',
    );
    expect(refusal('sandbox', { ...pinned, processor: stripe })).toBe(
      'f.ts: processor.kind must be "simulator" for sandbox',
    );
  });

  it('names each missing secret and refuses an unknown kind or field', () => {
    expect(refusal('production', { ...pinned, processor: { kind: 'stripe' } })).toBe(
      'f.ts: processor.secretKeySecretName is required; processor.webhookSigningSecretName is required',
    );
    expect(refusal('production', { ...pinned, processor: { kind: 'paypal' } })).toBe(
      'f.ts: processor.kind must be "simulator" (the sandbox\'s test cards) or "stripe" (Stripe Connect)',
    );
    expect(
      refusal('sandbox', { ...pinned, processor: { kind: 'simulator', secretKeySecretName: 'x' } }),
    ).toBe('f.ts: processor.secretKeySecretName is not a field of a stage file');
  });

  it('refuses a secret value in place of a name without repeating it', () => {
    const pasted = {
      ...stripe,
      secretKeySecretName: 'sk_live_51Hx0000',
      webhookSigningSecretName: 'whsec_abc',
    };
    const message = refusal('production', { ...pinned, processor: pasted });
    expect(message).toBe(
      'f.ts: processor.secretKeySecretName must be the name of the Secrets Manager secret that holds the value, ' +
        'never the value itself; processor.webhookSigningSecretName must be the name of the Secrets Manager ' +
        'secret that holds the value, never the value itself',
    );
    expect(message).not.toMatch(/sk_live|whsec_abc/);
  });

  it('refuses a name Secrets Manager would not take', () => {
    expect(
      refusal('production', { ...pinned, processor: { ...stripe, secretKeySecretName: 'has space' } }),
    ).toBe(
      'f.ts: processor.secretKeySecretName must be the name of an AWS Secrets Manager secret ' +
        '(letters, digits and /_+=.@-, at most 512)',
    );
  });
});
