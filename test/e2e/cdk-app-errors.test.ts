import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { VALIDATE_AGAINST_DEFAULT_RULES } from 'aws-cdk-lib/cx-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAppContext } from '../../lib/app-context';
import { stackName } from '../../lib/stack-name';
import { committedStageConfig, type StageConfigFile } from '../../lib/stage-config';
import { oneLine } from '../../tools/cli/command-failure';
import { runToEnd } from '../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..');
let outdir: string;
let stageDir: string;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'cdk-app-errors-'));
  stageDir = await mkdtemp(join(tmpdir(), 'cdk-app-stage-files-'));
});

afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  await rm(stageDir, { recursive: true, force: true });
});

/** Runs the CDK app as the CDK CLI does: the context in CDK_CONTEXT_JSON, the output folder in CDK_OUTDIR. */
function runApp(context: Record<string, unknown>, timeoutMs = 30_000) {
  return runToEnd(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
    cwd: repoRoot,
    env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir },
    timeoutMs,
  });
}

/**
 * The line the app prints for `context`, read in this process: `bin/app.ts` prints exactly this
 * (`error: ` and the message on one line) and exits 2, which one spawned case of each kind proves.
 * The app writes into the file's own folder: without an `outdir`, aws-cdk-lib makes a `cdk.out`
 * folder in the system's temporary one for each app and leaves it there.
 */
async function refusalOf(context: Record<string, unknown>): Promise<string> {
  return readAppContext(new App({ context, outdir })).then(
    () => 'accepted',
    (error: unknown) => `error: ${oneLine((error as Error).message)}`,
  );
}

/** A stage file of the test's own, outside the repository, with `exported` as its default export. */
async function stageFile(name: string, exported: unknown): Promise<string> {
  const path = join(stageDir, `${name}.ts`);
  await writeFile(path, `export default ${JSON.stringify(exported, null, 2)};\n`);
  return path;
}

const valid = {
  env: { account: '123456789012', region: 'eu-west-1' },
  alarmSubscribers: { email: ['oncall@example.com'], https: ['https://pager.example.com/hook'] },
  throttle: { rateLimit: 100, burstLimit: 200 },
  publicRouteThrottle: { rateLimit: 20, burstLimit: 40 },
  traceSampling: { reservoirPerSecond: 1, fixedRate: 0.05 },
  logRetentionDays: 30,
} satisfies StageConfigFile;

describe('the CDK app refuses wrong context in one line and exits 2', () => {
  it('without a stage', async () => {
    const result = await runApp({});
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'error: Context "stage" must be one of sandbox, production (got nothing); pass -c stage=sandbox',
    );
    expect(result.stdout).toBe('');
  });

  it.each([
    [
      { stage: 'sandbox', alarmEmail: 'oncall@example.com' },
      'error: Context "alarmEmail" is no longer read: alarm subscribers are alarmSubscribers.email in stages/sandbox.ts',
    ],
    [
      { stage: 'production', stageFile: 'stages/staging.ts' },
      'error: Context "stageFile": no stage file at stages/staging.ts',
    ],
    [
      { stage: 'production', stageFile: 'stages/personal.ts', alarmEmail: 'oncall@example.com' },
      'error: Context "alarmEmail" is no longer read: alarm subscribers are alarmSubscribers.email in stages/personal.ts',
    ],
  ])('with %j', async (context, line) => {
    expect(await refusalOf(context)).toBe(line);
  });
});

describe('the CDK app refuses a stage file in one line naming the file and the field, and exits 2', () => {
  const { env: _env, alarmSubscribers: _subscribers, ...unpinned } = valid;
  it.each([
    [
      'production with nothing pinned',
      unpinned,
      'env.account is required for production: the 12-digit AWS account it deploys to; ' +
        'env.region is required for production: the region it deploys to, like eu-west-1; ' +
        'alarmSubscribers needs an email or https subscriber for production, or no one hears its alarms',
    ],
    [
      'a bad account id, region, e-mail address and subscriber URL',
      {
        ...valid,
        env: { account: '1111-2222-3333', region: 'Ireland' },
        alarmSubscribers: { email: ['oncall@'], https: ['http://pager.example.com/hook'] },
      },
      'env.account must be a 12-digit AWS account id, like 111111111111 (got "1111-2222-3333"); ' +
        'env.region must be an AWS region, like eu-west-1 (got "Ireland"); ' +
        'alarmSubscribers.email[0] must be an e-mail address, like oncall@example.com (got "oncall@"); ' +
        'alarmSubscribers.https[0] must be an https:// URL, like the CloudWatch integration URL of a pager',
    ],
    [
      'a certificate of another region',
      {
        ...valid,
        customDomain: {
          domainName: 'api.payments.example.com',
          certificateArn:
            'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
        },
      },
      "customDomain.certificateArn must be a certificate in the stack's region eu-west-1 (got us-east-1)",
    ],
  ])('with %s', async (name, exported, problems) => {
    const file = await stageFile(name.replaceAll(/\W+/g, '-'), exported);
    const context = { stage: 'production', stageFile: file };
    // The first case runs the app as the CDK CLI does; the others read the same context in process.
    if (name !== 'production with nothing pinned') {
      expect(await refusalOf(context)).toBe(`error: ${file}: ${problems}`);
      return;
    }
    const result = await runApp(context);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${file}: ${problems}\n`);
    expect(result.stdout).toBe('');
  });
});

describe('the CDK app with the committed production file', () => {
  it('synthesizes production pinned to its account and region, with its alarm subscriptions', async () => {
    // Bundling is the bench's subject (docs/performance.md "What each figure means"); skipping it keeps this to the app's own work.
    // aws-cdk-lib's built-in template validation runs here, its findings as errors, so one finding
    // fails the synthesis; the stack tests skip it (docs/decisions/test-suite-speed.md).
    const result = await runApp(
      { stage: 'production', 'aws:cdk:bundling-stacks': [], [VALIDATE_AGAINST_DEFAULT_RULES]: true },
      240_000,
    );
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });

    const { env, alarmSubscribers } = committedStageConfig('production');
    const manifest = JSON.parse(await readFile(join(outdir, 'manifest.json'), 'utf8'));
    expect(manifest.artifacts[stackName('production')].environment).toBe(
      `aws://${env?.account}/${env?.region}`,
    );
    const template = JSON.parse(
      await readFile(join(outdir, `${stackName('production')}.template.json`), 'utf8'),
    ) as { Resources: Record<string, { Type: string; Properties: { Protocol: string; Endpoint: string } }> };
    // People and hooks, not the SES events function on the email events topic.
    const subscriptions = Object.values(template.Resources)
      .filter(
        (resource) => resource.Type === 'AWS::SNS::Subscription' && resource.Properties.Protocol !== 'lambda',
      )
      .map(({ Properties }) => `${Properties.Protocol} ${Properties.Endpoint}`);
    expect(subscriptions.length).toBeGreaterThanOrEqual(1);
    expect(subscriptions.sort()).toEqual(
      [
        ...alarmSubscribers.email.map((address) => `email ${address}`),
        ...alarmSubscribers.https.map((url) => `https ${url}`),
      ].sort(),
    );
  }, 300_000);
});
