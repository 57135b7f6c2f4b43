import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalRuntime, startLocalRuntime } from '../../lib/local/runtime';
import { LocalSettings } from '../../lib/local/settings';

const repoRoot = resolve(import.meta.dirname, '..', '..');
let workDir: string;
let runtime: LocalRuntime;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'merchant-payments-readme-'));
  await mkdir(join(workDir, '.local'));
  runtime = await startLocalRuntime({
    settings: LocalSettings.parse({ PORT: '0' }),
    inMemory: true,
    stateDir: join(workDir, '.local'),
    dynamodbEndpoint: inject('dynamodbEndpoint'),
    tableName: `readme-${Date.now()}`,
  });
});
afterAll(async () => {
  await runtime.stop();
  await rm(workDir, { recursive: true, force: true });
});

/** The shell blocks of the README's "Try it" section, in order. */
async function walkThrough(): Promise<string> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Try it'), readme.indexOf('## Configuration'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
}

describe('README walk-through', () => {
  it('runs as written against the local runtime and ends with a paid invoice', async () => {
    const script = await walkThrough();
    expect(script).toContain('/invoices');
    const { code, stdout, stderr } = await new Promise<{
      code: number | null;
      stdout: string;
      stderr: string;
    }>((done) => {
      const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: workDir });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += String(chunk);
      });
      child.stderr.on('data', (chunk) => {
        stderr += String(chunk);
      });
      child.on('exit', (exitCode) => done({ code: exitCode, stdout, stderr }));
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).not.toContain('"error"');
    expect(stdout).toContain('"status":"paid"');
    expect(stdout).toContain('"amountRemaining":{"amount":0,"currency":"USD"}');
  }, 60_000);
});
