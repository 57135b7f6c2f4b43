import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { z } from 'zod';
import { EmailDelivery, Stage } from '../functions/config';
import { isValidEmail } from '../functions/domain/email';
import production from '../stages/production';
import sandbox from '../stages/sandbox';

/** A stage file that cannot be used: said in one line naming the file and the field. */
export class StageConfigError extends Error {
  override name = 'StageConfigError';
}

/** The CDK context key of another stage file than `stages/<stage>.ts` (`-c stageFile=…`). */
export const stageFileContextKey = 'stageFile';

/** Reads the `stage` context value (`cdk synth -c stage=sandbox`); anything else is an error. */
export function parseStage(value: unknown): Stage {
  const stages = Object.values(Stage);
  if (typeof value === 'string' && (stages as readonly string[]).includes(value)) {
    return value as Stage;
  }
  const got = value === undefined ? 'nothing' : JSON.stringify(value);
  throw new Error(`Context "stage" must be one of ${stages.join(', ')} (got ${got}); pass -c stage=sandbox`);
}

/** Stages whose file must pin the account and region and name at least one alarm subscriber. */
const pinnedStages: ReadonlySet<Stage> = new Set<Stage>(['production']);

/** CloudWatch Logs' retention periods in days, without "never expire". */
const retentionDays = Object.values(RetentionDays).filter(
  (days): days is number => typeof days === 'number' && days !== RetentionDays.INFINITE,
);

export const accountId = z
  .string()
  .regex(/^\d{12}$/, { error: 'must be a 12-digit AWS account id, like 111111111111' });
export const region = z
  .string()
  .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, { error: 'must be an AWS region, like eu-west-1' });

const email = z
  .string()
  .refine(isValidEmail, { error: 'must be an e-mail address, like oncall@example.com' });

/** The value is not echoed: a pager's URL often carries its integration key. */
export const httpsUrl = z.string().refine((value) => URL.parse(value)?.protocol === 'https:', {
  error: 'must be an https:// URL, like the CloudWatch integration URL of a pager',
});

const requestCount = z.int().positive({ error: 'must be a whole number above 0' });

const throttle = z.strictObject({
  /** Requests per second, steady. */
  rateLimit: requestCount,
  /** Requests that may arrive at once (the token bucket's size). */
  burstLimit: requestCount,
});

/**
 * The X-Ray sampling rule of the stage's API: API Gateway traces the first `reservoirPerSecond`
 * requests of each second, then `fixedRate` of the rest, and every function behind it follows that
 * decision (docs/operations.md#tracing).
 */
const traceSampling = z.strictObject({
  /** Requests traced each second before the rate applies, across the whole stage. */
  reservoirPerSecond: z.int({ error: 'must be a whole number' }).nonnegative({
    error: 'must be a whole number of requests a second, 0 or more',
  }),
  /** Share of the requests past the reservoir that are traced: 0.05 is 5 %. */
  fixedRate: z
    .number()
    .min(0, { error: 'must be a share from 0 to 1, like 0.05 for 5 %' })
    .max(1, { error: 'must be a share from 0 to 1, like 0.05 for 5 %' }),
});

const certificateArnPattern = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):(\d{12}):certificate\/[A-Za-z0-9-]+$/;

const customDomain = z.strictObject({
  /** The name merchants call, like `api.payments.example.com`; its DNS record is yours to add. */
  domainName: z
    .string()
    .max(253)
    .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
      error: 'must be a lower-case host name, like api.payments.example.com',
    }),
  /** An ACM certificate for `domainName`, in the stack's own account and region. */
  certificateArn: z.string().regex(certificateArnPattern, {
    error: 'must be an ACM certificate ARN, like arn:aws:acm:eu-west-1:111111111111:certificate/…',
  }),
  /** Serves the API under `https://<domainName>/<basePath>`; the API is at the root without it. */
  basePath: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, { error: 'must be one path segment of letters, digits, ".", "_" or "-"' })
    .optional(),
});

const hostName = z
  .string()
  .max(253)
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
    error: 'must be a lower-case host name, like payments.example.com',
  });

/**
 * The SES identity a stage sends from: a domain, signed with Easy DKIM (its three CNAME records are
 * stack outputs, for the domain's DNS), or for a small stage one address, which SES verifies by a mail
 * to it.
 */
const emailIdentity = z.strictObject({ domain: hostName.optional(), emailAddress: email.optional() });

/** What SES's sending quota for new accounts allows with room: 100 emails an hour per merchant. */
export const defaultEmailsPerMerchantPerHour = 100;

