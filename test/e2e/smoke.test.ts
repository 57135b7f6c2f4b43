import { randomBytes, randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateApiKey } from '../../functions/domain/api-key';
import { testDynamoDbTarget } from '../support/dynamodb';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { captureChildOutput } from '../support/log-capture-run-log';
import { isStillRunning } from '../support/process-tree';
import { type SpawnedProcess, spawnProcess } from '../support/spawned-process';
import { TestCaFiles } from '../support/test-ca';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const runMs = 60_000;

// Everything a failed test left running, and the temporary folders.
const started: SpawnedProcess[] = [];
const folders: string[] = [];
const servers: Server[] = [];
let sandbox: TestRuntime;
/** A receiver folder holding the suite's CA, which the runtime in this worker trusts. */
let trustedReceiverDir: string;

beforeAll(async () => {
  sandbox = await startTestRuntime({ WEBHOOK_ALLOW_PRIVATE_TARGETS: true });
  trustedReceiverDir = await temporaryFolder('merchant-payments-smoke-receiver-');
  const testCaDir = inject('testCaDir');
  for (const file of Object.values(TestCaFiles)) {
    await copyFile(join(testCaDir, file), join(trustedReceiverDir, file));
  }
});

afterAll(async () => {
  for (const spawned of started) spawned.killAll();
  await sandbox?.stop();
  for (const server of servers) server.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function temporaryFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

interface SmokeRun {
  readonly spawned: SpawnedProcess;
  /** Settles once the process has exited and its output has ended. */
  readonly finished: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `npm run -s smoke -- <args>` as a user types it, in the repository, with `env` added. */
function startSmoke(args: readonly string[], env: Record<string, string>): SmokeRun {
  const spawned = spawnProcess('npm', ['run', '-s', 'smoke', '--', ...args], {
    cwd: repoRoot,
    env: { ...process.env, SMOKE_API_KEY: '', ...env },
  });
  started.push(spawned);
  // What it prints goes to the run log too, whose scan looks for keys and secrets (log-scan.test.ts).
  captureChildOutput(spawned.child, 'npm run smoke', import.meta.filename);
  let stdout = '';
  let stderr = '';
  spawned.child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  spawned.child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const finished = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    spawned.child.once('close', (code) => {
      // npm's own warnings about this machine's configuration are not the command's.
      const own = stderr.split('\n').filter((line) => !line.startsWith('npm warn'));
      done({ code, stdout, stderr: own.join('\n') });
    }),
  );
  return { spawned, finished };
}

function smoke(args: readonly string[], env: Record<string, string>) {
  return startSmoke(args, env).finished;
}

function lines(text: string): string[] {
  return text.trimEnd().split('\n');
}

/** The options that point the smoke at a runtime of this file. */
function target(runtime: TestRuntime): string[] {
  return ['--base-url', runtime.runtime.baseUrl, '--merchant', runtime.runtime.merchantId];
}

async function smokeEndpoints(runtime: TestRuntime): Promise<unknown[]> {
  const listed = await runtime.api('GET', `/merchants/${runtime.runtime.merchantId}/webhook-endpoints`);
  expect(listed.status).toBe(200);
  return listed.body.items;
}

/**
 * A production runtime in a process of its own: the functions read their stage from the process's
 * environment, which the sandbox runtime of this worker already set.
 */
async function startProductionRuntime(): Promise<{ baseUrl: string; merchantId: string; apiKey: string }> {
  const stateDir = await temporaryFolder('merchant-payments-smoke-production-');
  const runtime = spawnProcess(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'test', 'support', 'runtime-process.ts'),
      JSON.stringify({
        stateDir,
        tableName: `test-${randomUUID()}`,
        dynamodb: testDynamoDbTarget(),
        settings: { STAGE: 'production' },
      }),
    ],
    { cwd: repoRoot },
  );
  started.push(runtime);
  const baseUrl = (await runtime.waitForOutput(/ready (\S+)/, runMs / 2))[1] as string;
  const info = JSON.parse(await readFile(join(stateDir, 'runtime.json'), 'utf8'));
  return { baseUrl, merchantId: info.merchantId, apiKey: info.apiKey };
}

/** A server that answers every request with `status` and `body`, as a stage gone wrong might. */
async function fakeStage(status: number, body: unknown): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const anyMerchant = 'mer_01m8d4w80heh7vtj3cwcztmfy4';
const neverIssuedKey = (stage: 'sandbox' | 'production') =>
  generateApiKey(stage, (size) => randomBytes(size)).apiKey;

