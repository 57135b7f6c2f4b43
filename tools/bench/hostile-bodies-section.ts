import { invoiceBody } from '../../test/support/invoice-requests';
import { invoiceFixtures } from '../../test/support/invoices';
import { startTestRuntime } from '../../test/support/local-runtime';
import type { BenchContext } from './bench-context';
import { type BenchRow, formatValue, rowOf, Unit } from './bench-row';
import { type RawAnswer, rawPoster } from './raw-request';
import { runningUntilStopped } from './running-until-stopped';
import { median } from './statistics';

const section = 'hostile bodies';
const rounds = 5;
/**
 * A refusal may read a hostile body (up to 256 KB) and answer a bounded error, but no more: at most
 * three times what refusing a body with one bad field costs when that body takes as long to read,
 * so what is budgeted is the checking, not the reading (docs/performance.md#the-other-budgets).
 */
const budget = { ratio: 'most', limit: 3 } as const;
/** As many keys, entries or items as fit in the 256 KB a function accepts. */
const manyKeys = 28_000;
const manyItems = 60_000;
const depth = 5_000;

interface HostileBody {
  readonly figure: string;
  readonly path: string;
  readonly hostile: string;
  /**
   * The baseline: the same route's valid body with one bad field, an unknown `padding` holding as
   * many keys, items or levels as the hostile body, in objects the key limit lets through.
   */
  readonly oneBadField: string;
  /** The same route's small body with one bad field, reported beside the figure. */
  readonly small: string;
}

/** `JSON.parse` of each side's text, in this process (the local runtime's handlers run in it). */
interface ParseTimes {
  readonly hostile: number[];
  readonly oneBadField: number[];
}

/** Milliseconds `JSON.parse` takes on `text` in this process, the least of three tries. */
function parseMs(text: string): number {
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const started = performance.now();
    JSON.parse(text);
    least = Math.min(least, performance.now() - started);
  }
  return least;
}

/**
 * How much longer the hostile body takes to parse than the baseline's, never below zero. V8 builds
 * one object of thousands of keys in dictionary mode, which parses at several times the cost of the
 * same keys in small objects; that is reading, which every refusal pays, so it joins the baseline.
 */
function extraParseMs(times: ParseTimes): number {
  return Math.max(0, median(times.hostile) - median(times.oneBadField));
}

/** Objects of at most 256 keys holding `count` keys in all: as much to parse, nothing crowded. */
function spreadMembers(count: number, value: string): string {
  const perObject = 250;
  const objects = Array.from(
    { length: Math.ceil(count / perObject) },
    (_, index) => `{${members(Math.min(perObject, count - index * perObject), value)}}`,
  );
  return `[${objects.join(',')}]`;
}

/** A JSON object text of `count` members, keys in base 36 so 28,000 of them stay under 256 KB. */
function members(count: number, value: string): string {
  return Array.from({ length: count }, (_, index) => `"${index.toString(36)}":${value}`).join(',');
}

/** `json` (an object's text) with `members` added at its end. */
function withMembers(json: string, added: string): string {
  return `${json.slice(0, -1)},${added}}`;
}