/**
 * The customer emails of a stage (docs/decisions/email-infrastructure.md): how they are delivered,
 * the address they come from and its SES identity, and the per-merchant ceiling.
 */
const emailSection = z.strictObject({
  /** `ses` sends through SES; `capture` renders and records each email and sends none. */
  delivery: z.enum([EmailDelivery.ses, EmailDelivery.capture], {
    error: 'must be "ses" (send through SES) or "capture" (record, never send)',
  }),
  /** The From address of every email; it must belong to `identity`. */
  fromAddress: email,
  /** Required with `delivery: 'ses'`; the stack creates it and sends from it only. */
  identity: emailIdentity.optional(),
  /** Emails one merchant may send in an hour; past it the rest wait in the queue. */
  emailsPerMerchantPerHour: z
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be a whole number from 1 to 100000' })
    .max(100_000, { error: 'must be a whole number from 1 to 100000' })
    .default(defaultEmailsPerMerchantPerHour),
});

/** A stage file without an `email` section captures every email and sends none. */
const captureOnly = {
  delivery: EmailDelivery.capture,
  fromAddress: 'invoices@example.com',
  emailsPerMerchantPerHour: defaultEmailsPerMerchantPerHour,
} as const;

/**
 * Secrets Manager's rule for a secret's name: 1 to 512 of these characters. Refused names are not
 * echoed: a value that fails here may be the secret itself, pasted in by mistake.
 */
const secretName = z
  .string()
  .regex(/^[A-Za-z0-9/_+=.@-]{1,512}$/, {
    error: 'must be the name of an AWS Secrets Manager secret (letters, digits and /_+=.@-, at most 512)',
  })
  .refine((name) => !/^(?:sk|rk|whsec)_/.test(name), {
    error: 'must be the name of the Secrets Manager secret that holds the value, never the value itself',
  });

/**
 * Where a stage's payments come from (docs/processor.md): the sandbox's simulator, or Stripe Connect,
 * whose platform secret key and Connect webhook signing secret live in Secrets Manager. The file names
 * the two secrets; their values never appear in a stage file, a template or an environment variable.
 */
const processorSection = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('simulator') }),
    z.strictObject({
      kind: z.literal('stripe'),
      /** The secret whose value is the platform's Stripe secret key (`sk_live_…`). */
      secretKeySecretName: secretName,
      /** The secret whose value is the Connect webhook endpoint's signing secret (`whsec_…`). */
      webhookSigningSecretName: secretName,
    }),
  ],
  { error: 'must be "simulator" (the sandbox\'s test cards) or "stripe" (Stripe Connect)' },
);

/**
 * Everything an operator sets per stage, checked whole before anything is built. A later block
 * (such as the delivery pipeline's) is one more optional strict object here.
 */
export const stageConfigSchema = z
  .strictObject({
    /** Where the stage deploys. Unset, the stack is environment-agnostic (sandbox only). */
    env: z.strictObject({ account: accountId.optional(), region: region.optional() }).optional(),
    /** Who the alarm topic notifies, on ALARM and on OK; each confirms the subscription SNS sends. */
    alarmSubscribers: z
      .strictObject({
        email: z.array(email).default([]),
        /** HTTPS endpoints such as a pager's CloudWatch integration; SNS posts JSON to them. */
        https: z.array(httpsUrl).default([]),
      })
      .default({ email: [], https: [] }),
    /** Requests per second across the whole stage, and the bucket size for bursts. */
    throttle,
    /** The same for each public pay route on its own; must stay below `throttle`. */
    publicRouteThrottle: throttle,
    customDomain: customDomain.optional(),
    /** How many API requests X-Ray traces; what they cost is in docs/performance.md#cost-model. */
    traceSampling,
    /** How long every log group of the stage keeps its events. */
    logRetentionDays: z.number().refine((days) => retentionDays.includes(days), {
      error: `must be one of the retention periods of CloudWatch Logs in days: ${retentionDays.join(', ')}`,
    }),
    /** Customer emails; without it the stage captures them and sends none. */
    email: emailSection.default(captureOnly),
    /**
     * Where payments come from. Without it a sandbox uses the simulator and production has no
     * processor: its pay routes answer 503.
     */
    processor: processorSection.optional(),
  })
  .superRefine((config, context) => {
    for (const limit of ['rateLimit', 'burstLimit'] as const) {
      if (config.publicRouteThrottle[limit] >= config.throttle[limit]) {
        context.addIssue({
          code: 'custom',
          path: ['publicRouteThrottle', limit],
          message: `must be below throttle.${limit} (${config.throttle[limit]}), so payers cannot take the whole budget of the merchants`,
        });
      }
    }
    for (const protocol of ['email', 'https'] as const) {
      const subscribers = config.alarmSubscribers[protocol];
      const repeated = subscribers.findIndex((subscriber, index) => subscribers.indexOf(subscriber) < index);
      if (repeated !== -1) {
        context.addIssue({
          code: 'custom',
          path: ['alarmSubscribers', protocol, repeated],
          message: 'repeats an earlier subscriber; SNS subscribes each once',
        });
      }
    }
    if (config.customDomain !== undefined) {
      checkCertificate(config.customDomain.certificateArn, config, context);
    }
    checkEmailIdentity(config.email, context);
  });

