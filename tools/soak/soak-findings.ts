import { attemptLimit, type DeliveryFigures } from './delivery-figures';
import type { LoadFigures } from './invoice-load';
import type { NumberingGaps } from './invoice-numbering';

/** Everything a soak run found, from which the report and the broken promises are derived. */
export interface SoakFindings {
  readonly durationSeconds: number;
  readonly connections: number;
  readonly load: Omit<LoadFigures, 'creates'>;
  /** Creates answered 201. */
  readonly acknowledged: number;
  /** Of those, how many a GET after the load returned with the same invoice number. */
  readonly readBack: number;
  /** Per merchant: how many invoices the table holds and the gaps in their numbers. */
  readonly numbering: readonly (NumberingGaps & { readonly invoices: number })[];
  /** Events the payout creates emitted (answered 2xx) of those asked for. */
  readonly eventsCreated: number;
  readonly eventsAsked: number;
  readonly deliveries: DeliveryFigures;
  /** Seconds waited after the load for every delivery to be final. */
  readonly settleSeconds: number;
}

/** One line per promise the run broke; none when the service held up. */
export function brokenPromises(findings: SoakFindings): string[] {
  const broken: string[] = [];
  const { load, deliveries } = findings;
  if (load.byClass['5xx'] > 0) broken.push(`${load.byClass['5xx']} requests were answered 5xx.`);
  if (load.byClass['4xx'] + load.byClass.other > 0) {
    broken.push(
      `${load.byClass['4xx'] + load.byClass.other} requests were answered neither 2xx nor 5xx, though every request of the mix is valid.`,
    );
  }
  if (load.errors > 0) broken.push(`${load.errors} requests got no answer (connection error or timeout).`);
  if (findings.readBack < findings.acknowledged) {
    broken.push(`${findings.acknowledged - findings.readBack} acknowledged creates were not readable after.`);
  }
  const gapped = findings.numbering.filter((gaps) => gaps.missing.length + gaps.repeated.length > 0);
  if (gapped.length > 0) {
    const missing = gapped.reduce((sum, gaps) => sum + gaps.missing.length, 0);
    const repeated = gapped.reduce((sum, gaps) => sum + gaps.repeated.length, 0);
    broken.push(
      `invoice numbers of ${gapped.length} merchants are not 1..n: ${missing} missing, ${repeated} repeated.`,
    );
  }
  if (findings.eventsCreated < findings.eventsAsked) {
    broken.push(`${findings.eventsAsked - findings.eventsCreated} of ${findings.eventsAsked} events failed.`);
  }
  const total = deliveries.byStatus.pending + deliveries.byStatus.succeeded + deliveries.byStatus.exhausted;
  if (total !== findings.eventsCreated) {
    broken.push(`${total} deliveries were made for ${findings.eventsCreated} events to one endpoint.`);
  }
  if (deliveries.byStatus.pending > 0) {
    broken.push(
      `${deliveries.byStatus.pending} deliveries were still pending ${findings.settleSeconds} s after the load.`,
    );
  }
  if (deliveries.overAttemptLimit > 0) {
    broken.push(`${deliveries.overAttemptLimit} deliveries made more than ${attemptLimit} attempts.`);
  }
  if (deliveries.badSignatures > 0) {
    broken.push(`${deliveries.badSignatures} received deliveries failed signature verification.`);
  }
  if (deliveries.duplicates > 0) {
    broken.push(`${deliveries.duplicates} deliveries were received more often than attempts were recorded.`);
  }
  if (deliveries.outcomeMismatches > 0) {
    broken.push(
      `${deliveries.outcomeMismatches} deliveries disagree with the receiver: succeeded without one accepted request, or accepted but not succeeded.`,
    );
  }
  return broken;
}

/** The report, a line per figure: what was sent, what came back, what the checks found. */
export function renderSoakReport(findings: SoakFindings, broken: readonly string[]): string {
  const { load, deliveries } = findings;
  const merchants = findings.numbering;
  const gapless = merchants.filter((gaps) => gaps.missing.length + gaps.repeated.length === 0).length;
  const rows: [string, string][] = [
    ['load', `${findings.connections} connections, ${findings.durationSeconds} s`],
    ['requests sent', String(load.sent)],
    ['by status class', `2xx ${load.byClass['2xx']}, 4xx ${load.byClass['4xx']}, 5xx ${load.byClass['5xx']}`],
    ['5xx', String(load.byClass['5xx'])],
    ['errors', String(load.errors)],
    ['creates', `${findings.acknowledged} acknowledged, ${findings.readBack} read back`],
    [
      'invoice numbers',
      `${gapless} of ${merchants.length} merchants gapless (${merchants.map((gaps) => `1..${gaps.invoices}`).join(', ')})`,
    ],
    ['events', `${findings.eventsCreated} of ${findings.eventsAsked} created`],
    [
      'deliveries',
      `succeeded ${deliveries.byStatus.succeeded}, exhausted ${deliveries.byStatus.exhausted}, pending ${deliveries.byStatus.pending}`,
    ],
    ['most attempts', `${deliveries.mostAttempts} (at most ${attemptLimit} allowed)`],
    ['requests received', `${deliveries.received}, ${deliveries.badSignatures} with a bad signature`],
    ['duplicates received', String(deliveries.duplicates)],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  const lines = rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`);
  const verdict =
    broken.length === 0 ? 'every promise kept' : `${broken.length} promises broken:\n${broken.join('\n')}`;
  return `${lines.join('\n')}\n\n${verdict}`;
}
