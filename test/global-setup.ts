import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { writePayPageModule } from '../functions/pay/build-pay-page';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { runLogWriter } from './support/log-capture-run-log';
import { createTestCa } from './support/test-ca';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the DynamoDB Local shared by every test file of the run. */
    dynamodbEndpoint: string;
    /** Folder of the run's test CA (`loadTestCa`): the `localhost` key and certificate HTTPS receivers serve. */
    testCaDir: string;
  }
}

/**
 * Starts one in-memory DynamoDB Local for the whole run on a free port; every test file creates
 * its own uniquely named tables in it, so files can run in parallel without sharing data. Before
 * that, makes the run's test CA and has every test worker trust it (see `trustTestCa`).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Test files import and bundle the pay page's function, which serves the page built from its sources.
  await writePayPageModule();
  const testCa = await trustTestCa();
  project.provide('testCaDir', testCa.dir);

  // Its progress goes to the run log, as everything but vitest's report does.
  const log = runLogWriter('global-setup', undefined);
  const started = Date.now();
  // The one -sharedDb instance (docs/decisions/who-can-reach-the-local-table.md): every worker,
  // spawned runtime and admin CLI of the run reaches it with the fixed shared key.
  const dynamodb = await startDynamoDbLocal({
    inMemory: true,
    sharedDb: true,
    log: (message) => log.write(`${message}\n`),
  }).catch(async (error: unknown) => {
    await testCa.remove();
    throw error;
  });
  log.write(`DynamoDB Local ready on ${dynamodb.endpoint} in ${Date.now() - started} ms\n`);
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  return async () => {
    try {
      await dynamodb.stop();
    } finally {
      await testCa.remove();
    }
  };
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