/** What a stage file exports: its fields as typed in the file, before defaults. */
export type StageConfigFile = z.input<typeof stageConfigSchema>;
/** A checked stage configuration. */
export type StageConfig = z.output<typeof stageConfigSchema>;
export type CustomDomain = NonNullable<StageConfig['customDomain']>;
export type AlarmSubscribers = StageConfig['alarmSubscribers'];
export type TraceSampling = StageConfig['traceSampling'];
export type EmailConfig = StageConfig['email'];
export type EmailIdentityConfig = NonNullable<EmailConfig['identity']>;
export type ProcessorConfig = NonNullable<StageConfig['processor']>;

/** A stage that sends has an identity, and its From address is that identity's. */
function checkEmailIdentity(emailConfig: EmailConfig, context: z.RefinementCtx): void {
  const { identity, fromAddress, delivery } = emailConfig;
  if (identity === undefined) {
    if (delivery === EmailDelivery.ses) {
      context.addIssue({
        code: 'custom',
        path: ['email', 'identity'],
        message: 'is required with delivery "ses": the SES identity (domain or emailAddress) it sends from',
      });
    }
    return;
  }
  const { domain, emailAddress } = identity;
  if ((domain === undefined) === (emailAddress === undefined)) {
    context.addIssue({
      code: 'custom',
      path: ['email', 'identity'],
      message: 'must name exactly one of domain or emailAddress',
    });
    return;
  }
  const owned =
    domain !== undefined
      ? fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase() === domain
      : fromAddress.toLowerCase() === emailAddress?.toLowerCase();
  if (!owned) {
    const owner = domain !== undefined ? `an address at ${domain}` : emailAddress;
    context.addIssue({
      code: 'custom',
      path: ['email', 'fromAddress'],
      message: `must be ${owner}, the identity SES lets the stage send from`,
    });
  }
}

/** API Gateway serves a regional custom domain only with a certificate of its own account and region. */
function checkCertificate(
  certificateArn: string,
  config: Pick<StageConfig, 'env'>,
  context: z.RefinementCtx,
): void {
  const [, certificateRegion, certificateAccount] = certificateArnPattern.exec(certificateArn) ?? [];
  const path = ['customDomain', 'certificateArn'];
  if (config.env?.region === undefined) {
    context.addIssue({ code: 'custom', path: ['env', 'region'], message: 'is required with a customDomain' });
  } else if (certificateRegion !== config.env.region) {
    context.addIssue({
      code: 'custom',
      path,
      message: `must be a certificate in the stack's region ${config.env.region} (got ${certificateRegion})`,
    });
  }
  const account = config.env?.account;
  if (account !== undefined && certificateAccount !== account) {
    context.addIssue({
      code: 'custom',
      path,
      message: `must be a certificate of the stack's account ${account} (got ${certificateAccount})`,
    });
  }
}

/**
 * The sandbox never emails anyone: merchants test against it with made-up and real customers'
 * addresses alike (docs/decisions/email-infrastructure.md).
 */
const capturingStages: ReadonlySet<Stage> = new Set<Stage>(['sandbox']);

function stageEmailIssues(stage: Stage, config: StageConfig): string[] {
  if (!capturingStages.has(stage) || config.email.delivery === EmailDelivery.capture) return [];
  return [`email.delivery must be "capture" for ${stage}: a deployed ${stage} never emails anyone`];
}

/**
 * Each stage has its one processor: the sandbox keeps the simulator behind its test cards, and
 * production takes real money through Stripe only (docs/processor.md).
 */
const stageProcessors = { sandbox: 'simulator', production: 'stripe' } as const satisfies Record<
  Stage,
  ProcessorConfig['kind']
>;

function stageProcessorIssues(stage: Stage, config: StageConfig): string[] {
  const expected = stageProcessors[stage];
  if (config.processor === undefined || config.processor.kind === expected) return [];
  return [`processor.kind must be "${expected}" for ${stage}`];
}

