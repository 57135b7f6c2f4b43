import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinishedProcess, runToEnd } from '../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..');

function bench(args: readonly string[]): Promise<FinishedProcess> {
  return runToEnd('npm', ['run', '-s', 'bench', '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env },
    // One fresh process per function measured, each loading its bundle.
    timeoutMs: 150_000,
  });
}

describe('npm run bench', () => {
  let dir: string;
  let run: FinishedProcess;
  let markdown: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'merchant-payments-bench-test-'));
    run = await bench([
      '--section',
      'bundles',
      '--runs',
      '1',
      '--import-cpu',
      'time',
      // Two functions, not all ~50: the rows these tests read, each measured as in a full run.
      '--function',
      'authorizer/handler',
      '--function',
      'pay/serve-pay-page',
      '--markdown',
      join(dir, 'bench.md'),
    ]);
    markdown = await readFile(join(dir, 'bench.md'), 'utf8');
  }, 180_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs one section and exits 0 though budgets are missed', () => {
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+ figures, \d+ MISSED, in [\d.]+ s$/m);
  });

  it('prints an import CPU and a bytes row for the authorizer, beside the bare baseline', () => {
    expect(run.stdout).toMatch(
      /bundles\s+authorizer\/handler import CPU\s+\S+ ms\s+\S+ ms\s+[\d.]+×\s+≤ 1\.1×\s+(ok|MISSED)/,
    );
    expect(run.stdout).toMatch(
      /bundles\s+authorizer\/handler bytes\s+\S+ KB\s+\S+ KB\s+[\d.]+×\s+≤ 1\.5×\s+(ok|MISSED)/,
    );
  });

  it('prints the named libraries’ floor beside the bare baseline, with no budget of its own', () => {
    expect(run.stdout).toMatch(/bundles\s+library floor import CPU\s+\S+ ms\s+\S+ ms\s+[\d.]+×\s+—/);
  });

  it('writes the same table as markdown', () => {
    expect(markdown).toMatch(
      /^\| Section \| Figure \| Value \| Baseline \| Ratio \| Budget \| Result \| Note \|$/m,
    );
    expect(markdown).toMatch(/^\| bundles \| pay\/serve-pay-page bytes \|/m);
  });

  it('measures only the functions named', () => {
    const measured = run.stdout.match(/^bundles\s+\S+ (import CPU|bytes)/gm) ?? [];
    expect(new Set(measured.map((row) => row.split(/\s+/)[1]))).toEqual(
      new Set(['authorizer/handler', 'pay/serve-pay-page']),
    );
  });

  it('says a wrong option in one line and exits 2', async () => {
    const wrong = await bench(['--section', 'everything']);
    expect(wrong.code).toBe(2);
    const errors = wrong.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'));
    expect(errors).toEqual([
      'error: --section "everything" is not a section: it must be one of round-trips, bundles, api, hostile-bodies, events, fan-out, dispatcher, filters.',
    ]);
  });
});
