import { describe, expect, it } from 'vitest';
import {
  type CostLine,
  floorWrite,
  type GatewayOption,
  gatewayOptionCost,
  lineCost,
  type OperationUnits,
  type PricedStage,
  renderUnitsTable,
} from '../../../tools/performance/performance-models';

/** Round numbers, so each part below can be worked out by hand. */
const inputs = {
  one: 1,
  lambdaMemoryMb: 1024,
  routeMs: 100,
  routeInitMs: 1000,
  coldStartShare: 0.01,
  lambdaRequest: 0.2,
  lambdaGbSecond: 0.00001,
  readRequestUnit: 0.125,
  writeRequestUnit: 0.625,
  restApiRequest: 3.5,
  wafRequest: 0.6,
  xrayTraceRecorded: 5,
  sqsRequest: 0.4,
  logBytesPerApiCall: 1024 ** 3 / 1e6,
  logIngestionGb: 0.5,
  logStorageGbMonth: 0.03,
  logStoredShare: 0.1,
  gatewayResponseBytes: 1024 ** 3 / 1e6 / 2,
  dataTransferOutGb: 0.09,
  httpApiRequest: 1,
  cloudFrontRequest: 1,
  cloudFrontDataOutGb: 0.085,
};

const read: CostLine = {
  name: 'read',
  operations: ['getThing'],
  lambda: [{ invocations: 'one', durationMs: 'routeMs', initMs: 'routeInitMs' }],
  apiRequests: 1,
  sqsRequests: undefined,
  logBytes: 'logBytesPerApiCall',
};
const measured = new Map<string, OperationUnits>([
  ['getThing', { operation: 'getThing', commands: ['GetItem'], units: [] }],
]);
const stage: PricedStage = {
  name: 'production',
  traceSampling: { reservoirPerSecond: 1, fixedRate: 0.01 },
  logRetentionDays: 60,
};

describe('lineCost', () => {
  // Each operation's answer is half a GiB per million calls here, as is the gateway's own part.
  const sent = new Map([['getThing', 1024 ** 3 / 1e6 / 2]]);
  const cost = lineCost(read, measured, sent, inputs, stage);

  it('bills the cold starts’ init phase like a duration, apart from the warm one', () => {
    // 1 GB × 0.1 s × $0.00001 a GB-second × 1e6, plus the requests.
    expect(cost.lambda).toBeCloseTo(0.2 + 1, 10);
    // 1 % of a million invocations × 1 GB × 1 s × $0.00001.
    expect(cost.lambdaInit).toBeCloseTo(0.1, 10);
  });

  it('prices what a line sends to the internet per GiB, the gateway’s own bytes included', () => {
    expect(cost.bytesOut).toBe(1024 ** 3 / 1e6);
    expect(cost.dataOut).toBeCloseTo(0.09, 10);
  });

  it('prices logs per GiB ingested and per GiB-month stored, compressed, for the stage’s retention', () => {
    // 1 GiB per million: $0.50 ingested; 0.1 GiB stored for two 30-day months at $0.03.
    expect(cost.logStorage).toBeCloseTo(0.1 * 0.03 * 2, 10);
    expect(cost.logs).toBeCloseTo(0.5 + 0.006, 10);
  });

  it('adds every part into the total', () => {
    const parts = [cost.dynamodb, cost.lambda, cost.lambdaInit, cost.api, cost.waf, cost.xray, cost.sqs];
    const sum = [...parts, cost.logs, cost.dataOut].reduce((total, part) => total + part, 0);
    expect(cost.total).toBeCloseTo(sum, 10);
    expect(cost.api + cost.waf + cost.xray).toBeCloseTo(3.5 + 0.6 + 0.05, 10);
  });

  it('names the operation whose bytes were not measured', () => {
    expect(() => lineCost(read, measured, new Map(), inputs, stage)).toThrow(
      'getThing: what it sent was not measured',
    );
  });
});

describe('gatewayOptionCost', () => {
  const sent = new Map([['getThing', 1024 ** 3 / 1e6 / 2]]);
  const cost = lineCost(read, measured, sent, inputs, stage);
  const option = (overrides: Partial<GatewayOption>): GatewayOption => ({
    name: 'today',
    gateway: 'restApiRequest',
    webAcl: true,
    traced: true,
    cloudFront: false,
    ...overrides,
  });

  it('prices today’s gateway as the cost table does', () => {
    expect(gatewayOptionCost(option({}), read, cost, inputs, stage).total).toBeCloseTo(cost.total, 10);
  });

  it('swaps the gateway parts only: request price, inspection, tracing, CloudFront and its data rate', () => {
    const http = gatewayOptionCost(
      option({ gateway: 'httpApiRequest', webAcl: false, traced: false }),
      read,
      cost,
      inputs,
      stage,
    );
    expect(http.total).toBeCloseTo(cost.total - 3.5 - 0.6 - 0.05 + 1, 10);
    const edge = gatewayOptionCost(
      option({ gateway: 'httpApiRequest', traced: false, cloudFront: true }),
      read,
      cost,
      inputs,
      stage,
    );
    // One GiB out per million calls, at CloudFront's rate instead of the region's.
    expect(edge.dataOut).toBeCloseTo(0.085, 10);
    expect(edge.total).toBeCloseTo(cost.total - 3.5 - 0.05 + 1 + 1 - 0.09 + 0.085, 10);
  });
});

describe('the write floor of an operation', () => {
  // The invoice's entry moves to the issued list (1 unit at least) and is rewritten in the customer's
  // list only because that index projects every attribute (none needed).
  const units = [
    { index: 'table', partition: 'MERCHANT#<mer>', item: 'INVOICE#<inv>', read: 1, write: 4, floor: 4 },
    { index: 'table', partition: 'IDEMPOTENCY#<hash>', item: 'IDEMPOTENCY', read: 0, write: 2, floor: 2 },
    {
      index: 'GSI1',
      partition: 'MERCHANT#<mer>#INVOICES#issued',
      item: '<inv>',
      read: 0,
      write: 2,
      floor: 1,
    },
    {
      index: 'GSI2',
      partition: 'MERCHANT#<mer>#CUSTOMER#<cust>#INVOICES',
      item: '<inv>',
      read: 0,
      write: 2,
      floor: 0,
    },
  ];

  const invoiceRead = {
    index: 'table',
    partition: 'MERCHANT#<mer>',
    item: 'INVOICE#<inv>',
    read: 1,
    write: 0,
    floor: 0,
  };

  it('counts the items written, as the transaction bills them, and each index entry the design needs', () => {
    expect(floorWrite(units)).toBe(7);
    expect(floorWrite(units.filter((unit) => unit.index !== 'table'))).toBe(1);
  });

  it('shows each operation beside its floor, and a dash for one that writes nothing', () => {
    const table = renderUnitsTable([
      { operation: 'issueInvoice', commands: ['GetItem', 'TransactWriteItems'], units },
      {
        operation: 'getInvoice',
        commands: ['GetItem'],
        units: [invoiceRead],
      },
    ]);
    expect(table).toContain('| issueInvoice | GetItem, TransactWriteItems | 1 | 10 | 7 | 1.43× |');
    expect(table).toContain('| getInvoice | GetItem | 1 | 0 | 0 | — |');
  });
});