/**
 * The processor a checked stage configuration takes payments from; `undefined` for a production
 * file without one, whose pay routes answer 503.
 */
export function stageProcessor(
  stage: Stage,
  config: Pick<StageConfig, 'processor'>,
): ProcessorConfig | undefined {
  if (config.processor !== undefined) return config.processor;
  return stage === 'sandbox' ? { kind: 'simulator' } : undefined;
}

/** A pinned stage deploys to one account and region only, and its alarms reach someone. */
function pinnedStageIssues(stage: Stage, config: StageConfig): string[] {
  const issues: string[] = [];
  if (config.env?.account === undefined) {
    issues.push(`env.account is required for ${stage}: the 12-digit AWS account it deploys to`);
  }
  if (config.env?.region === undefined) {
    issues.push(`env.region is required for ${stage}: the region it deploys to, like eu-west-1`);
  }
  const { email: emails, https } = config.alarmSubscribers;
  if (emails.length + https.length === 0) {
    issues.push(
      `alarmSubscribers needs an email or https subscriber for ${stage}, or no one hears its alarms`,
    );
  }
  return issues;
}

/** `alarmSubscribers.email[0]`, from zod's path. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

const typeNames: Partial<Record<string, string>> = {
  object: 'an object',
  array: 'a list',
  int: 'a whole number',
};

/** One problem of a configuration file as a clause of its one-line error, naming the field. */
export function issueLine(issue: z.core.$ZodIssue, fileKind = 'a stage file'): string {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys
      .map((key) => `${fieldName([...issue.path, key])} is not a field of ${fileKind}`)
      .join('; ');
  }
  const field = issue.path.length === 0 ? 'the file' : fieldName(issue.path);
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return `${field} is required`;
    return `${field} must be ${typeNames[issue.expected] ?? `a ${issue.expected}`}`;
  }
  // An https subscriber's URL is not echoed: it often carries the pager's integration key; nor is
  // anything of the processor section, where a pasted secret would otherwise reach the terminal.
  const echoed =
    typeof issue.input === 'string' && issue.path[1] !== 'https' && issue.path[0] !== 'processor';
  return `${field} ${issue.message}${echoed ? ` (got ${JSON.stringify(issue.input)})` : ''}`;
}

/**
 * Checks what a stage file exports. `file` names it in the error, which lists every problem found
 * on one line: `stages/production.ts: env.account is required: …`.
 */
export function parseStageConfig(stage: Stage, exported: unknown, file: string): StageConfig {
  const result = stageConfigSchema.safeParse(exported, { reportInput: true });
  const problems = result.success
    ? [
        ...(pinnedStages.has(stage) ? pinnedStageIssues(stage, result.data) : []),
        ...stageEmailIssues(stage, result.data),
        ...stageProcessorIssues(stage, result.data),
      ]
    : result.error.issues.map((issue) => issueLine(issue));
  if (problems.length > 0 || !result.success) throw new StageConfigError(`${file}: ${problems.join('; ')}`);
  return result.data;
}

const committedFiles = { sandbox, production } as const satisfies Record<Stage, StageConfigFile>;

/** The stage file committed for `stage`, as the repository names it in errors and docs. */
export function committedStageFile(stage: Stage): string {
  return `stages/${stage}.ts`;
}

/** The checked configuration of the committed `stages/<stage>.ts`. */
export function committedStageConfig(stage: Stage): StageConfig {
  return parseStageConfig(stage, committedFiles[stage], committedStageFile(stage));
}

/**
 * The checked configuration from another stage file (`-c stageFile=…`, resolved from the working
 * directory), whose default export is the configuration object. Used for a personal sandbox and by
 * the tests, which must not edit the committed files.
 */
export async function readStageConfigFile(stage: Stage, file: string): Promise<StageConfig> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new StageConfigError(`Context "${stageFileContextKey}": no stage file at ${file}`);
  }
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new StageConfigError(`${file}: could not be loaded: ${(error as Error).message}`);
  }
  if (loaded.default === undefined) {
    throw new StageConfigError(`${file}: has no default export; export the stage's configuration object`);
  }
  return parseStageConfig(stage, loaded.default, file);
}

/** The stack's `env` from the file: unset fields are left to the credentials at deploy time. */
export function environmentOf(config: StageConfig): { account?: string; region?: string } | undefined {
  const { account, region } = config.env ?? {};
  if (account === undefined && region === undefined) return undefined;
  return { ...(account === undefined ? {} : { account }), ...(region === undefined ? {} : { region }) };
}
