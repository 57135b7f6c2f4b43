import { describe, expect, it } from 'vitest';
import { brokenPromises, renderSoakReport, type SoakFindings } from '../../../tools/soak/soak-findings';

const kept: SoakFindings = {
  durationSeconds: 30,
  connections: 8,
  load: { sent: 1_200, byClass: { '2xx': 1_200, '4xx': 0, '5xx': 0, other: 0 }, errors: 0 },
  acknowledged: 400,
  readBack: 400,
  numbering: [
    { invoices: 201, missing: [], repeated: [] },
    { invoices: 200, missing: [], repeated: [] },
  ],
  eventsCreated: 1_000,
  eventsAsked: 1_000,
  deliveries: {
    byStatus: { pending: 0, succeeded: 997, exhausted: 3 },
    mostAttempts: 5,
    overAttemptLimit: 0,
    received: 1_420,
    badSignatures: 0,
    duplicates: 0,
    outcomeMismatches: 0,
  },
  settleSeconds: 6,
};

function withDeliveries(changes: Partial<SoakFindings['deliveries']>): SoakFindings {
  return { ...kept, deliveries: { ...kept.deliveries, ...changes } };
}

describe('brokenPromises', () => {
  it('is empty when the service held every promise', () => {
    expect(brokenPromises(kept)).toEqual([]);
  });

  it.each<[string, SoakFindings, string]>([
    [
      'a 5xx',
      { ...kept, load: { ...kept.load, byClass: { ...kept.load.byClass, '5xx': 2 } } },
      '2 requests were answered 5xx.',
    ],
    [
      'a 4xx to a valid request',
      { ...kept, load: { ...kept.load, byClass: { ...kept.load.byClass, '4xx': 1 } } },
      '1 requests were answered neither 2xx nor 5xx, though every request of the mix is valid.',
    ],
    [
      'a request with no answer',
      { ...kept, load: { ...kept.load, errors: 3 } },
      '3 requests got no answer (connection error or timeout).',
    ],
    ['an unreadable create', { ...kept, readBack: 399 }, '1 acknowledged creates were not readable after.'],
    [
      'a gap in invoice numbers',
      { ...kept, numbering: [{ invoices: 3, missing: [2], repeated: ['INV-000001'] }] },
      'invoice numbers of 1 merchants are not 1..n: 1 missing, 1 repeated.',
    ],
    [
      'a failed event',
      { ...withDeliveries({ byStatus: { pending: 0, succeeded: 996, exhausted: 3 } }), eventsCreated: 999 },
      '1 of 1000 events failed.',
    ],
    [
      'a delivery missing',
      withDeliveries({ byStatus: { pending: 0, succeeded: 996, exhausted: 3 } }),
      '999 deliveries were made for 1000 events to one endpoint.',
    ],
    [
      'a delivery still pending',
      withDeliveries({ byStatus: { pending: 1, succeeded: 996, exhausted: 3 } }),
      '1 deliveries were still pending 6 s after the load.',
    ],
    [
      'a sixth attempt',
      withDeliveries({ overAttemptLimit: 1, mostAttempts: 6 }),
      '1 deliveries made more than 5 attempts.',
    ],
    [
      'a bad signature',
      withDeliveries({ badSignatures: 1 }),
      '1 received deliveries failed signature verification.',
    ],
    [
      'a duplicate',
      withDeliveries({ duplicates: 1 }),
      '1 deliveries were received more often than attempts were recorded.',
    ],
    [
      'a status the receiver disagrees with',
      withDeliveries({ outcomeMismatches: 1 }),
      '1 deliveries disagree with the receiver: succeeded without one accepted request, or accepted but not succeeded.',
    ],
  ])('says %s in one line', (_, findings, line) => {
    expect(brokenPromises(findings)).toEqual([line]);
  });
});

describe('renderSoakReport', () => {
  it('prints requests, status classes, deliveries by final status and the most attempts', () => {
    const report = renderSoakReport(kept, []);
    expect(report).toContain('requests sent        1200\n');
    expect(report).toContain('by status class      2xx 1200, 4xx 0, 5xx 0\n');
    expect(report).toContain('creates              400 acknowledged, 400 read back\n');
    expect(report).toContain('invoice numbers      2 of 2 merchants gapless (1..201, 1..200)\n');
    expect(report).toContain('deliveries           succeeded 997, exhausted 3, pending 0\n');
    expect(report).toContain('most attempts        5 (at most 5 allowed)\n');
    expect(report).toContain('duplicates received  0\n');
    expect(report.endsWith('\n\nevery promise kept')).toBe(true);
  });

  it('ends with one line per broken promise', () => {
    const report = renderSoakReport(kept, ['first broken.', 'second broken.']);
    expect(report.endsWith('\n\n2 promises broken:\nfirst broken.\nsecond broken.')).toBe(true);
  });
});
