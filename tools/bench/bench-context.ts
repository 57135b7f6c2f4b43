import type { DynamoDbLocalTarget } from '../local/dynamodb-local';
import type { ImportMeasure } from './bench-options';
import type { BenchRow } from './bench-row';

/** What every section runs against: one fresh in-memory DynamoDB Local and a trusted test CA. */
export interface BenchContext {
  /**
   * The run's DynamoDB Local and the key of its database, started by the first section that asks
   * for it. Every client of it signs with that key: no other reaches its tables.
   */
  readonly dynamodb: () => Promise<DynamoDbLocalTarget>;
  /** Folder of the CA whose `localhost` certificate the HTTPS receivers serve; this process trusts it. */
  readonly caDir: string;
  /** Fresh processes per function for import CPU times. */
  readonly runs: number;
  /** What the import CPU budgets judge; undefined picks instructions where valgrind runs. */
  readonly importCpu: ImportMeasure | undefined;
  /** The functions the bundles section measures; empty: every function of the stack. */
  readonly functions: readonly string[];
  /** Progress for the terminal (stderr), never part of the table. */
  readonly progress: (line: string) => void;
  /** Registers cleanup that must run even when the bench is stopped mid-section; runs last-in first. */
  readonly onStop: (stop: () => Promise<void>) => () => void;
}

export type BenchSectionRun = (context: BenchContext) => Promise<BenchRow[]>;
