import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { writePayPageModule } from '../functions/pay/build-pay-page';
import { writePortalPageModule } from '../functions/portal/build-portal-page';
import { startDynamoDbLocal } from '../tools/local/dynamodb-local';
import { runLogWriter } from './support/log-capture-run-log';
import { createTestCa } from './support/test-ca';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of each DynamoDB Local of the run, one per test worker. */
    dynamodbEndpoints: string[];
    /** Folder of the run's test CA (`loadTestCa`): the `localhost` key and certificate HTTPS receivers serve. */
    testCaDir: string;
    /** A folder of the run's, removed when the run ends, for what tests write and need not keep. */
    scratchDir: string;
  }
}

/**
 * Starts one in-memory DynamoDB Local per test worker, each on a free port; a test reaches its own
 * worker's (`testDynamoDbEndpoint`), so two workers never queue behind each other's requests, and
 * every test file creates its own uniquely named tables in a database of its own there. Before
 * that, makes the run's test CA and has every test worker trust it (see `trustTestCa`).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Test files import and bundle the pay page's and the portal's functions, which serve the pages
  // built from their sources.
  await Promise.all([writePayPageModule(), writePortalPageModule()]);
  const testCa = await trustTestCa();
  project.provide('testCaDir', testCa.dir);
  const scratchDir = await mkdtemp(join(tmpdir(), 'merchant-payments-test-run-'));
  project.provide('scratchDir', scratchDir);

  // Its progress goes to the run log, as everything but vitest's report does.
  const log = runLogWriter('global-setup', undefined);
  const started = Date.now();
  const workers = Math.max(1, project.vitest.config.maxWorkers);
  // Each test file signs with a key of its own and so has a database of its own in its worker's
  // instance (testDynamoDbTarget); a spawned runtime or admin CLI is handed that key.
  const instances = await Promise.allSettled(
    Array.from({ length: workers }, () =>
      startDynamoDbLocal({ inMemory: true, log: (message) => log.write(`${message}\n`) }),
    ),
  );
  const dynamodbs = instances.flatMap((instance) =>
    instance.status === 'fulfilled' ? [instance.value] : [],
  );
  const stopAll = async () => {
    try {
      await Promise.all(dynamodbs.map((dynamodb) => dynamodb.stop()));
    } finally {
      await testCa.remove();
      await rm(scratchDir, { recursive: true, force: true });
    }
  };
  const failed = instances.find((instance) => instance.status === 'rejected');
  if (failed !== undefined) {
    await stopAll();
    throw failed.reason;
  }
  const endpoints = dynamodbs.map((dynamodb) => dynamodb.endpoint);
  log.write(`${workers} DynamoDB Local ready on ${endpoints.join(', ')} in ${Date.now() - started} ms\n`);
  project.provide('dynamodbEndpoints', endpoints);
  return stopAll;
}

/**
 * Makes a test CA in a temporary folder and points NODE_EXTRA_CA_CERTS at it. Node reads that
 * variable only when a process starts; vitest forks its workers after the global setup, with a copy
 * of this process's environment, so every worker (and the local runtime inside it) trusts the HTTPS
 * receivers' certificate without being told. A value the user had already set is kept, bundled
 * with the test CA.
 */
async function trustTestCa(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'merchant-payments-test-ca-'));
  const ca = await createTestCa(dir);
  const previous = process.env.NODE_EXTRA_CA_CERTS;
  let trusted = ca.caCertPath;
  if (previous !== undefined && previous !== '') {
    const existing = await readFile(previous, 'utf8').catch(() => '');
    trusted = join(dir, 'extra-ca-bundle.pem');
    await writeFile(trusted, `${existing.trimEnd()}\n${ca.caCertPem}`);
  }
  process.env.NODE_EXTRA_CA_CERTS = trusted;
  return {
    dir,
    remove: async () => {
      if (previous === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
      else process.env.NODE_EXTRA_CA_CERTS = previous;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
