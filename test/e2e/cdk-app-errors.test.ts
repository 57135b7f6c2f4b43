import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToEnd } from '../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..');
let outdir: string;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'cdk-app-errors-'));
});

afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
});

/** Runs the CDK app as the CDK CLI does: the context in CDK_CONTEXT_JSON, the output folder in CDK_OUTDIR. */
function runApp(context: Record<string, unknown>) {
  return runToEnd(process.execPath, ['--import', 'tsx', 'bin/app.ts'], {
    cwd: repoRoot,
    env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir },
    timeoutMs: 30_000,
  });
}

describe('the CDK app refuses wrong context in one line and exits 2', () => {
  it.each([
    [{}, 'error: Context "stage" must be one of sandbox, production (got nothing); pass -c stage=sandbox'],
    [
      { stage: 'sandbox', alarmEmail: 'oncall' },
      'error: Context "alarmEmail" must be e-mail addresses, separated by commas (got "oncall"); pass -c alarmEmail=oncall@example.com,team@example.com',
    ],
  ])('with %j', async (context, line) => {
    const result = await runApp(context);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(line);
    expect(result.stdout).toBe('');
  });
});
