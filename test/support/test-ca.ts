import {
  createLocalCa,
  type LocalCa,
  LocalCaFiles,
  loadLocalCa,
} from '../../tools/webhook-receiver/local-ca';

/** A throwaway certificate authority and the `localhost` server certificate it signed, as files and PEM. */
export type TestCa = LocalCa;

export const TestCaFiles = LocalCaFiles;

/**
 * Makes (or, when `dir` already holds a valid set, reuses) the test run's CA and its `localhost`
 * server certificate, valid for one day: `createLocalCa` with a test CA's name.
 */
export function createTestCa(dir: string): Promise<TestCa> {
  return createLocalCa(dir, { validityDays: 1, caName: 'merchant-payments test CA' });
}

/** Reads the set `createTestCa` left in `dir`; rejects when a file is missing. Never generates. */
export function loadTestCa(dir: string): Promise<TestCa> {
  return loadLocalCa(dir);
}
