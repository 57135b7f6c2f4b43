import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { startFreshDynamoDbLocal } from '../bench/fresh-dynamodb-local';
import { stopRegistry } from '../cli/stop-registry';
import { createLocalCa } from '../webhook-receiver/local-ca';
import { measureOperations } from './measure-operations';
import { type PerformanceDocs, readPerformanceDocs, renderPerformanceDocs } from './performance-docs';

/**
 * `npm run performance-doc`: one fresh in-memory DynamoDB Local and a CA made for this run, the
 * models' measurements against them, and the documents rendered from what they measured. Stops
 * everything it started, and hands that stop to the command's signal handling through
 * `registerStop`.
 */
export async function performanceDocsOnThisMachine(
  registerStop: (stop: () => Promise<void>) => void,
): Promise<PerformanceDocs> {
  const { onStop, stopAll } = stopRegistry();
  registerStop(stopAll);
  const started = performance.now();
  const progress = (line: string) =>
    process.stderr.write(
      `performance-doc: ${((performance.now() - started) / 1_000).toFixed(1)} s ${line}\n`,
    );
  try {
    const caDir = await mkdtemp(join(tmpdir(), 'merchant-payments-performance-doc-ca-'));
    onStop(() => rm(caDir, { recursive: true, force: true }));
    const ca = await createLocalCa(caDir, {
      validityDays: 1,
      caName: 'merchant-payments performance-doc CA',
    });
    // The receiver serves this CA's certificate; the dispatcher trusts it as it would NODE_EXTRA_CA_CERTS.
    setDefaultCACertificates([...getCACertificates('default'), ca.caCertPem]);
    const dynamodb = await startFreshDynamoDbLocal({ progress, onStop });
    const measurements = await measureOperations({ dynamodb, caDir, progress, onStop });
    return renderPerformanceDocs(measurements, await readPerformanceDocs());
  } finally {
    await stopAll();
  }
}
