import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { startFreshDynamoDbLocal } from '../bench/fresh-dynamodb-local';
import { stopRegistry } from '../cli/stop-registry';
import { createLocalCa } from '../webhook-receiver/local-ca';
import { runSoak } from './run-soak';
import { brokenPromises, renderSoakReport } from './soak-findings';
import { eventCountFor, type SoakOptions } from './soak-options';

/** However long the load ran, its deliveries get this long to be final: enough for 5 attempts many times over. */
const settleTimeoutSeconds = 120;

/**
 * `npm run soak`: one fresh in-memory DynamoDB Local and a CA made for this run, the soak, and the
 * report on stdout. Resolves with the broken promises; stops everything it started, and hands that
 * stop to the command's signal handling through `registerStop`.
 */
export async function soakOnThisMachine(
  options: SoakOptions,
  registerStop: (stop: () => Promise<void>) => void,
): Promise<string[]> {
  const { onStop, stopAll } = stopRegistry();
  registerStop(stopAll);
  const started = performance.now();
  const progress = (line: string) =>
    process.stderr.write(`soak: ${((performance.now() - started) / 1_000).toFixed(1)} s ${line}\n`);
  try {
    const caDir = await mkdtemp(join(tmpdir(), 'merchant-payments-soak-ca-'));
    onStop(() => rm(caDir, { recursive: true, force: true }));
    const ca = await createLocalCa(caDir, { validityDays: 1, caName: 'merchant-payments soak CA' });
    // The receiver serves this CA's certificate; the dispatcher trusts it as it would NODE_EXTRA_CA_CERTS.
    setDefaultCACertificates([...getCACertificates('default'), ca.caCertPem]);
    const dynamodb = await startFreshDynamoDbLocal({ progress, onStop });
    const findings = await runSoak(
      {
        durationSeconds: options.durationSeconds,
        eventCount: eventCountFor(options.durationSeconds),
        settleTimeoutSeconds,
      },
      { dynamodb: async () => dynamodb, caDir, progress, onStop },
    );
    const broken = brokenPromises(findings);
    process.stdout.write(`${renderSoakReport(findings, broken)}\n`);
    return broken;
  } finally {
    await stopAll();
  }
}
