import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { stopRegistry } from '../cli/stop-registry';
import type { DynamoDbLocalTarget } from '../local/dynamodb-local';
import { createLocalCa } from '../webhook-receiver/local-ca';
import { apiLatencySection } from './api-latency-section';
import type { BenchContext, BenchSectionRun } from './bench-context';
import type { BenchOptions, BenchSection } from './bench-options';
import type { BenchRow } from './bench-row';
import { bundlesSection } from './bundles-section';
import { dispatcherSection } from './dispatcher-section';
import { eventLatencySection } from './event-latency-section';
import { fanOutSection } from './fan-out-section';
import { filtersSection } from './filters-section';
import { startFreshDynamoDbLocal } from './fresh-dynamodb-local';
import { hostileBodiesSection } from './hostile-bodies-section';
import { renderMarkdownTable, renderTextTable, summaryLine } from './render-table';
import { roundTripsSection } from './round-trips-section';

const sectionRuns: Record<BenchSection, BenchSectionRun> = {
  'round-trips': roundTripsSection,
  bundles: bundlesSection,
  api: apiLatencySection,
  'hostile-bodies': hostileBodiesSection,
  events: eventLatencySection,
  'fan-out': fanOutSection,
  dispatcher: dispatcherSection,
  filters: filtersSection,
};

export interface BenchRun {
  readonly rows: BenchRow[];
  readonly missed: number;
}

/**
 * Runs the chosen sections one after another against one fresh in-memory DynamoDB Local and a CA
 * made for this run, prints the table (and writes it as markdown when asked), and stops everything
 * it started. `registerStop` hands the bench's stop to the signal handling of the command.
 */
export async function runBench(
  options: BenchOptions,
  registerStop: (stop: () => Promise<void>) => void,
): Promise<BenchRun> {
  const started = performance.now();
  const { onStop, stopAll } = stopRegistry();
  registerStop(stopAll);
  const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);
  try {
    const caDir = await mkdtemp(join(tmpdir(), 'merchant-payments-bench-ca-'));
    onStop(() => rm(caDir, { recursive: true, force: true }));
    const ca = await createLocalCa(caDir, { validityDays: 1, caName: 'merchant-payments bench CA' });
    // The receivers serve this CA's certificate; the dispatcher trusts it as it would NODE_EXTRA_CA_CERTS.
    setDefaultCACertificates([...getCACertificates('default'), ca.caCertPem]);
    let dynamodbStarted: Promise<DynamoDbLocalTarget> | undefined;
    const dynamodb = () => {
      dynamodbStarted ??= startFreshDynamoDbLocal({ progress, onStop });
      return dynamodbStarted;
    };
    const context: BenchContext = {
      dynamodb,
      caDir,
      runs: options.runs,
      importCpu: options.importCpu,
      functions: options.functions,
      progress,
      onStop,
    };
    const rows: BenchRow[] = [];
    for (const section of options.sections) {
      progress(`section ${section}`);
      rows.push(...(await sectionRuns[section](context)));
    }
    const wallMs = performance.now() - started;
    const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
    const summary = summaryLine(rows, wallMs);
    process.stdout.write(`${renderTextTable(rows)}\n\n${machine}\n${summary}\n`);
    if (options.markdown !== undefined) {
      await writeFile(options.markdown, `${renderMarkdownTable(rows)}\n\n${machine}; ${summary}.\n`);
    }
    return { rows, missed: rows.filter((row) => row.ok === false).length };
  } finally {
    await stopAll();
  }
}
