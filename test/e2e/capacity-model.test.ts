import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stopRegistry } from '../../tools/cli/stop-registry';
import {
  deliveryOperations,
  endpointPartition,
  type Measurements,
  merchantPartition,
  movesWithShards,
  operationOrder,
  paidInvoices,
  paymentOperations,
  retried,
  type UnitFilter,
  unitsOn,
} from '../../tools/performance/capacity-model';
import { measureOperations } from '../../tools/performance/measure-operations';
import { handTypedFigures } from '../../tools/performance/model-figures';
import {
  type PerformanceDoc,
  PerformanceDocPaths,
  type PerformanceDocs,
  readPerformanceDocs,
  renderPerformanceDocs,
} from '../../tools/performance/performance-docs';
import { floorWrite, type OperationUnits, totalWrite } from '../../tools/performance/performance-models';
import { testDynamoDbTarget } from '../support/dynamodb';

/**
 * How far above its floor (the items it writes and the index entries it needs) a write may cost
 * (docs/decisions/keys-for-every-filter.md).
 */
const floorBudget = 1.3;

/**
 * A write allowed above the budget, with why, each checked to stay above it: none since a
 * customer's invoices moved to a keys-only index (GSI7). A write that goes over names its reason here.
 */
const overFloor: Partial<Record<string, string>> = {};

const { onStop, stopAll } = stopRegistry();
let measurements: Measurements;
let committed: PerformanceDocs;
let generated: PerformanceDocs;

// The same measurements and documents as `npm run performance-doc`, on this file's database.
beforeAll(async () => {
  measurements = await measureOperations({
    dynamodb: testDynamoDbTarget(),
    caDir: inject('testCaDir'),
    progress: () => undefined,
    onStop,
  });
  committed = await readPerformanceDocs();
  generated = renderPerformanceDocs(measurements, committed);
}, 180_000);

afterAll(stopAll);

/** The write units `operations` put on the partitions `matches` picks, as measured. */
const writesOn = (operations: readonly string[], matches: UnitFilter) =>
  unitsOn(measurements.measured, operations, matches);

describe('performance models (docs/performance.md)', () => {
  const docs = (Object.keys(PerformanceDocPaths) as PerformanceDoc[]).map((doc) => ({
    doc,
    path: PerformanceDocPaths[doc],
  }));
  it.each(docs)(
    'keeps $path as `npm run performance-doc` generates it from what it measures',
    ({ doc, path }) => {
      expect(committed[doc], `${path} is stale: run \`npm run performance-doc\` and commit the result`).toBe(
        generated[doc],
      );
    },
  );

  it('measures every operation the doc lists', () => {
    expect([...measurements.measured.keys()].sort()).toEqual([...operationOrder].sort());
  });

  it(`keeps every write within ${floorBudget}× of its floor, but those named with why`, () => {
    const ratios = operationOrder.flatMap((operation) => {
      const { units } = measurements.measured.get(operation) as OperationUnits;
      const floor = floorWrite(units);
      return floor === 0 ? [] : [{ operation, ratio: totalWrite(units) / floor }];
    });
    expect(ratios.length).toBeGreaterThan(10);
    for (const { operation, ratio } of ratios) {
      const reason = overFloor[operation];
      if (reason === undefined) expect(ratio, operation).toBeLessThanOrEqual(floorBudget);
      else expect(ratio, `${operation}: ${reason}`).toBeGreaterThan(floorBudget);
    }
    for (const named of Object.keys(overFloor)) expect(operationOrder).toContain(named);
  });

  it('types no figure of units, dollars or rate by hand in the model’s prose, nor in the gateway decision', () => {
    expect(handTypedFigures(committed.performance, '## Cost and capacity models')).toEqual([]);
    expect(handTypedFigures(committed.decision, '# ')).toEqual([]);
  });

  it('finds no room for 500 payments/s of one merchant, nor 500 deliveries/s to one endpoint, on one shard', () => {
    // At the ceiling is no room: the merchant's other writes share the partition.
    expect(500 * writesOn(['createSandboxPayment'], merchantPartition)).toBeGreaterThanOrEqual(1000);
    expect(500 * writesOn(['payInvoice'], merchantPartition)).toBeGreaterThan(1000);
    expect(500 * writesOn(deliveryOperations, endpointPartition)).toBeGreaterThan(1000);
  });

  it('finds room for 500 payments/s of one merchant, card or pay link, and 500 refunds/s, over 8 write shards', () => {
    // Only the counters stay behind in shard 0, and no payment or refund writes them.
    for (const operation of paymentOperations) {
      expect(writesOn([operation], movesWithShards)).toBe(writesOn([operation], merchantPartition));
      expect((500 * writesOn([operation], movesWithShards)) / 8).toBeLessThanOrEqual(1000);
    }
    // All three at 500/s at once fit the 16 shards a merchant may have.
    expect((500 * writesOn(paymentOperations, movesWithShards)) / 16).toBeLessThanOrEqual(1000);
    expect((500 * writesOn(['payInvoice'], paidInvoices)) / 8).toBeLessThanOrEqual(1000);
  });

  it('finds room for 500 deliveries/s to one endpoint, each retried once, over 4 delivery shards', () => {
    const perDelivery = writesOn(retried, endpointPartition);
    expect((500 * perDelivery) / 4).toBeLessThanOrEqual(1000);
    // A delivery stays under 1 KB when leased (no stored nulls): 1 WRU a write after its creation's 2.
    expect(perDelivery).toBe(6);
  });
});