function hostileBodies(merchantId: string, refs: Parameters<typeof invoiceBody>[1]): HostileBody[] {
  const payment = JSON.stringify({
    slug: 'bench-hostile-bodies',
    amount: 1250,
    paymentMethod: { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
  });
  const invoice = JSON.stringify(invoiceBody(merchantId, refs));
  const smallPayment = JSON.stringify({ ...JSON.parse(payment), amount: 0 });
  const smallInvoice = JSON.stringify(invoiceBody(merchantId, refs, { currency: 'XXX' }));
  const items = `[${Array(manyItems).fill('0').join(',')}]`;
  const nested = `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;
  return [
    {
      figure: `${manyKeys.toLocaleString('en')} unknown keys, POST /pay/payments`,
      path: '/pay/payments',
      hostile: withMembers(payment, members(manyKeys, '0')),
      oneBadField: withMembers(payment, `"padding":${spreadMembers(manyKeys, '0')}`),
      small: smallPayment,
    },
    {
      figure: `${manyKeys.toLocaleString('en')} metadata entries, POST /invoices`,
      path: '/invoices',
      hostile: withMembers(invoice, `"metadata":{${members(manyKeys, '0')}}`),
      oneBadField: withMembers(invoice, `"padding":${spreadMembers(manyKeys, '0')}`),
      small: smallInvoice,
    },
    {
      figure: `${manyItems.toLocaleString('en')}-item array, POST /invoices`,
      path: '/invoices',
      hostile: withMembers(invoice, `"acceptedPaymentMethods":${items}`),
      oneBadField: withMembers(invoice, `"padding":${items}`),
      small: smallInvoice,
    },
    {
      figure: `${depth.toLocaleString('en')}-deep nesting, POST /invoices`,
      path: '/invoices',
      hostile: withMembers(invoice, `"metadata":{"a":${nested}}`),
      oneBadField: withMembers(invoice, `"padding":${nested}`),
      small: smallInvoice,
    },
  ];
}

/**
 * Section: the time to refuse each hostile body through the local gateway (the function's whole
 * work: parse, validate, answer) against refusing the same route's body with one bad field, as large
 * and as long to parse, alternating rounds; the worst body is what one request can make a function
 * spend.
 */
export async function hostileBodiesSection(context: BenchContext): Promise<BenchRow[]> {
  const t = await runningUntilStopped(
    context,
    startTestRuntime({ AUTH_CACHE_SECONDS: 3600 }, { dynamodb: await context.dynamodb() }),
  );
  try {
    const { api, runtime } = t.value;
    const bodies = hostileBodies(runtime.merchantId, await invoiceFixtures(api, runtime.merchantId));
    const post = rawPoster(runtime.baseUrl, runtime.apiKey);
    const refused = async (path: string, body: string): Promise<RawAnswer> => {
      const answer = await post(path, body);
      if (answer.status < 400 || answer.status >= 500)
        throw new Error(`hostile bodies: POST ${path} answered ${answer.status}, not a refusal`);
      return answer;
    };
    // Warms the authorizer's cache and each handler's module.
    for (const body of bodies) await refused(body.path, body.oneBadField);
    const answers = bodies.map(() => ({
      hostile: [] as RawAnswer[],
      oneBadField: [] as RawAnswer[],
      small: [] as RawAnswer[],
    }));
    const parses: ParseTimes[] = bodies.map(() => ({ hostile: [], oneBadField: [] }));
    for (let round = 0; round < rounds; round += 1) {
      context.progress(`hostile bodies: round ${round + 1} of ${rounds}`);
      for (const [index, body] of bodies.entries()) {
        const order =
          round % 2 === 0
            ? (['hostile', 'oneBadField', 'small'] as const)
            : (['small', 'oneBadField', 'hostile'] as const);
        for (const side of order) answers[index]?.[side].push(await refused(body.path, body[side]));
        parses[index]?.hostile.push(parseMs(body.hostile));
        parses[index]?.oneBadField.push(parseMs(body.oneBadField));
      }
    }
    return bodies.map((body, index) => {
      const { hostile, oneBadField, small } = answers[index] as (typeof answers)[number];
      const last = hostile.at(-1) as RawAnswer;
      const asLarge = median(oneBadField.map((answer) => answer.ms));
      const extraParse = extraParseMs(parses[index] as ParseTimes);
      return rowOf({
        section,
        figure: `${body.figure} refused`,
        value: median(hostile.map((answer) => answer.ms)),
        baseline: asLarge + extraParse,
        unit: Unit.ms,
        budget,
        note:
          `${formatValue(Buffer.byteLength(body.hostile), Unit.bytes)} body → ${last.status}, ${formatValue(last.bytes, Unit.bytes)} answer; ` +
          `baseline: one bad field in a body as large (${formatValue(Buffer.byteLength(body.oneBadField), Unit.bytes)}, ${formatValue(asLarge, Unit.ms)}) ` +
          `+ ${formatValue(extraParse, Unit.ms)} longer JSON.parse of this body's shape; ` +
          `a small body with one bad field: ${formatValue(median(small.map((answer) => answer.ms)), Unit.ms)}`,
      });
    });
  } finally {
    await t.stop();
  }
}