describe('npm run smoke against the local runtime', () => {
  it(
    'passes every check with the ready merchant key, the sandbox round trip included, and leaves no endpoint',
    async () => {
      const result = await smoke(target(sandbox), {
        SMOKE_API_KEY: sandbox.runtime.apiKey,
        RECEIVER_DIR: trustedReceiverDir,
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const printed = lines(result.stdout);
      expect(printed.map((line) => line.replace(/ \(.*\)$/, ''))).toEqual([
        'ok   a request without a key is refused',
        'ok   a request with a key never issued is refused',
        'ok   the key reads invoices',
        'ok   the sandbox routes are served',
        'ok   webhook endpoint registered',
        'ok   invoice paid by card through its pay link',
        'ok   invoices.InvoicePaid delivered and verified',
        'ok   webhook endpoint deleted',
      ]);
      expect(result.stdout).not.toContain(sandbox.runtime.apiKey);
      expect(result.stdout).not.toContain('whsec_');
      // The invoice the line names is paid, and the endpoint it registered is gone.
      const invoiceId = /invoice paid by card through its pay link \((inv_[0-9a-z]{26}),/.exec(
        result.stdout,
      )?.[1];
      const invoice = await sandbox.api('GET', `/invoices/${invoiceId}`, {
        query: { merchantId: sandbox.runtime.merchantId },
      });
      expect(invoice.body.status).toBe('paid');
      expect(await smokeEndpoints(sandbox)).toEqual([]);
    },
    runMs,
  );

  it(
    'checks with a production key, read from a file, that the sandbox routes are absent and pays nothing',
    async () => {
      const production = await startProductionRuntime();
      const keyFile = join(await temporaryFolder('merchant-payments-smoke-key-'), 'key');
      await writeFile(keyFile, `${production.apiKey}\n`, { mode: 0o600 });
      const result = await smoke(
        ['--base-url', production.baseUrl, '--merchant', production.merchantId, '--key-file', keyFile],
        {},
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(lines(result.stdout)).toEqual([
        'ok   a request without a key is refused (401 unauthorized)',
        'ok   a request with a key never issued is refused (401 unauthorized)',
        expect.stringMatching(
          /^ok {3}the key reads invoices \(merchant_prd[a-z0-9]{10}…, production, merchant mer_/,
        ),
        'ok   production serves no sandbox routes (POST /sandbox/payouts: 404 not_found)',
      ]);
      const invoices = await apiClient(production.baseUrl, production.apiKey)('GET', '/invoices', {
        query: { merchantId: production.merchantId },
      });
      expect(invoices.body.items).toEqual([]);
    },
    runMs,
  );

  it(
    "fails the round trip with the service's own reason when the webhook never arrives, and still deletes the endpoint",
    async () => {
      // A folder of its own: the smoke makes a new CA there, which the runtime does not trust.
      const untrusted = await temporaryFolder('merchant-payments-smoke-untrusted-');
      const result = await smoke([...target(sandbox), '--timeout', '3'], {
        SMOKE_API_KEY: sandbox.runtime.apiKey,
        RECEIVER_DIR: untrusted,
      });
      expect(result.code).toBe(1);
      const printed = lines(result.stdout);
      expect(printed.filter((line) => line.startsWith('FAIL'))).toEqual([
        expect.stringMatching(
          /^FAIL invoices\.InvoicePaid delivered and verified: nothing reached the receiver within 3 s; the service's delivery is pending after 1 attempt\(s\), the last: TLS certificate not accepted/,
        ),
      ]);
      expect(printed.at(-1)).toMatch(/^ok {3}webhook endpoint deleted \(whk_/);
      expect(await smokeEndpoints(sandbox)).toEqual([]);
    },
    runMs,
  );

  it(
    'stops on Ctrl-C while it waits: deletes its endpoint, closes its receiver and exits 1',
    async () => {
      const untrusted = await temporaryFolder('merchant-payments-smoke-untrusted-');
      const run = startSmoke(target(sandbox), {
        SMOKE_API_KEY: sandbox.runtime.apiKey,
        RECEIVER_DIR: untrusted,
      });
      await run.spawned.waitForOutput(/ok {3}invoice paid by card through its pay link/, runMs / 2);
      expect(await smokeEndpoints(sandbox)).toHaveLength(1);
      const processes = run.spawned.descendants();
      expect(processes.map((entry) => entry.command)).toContainEqual(expect.stringMatching(/bin\/smoke\.ts/));
      run.spawned.child.kill('SIGINT');
      const result = await run.finished;
      expect(result.code).toBe(1);
      expect(lines(result.stderr)).toEqual(['smoke: stopped before every check ran']);
      expect(await smokeEndpoints(sandbox)).toEqual([]);
      expect(processes.filter(isStillRunning)).toEqual([]);
    },
    runMs,
  );
});

describe('npm run smoke against a stage gone wrong', () => {
  it(
    'fails, exit 1, on a stage that serves anything without a key',
    async () => {
      const baseUrl = await fakeStage(200, { items: [], page: { hasMore: false } });
      const result = await smoke(['--base-url', baseUrl, '--merchant', anyMerchant], {
        SMOKE_API_KEY: neverIssuedKey('production'),
      });
      expect(result.code).toBe(1);
      expect(lines(result.stdout)).toEqual([
        'FAIL a request without a key is refused: answered 200, expected 401 unauthorized in the error shape',
        'FAIL a request with a key never issued is refused: answered 200, expected 401 unauthorized in the error shape',
        expect.stringMatching(/^ok {3}the key reads invoices/),
        'FAIL production serves no sandbox routes: POST /sandbox/payouts without an Idempotency-Key answered 200, expected 404 in the error shape',
      ]);
    },
    runMs,
  );

  it(
    'fails every check, exit 1, on a stage that answers 500, and runs no round trip',
    async () => {
      const baseUrl = await fakeStage(500, { error: { code: 'internal_error', message: 'Internal error.' } });
      const result = await smoke(['--base-url', baseUrl, '--merchant', anyMerchant], {
        SMOKE_API_KEY: neverIssuedKey('sandbox'),
        RECEIVER_DIR: trustedReceiverDir,
      });
      expect(result.code).toBe(1);
      const printed = lines(result.stdout);
      expect(printed).toHaveLength(5);
      for (const line of printed)
        expect(line).toMatch(/^FAIL [^:]+: .*500 internal_error|^FAIL webhook round trip: not run/);
    },
    runMs,
  );
});

describe('npm run smoke on a stage that refuses its requests as not valid', () => {
  it(
    'says on each FAIL line what the 400 named: each detail, path and message',
    async () => {
      const baseUrl = await fakeStage(400, {
        error: {
          code: 'validation_error',
          message: 'The request is not valid.',
          requestId: 'req-1',
          details: [
            { path: 'merchantId', message: 'must be a mer_ TypeID.' },
            { path: 'limit', message: 'must be given once.' },
          ],
        },
      });
      const result = await smoke(['--base-url', baseUrl, '--merchant', anyMerchant], {
        SMOKE_API_KEY: neverIssuedKey('sandbox'),
        RECEIVER_DIR: trustedReceiverDir,
      });
      expect(result.code).toBe(1);
      const [first] = lines(result.stdout);
      expect(first).toBe(
        'FAIL a request without a key is refused: answered 400 validation_error (The request is not valid. ' +
          'merchantId: must be a mer_ TypeID.; limit: must be given once.), expected 401 unauthorized in the error shape',
      );
    },
    runMs,
  );
});

// One refusal through the command proves it says it in one line and exits 2; the other refusals of
// the command line and of a key file are read in process in test/unit/smoke/.
describe('npm run smoke says a wrong command line in one line and exits 2', () => {
  const valid: readonly string[] = ['--base-url', 'http://127.0.0.1:9', '--merchant', anyMerchant];
  it.each<[readonly string[], string]>([
    [[...valid, '--key', 'KEY'], 'error: --key is refused: the API key never goes on the command line'],
  ])(
    'npm run smoke -- %j',
    async (args, line) => {
      const key = neverIssuedKey('sandbox');
      // The key itself stands in for KEY: the refusal must not repeat it.
      const result = await smoke(
        args.map((arg) => (arg === 'KEY' ? key : arg)),
        {},
      );
      expect(result.code).toBe(2);
      expect(lines(result.stderr)).toEqual([expect.stringMatching(new RegExp(`^${escaped(line)}`))]);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain(key);
    },
    runMs,
  );
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
