import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runSoak } from '../../tools/soak/run-soak';
import { brokenPromises, type SoakFindings } from '../../tools/soak/soak-findings';
import { testDynamoDbTarget } from '../support/dynamodb';
import { runToEnd } from '../support/spawned-process';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const eventCount = 100;
const stops: (() => Promise<void>)[] = [];
let findings: SoakFindings;

// The short version of `npm run soak`: 3 s of load and 100 events, on the suite's DynamoDB Local.
beforeAll(async () => {
  findings = await runSoak(
    { durationSeconds: 3, eventCount, settleTimeoutSeconds: 90 },
    {
      dynamodb: async () => testDynamoDbTarget(),
      caDir: inject('testCaDir'),
      progress: () => undefined,
      onStop: (stop) => {
        stops.push(stop);
        return () => undefined;
      },
    },
  );
}, 180_000);

afterAll(async () => {
  // Only what a failed run left behind: a finished run has stopped everything already.
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
});

describe('the load test', () => {
  it('answers every request of creates, gets and lists, none with a 5xx', () => {
    expect(findings.load.sent).toBeGreaterThan(0);
    expect(findings.load.byClass['5xx']).toBe(0);
    expect(findings.load.byClass['4xx'] + findings.load.byClass.other).toBe(0);
    expect(findings.load.errors).toBe(0);
  });

  it('reads back every acknowledged create with the number it was given', () => {
    expect(findings.acknowledged).toBeGreaterThan(0);
    expect(findings.readBack).toBe(findings.acknowledged);
  });

  it('numbers each merchant’s invoices 1..n with no gap or repeat', () => {
    expect(findings.numbering.length).toBeGreaterThan(1);
    const invoices = findings.numbering.reduce((sum, gaps) => sum + gaps.invoices, 0);
    // Every acknowledged create is in the table, beside the warm-up's and any the load's end cut off.
    expect(invoices).toBeGreaterThan(findings.acknowledged);
    expect(findings.numbering.map(({ missing, repeated }) => ({ missing, repeated }))).toEqual(
      findings.numbering.map(() => ({ missing: [], repeated: [] })),
    );
  });

  it('ends every delivery of the 100 events succeeded or exhausted, none after more than 5 attempts', () => {
    expect(findings.eventsCreated).toBe(eventCount);
    const { byStatus } = findings.deliveries;
    expect(byStatus.pending).toBe(0);
    expect(byStatus.succeeded + byStatus.exhausted).toBe(eventCount);
    expect(findings.deliveries.overAttemptLimit).toBe(0);
    expect(findings.deliveries.mostAttempts).toBeLessThanOrEqual(5);
  });

  it('retried the deliveries the receiver failed', () => {
    // At 30 % failures, 100 deliveries that all got through at the first try would take 0.7^100.
    expect(findings.deliveries.mostAttempts).toBeGreaterThan(1);
    expect(findings.deliveries.received).toBeGreaterThan(eventCount);
  });

  it('signed every request validly, and each succeeded delivery was accepted once', () => {
    expect(findings.deliveries.badSignatures).toBe(0);
    expect(findings.deliveries.outcomeMismatches).toBe(0);
  });

  it('received no delivery more often than it recorded attempts', () => {
    expect(findings.deliveries.duplicates).toBe(0);
  });

  it('finds no broken promise', () => {
    expect(brokenPromises(findings)).toEqual([]);
  });
});

describe('npm run soak', () => {
  it('prints its usage for --help', async () => {
    const run = await runToEnd('npm', ['run', '-s', 'soak', '--', '--help'], {
      cwd: repoRoot,
      env: { ...process.env },
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run soak -- \[options\]$/m);
    expect(run.stdout).toMatch(/^ {2}--duration <s> /m);
  });
});
