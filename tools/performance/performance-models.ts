import type { TraceSampling } from '../../lib/stage-config';
import type { MeasuredCommand, PartitionUnits } from './consumed-capacity';

/** The units one operation consumed, in all and per partition. */
export interface OperationUnits {
  readonly operation: string;
  readonly commands: readonly string[];
  readonly units: readonly PartitionUnits[];
}

export function operationUnits(operation: string, measured: readonly MeasuredCommand[]): OperationUnits {
  const failed = measured.filter((command) => command.failed);
  if (failed.length > 0)
    throw new Error(`${operation}: ${failed.length} command(s) failed on the happy path`);
  return {
    operation,
    commands: measured.map((command) => command.command.replace(/Command$/, '')),
    units: merge(measured.flatMap((command) => command.units)),
  };
}

/** Adds the units of the same partition and item together, in order of first use. */
function merge(units: readonly PartitionUnits[]): PartitionUnits[] {
  const merged = new Map<string, PartitionUnits>();
  for (const unit of units) {
    const id = `${unit.index} ${unit.partition} ${unit.item}`;
    const known = merged.get(id);
    merged.set(
      id,
      known === undefined
        ? unit
        : {
            ...known,
            read: known.read + unit.read,
            write: known.write + unit.write,
            floor: known.floor + unit.floor,
          },
    );
  }
  return [...merged.values()];
}

export const totalRead = (units: readonly PartitionUnits[]) =>
  units.reduce((sum, unit) => sum + unit.read, 0);
export const totalWrite = (units: readonly PartitionUnits[]) =>
  units.reduce((sum, unit) => sum + unit.write, 0);

const where = (unit: PartitionUnits) =>
  `${unit.index === 'table' ? '' : `${unit.index} `}\`${unit.partition}\` › \`${unit.item}\``;

function unitsCell(units: readonly PartitionUnits[], kind: 'read' | 'write'): string {
  const used = units.filter((unit) => unit[kind] > 0);
  return used.length === 0 ? '—' : used.map((unit) => `${unit[kind]} ${where(unit)}`).join('<br>');
}

/**
 * The write units an operation cannot go below: the items it writes, each at its own size, twice
 * inside a transaction, and one unit for each index entry it must add, remove or rewrite (each
 * unit's `floor`, docs/decisions/keys-for-every-filter.md).
 */
export const floorWrite = (units: readonly PartitionUnits[]) =>
  units.reduce((sum, unit) => sum + unit.floor, 0);

/** An operation's WRU against its floor, `1.60×`; `—` for one that writes nothing. */
function overFloor(units: readonly PartitionUnits[]): string {
  const floor = floorWrite(units);
  return floor === 0 ? '—' : `${(totalWrite(units) / floor).toFixed(2)}×`;
}

/** Table: units per operation, each partition and item it touches, and its writes against their floor. */
export function renderUnitsTable(operations: readonly OperationUnits[]): string {
  const rows = operations.map(
    ({ operation, commands, units }) =>
      `| ${operation} | ${commands.join(', ') || '—'} | ${totalRead(units)} | ${totalWrite(units)} | ` +
      `${floorWrite(units)} | ${overFloor(units)} | ${unitsCell(units, 'read')} | ${unitsCell(units, 'write')} |`,
  );
  return [
    '| Operation | Commands | RRU | WRU | WRU floor | WRU ÷ floor | Read units by partition › item | Write units by partition › item |',
    '|---|---|--:|--:|--:|--:|---|---|',
    ...rows,
  ].join('\n');
}

/** One key that concentrates load: which units of which operations land on it. */
export interface HotKey {
  readonly key: string;
  readonly rate: string;
  readonly operations: readonly string[];
  readonly matches: (unit: PartitionUnits) => boolean;
  readonly kind: 'read' | 'write';
  /** How many partitions share the load (the due-delivery shards); 1 for a single key. */
  readonly spreadOver?: number;
}

/** DynamoDB's ceiling per partition, in units per second. */
export const PartitionLimit = { read: 3000, write: 1000 } as const;

/** The rate `spread` partitions allow an operation that puts `units` on them: `1,333/s`. */
export function ceilingOf(units: number, kind: 'read' | 'write', spread = 1): string {
  return `${Math.floor((PartitionLimit[kind] * spread) / units).toLocaleString('en-US')}/s`;
}

/** Table: per key, units per operation on it, the rate one partition allows and what 500/s needs. */
export function renderCeilingsTable(
  hotKeys: readonly HotKey[],
  measured: ReadonlyMap<string, OperationUnits>,
) {
  const rows = hotKeys.map((hot) => {
    const perOperation = hot.operations.reduce((sum, operation) => {
      const units = measured.get(operation)?.units;
      if (units === undefined) throw new Error(`${operation} was not measured`);
      return sum + units.filter(hot.matches).reduce((total, unit) => total + unit[hot.kind], 0);
    }, 0);
    if (perOperation === 0)
      throw new Error(`${hot.key}: no ${hot.kind} units of ${hot.operations.join(', ')}`);
    const spread = hot.spreadOver ?? 1;
    const need = 500 * perOperation;
    return (
      `| \`${hot.key}\` | ${hot.rate} | ${hot.operations.join(' + ')} | ${perOperation} ${hot.kind === 'read' ? 'RRU' : 'WRU'} | ` +
      `${ceilingOf(perOperation, hot.kind, spread)} | ${need.toLocaleString('en-US')} of ${(PartitionLimit[hot.kind] * spread).toLocaleString('en-US')} |`
    );
  });
  return [
    '| Key | Rate it bounds | Operations (per unit of rate) | Units on the key | Ceiling | Units/s at 500/s of the limit |',
    '|---|---|---|--:|--:|--:|',
    ...rows,
  ].join('\n');
}

/** The model's inputs, read from the doc's unit price table (`| what | value | per | \`name\` |`). */
export function readModelInputs(doc: string): Record<string, number> {
  const inputs: Record<string, number> = {};
  for (const match of doc.matchAll(/^\|[^|\n]+\|\s*([\d.,]+)\s*\|[^|\n]+\|\s*`([A-Za-z]+)`\s*\|$/gm)) {
    inputs[String(match[2])] = Number(String(match[1]).replace(/,/g, ''));
  }
  return inputs;
}

/** One function's part of a line: how many invocations, and the input names of their durations. */
export interface LambdaPart {
  readonly invocations: string;
  /** A warm invocation's duration. */
  readonly durationMs: string;
  /** The init phase of a cold start, billed like a duration; `coldStartShare` of invocations pay it. */
  readonly initMs: string;
}

/** A route class, or the delivery pipeline, priced per million. */
export interface CostLine {
  readonly name: string;
  readonly operations: readonly string[];
  readonly lambda: readonly LambdaPart[];
  /** API Gateway requests; each also passes the stage's web ACL and its X-Ray sampling rule. */
  readonly apiRequests: number;
  readonly sqsRequests: string | undefined;
  /** Emails SES sends, at `sesEmail` each. */
  readonly emails?: string;
  /** SES events published to the configuration set's topic and delivered to Lambda. */
  readonly snsNotifications?: string;
  readonly logBytes: string;
}

/** The stage whose traffic the model prices: the X-Ray sampling and log retention of its stage file. */
export interface PricedStage {
  readonly name: string;
  readonly traceSampling: TraceSampling;
  readonly logRetentionDays: number;
}

/** What the measured operations sent to the internet, in bytes, by operation. */
export type SentBytes = ReadonlyMap<string, number>;

export const money = (value: number) => `$${value.toFixed(2)}`;

/** A billed GB: AWS meters bytes and prices GB, read here as 2^30 bytes (a GiB). */
export const bytesPerGb = 1024 ** 3;

/** Days in the month the model prices storage and monthly charges by. */
export const daysPerMonth = 30;

/** A model input by name, or a clear error naming the row the doc's tables lack. */
export function inputOf(inputs: Record<string, number>): (name: string) => number {
  return (name) => {
    const value = inputs[name];
    if (value === undefined) throw new Error(`the doc's unit price table has no \`${name}\``);
    return value;
  };
}

/** Dollars per million of one line, by part. */
export interface LineCost {
  readonly rru: number;
  readonly wru: number;
  /** Bytes sent to the internet each: the measured answer or webhook request, and the gateway's own part. */
  readonly bytesOut: number;
  readonly dynamodb: number;
  /** Requests and warm durations. */
  readonly lambda: number;
  /** The init phase of the cold starts among them. */
  readonly lambdaInit: number;
  readonly api: number;
  readonly waf: number;
  readonly xray: number;
  readonly sqs: number;
  readonly ses: number;
  readonly sns: number;
  /** Ingestion and storage for the stage's retention. */
  readonly logs: number;
  /** The storage part of `logs`. */
  readonly logStorage: number;
  readonly dataOut: number;
  readonly total: number;
}

/** The bytes `operations` were measured sending, or a clear error naming one that was not measured. */
export function bytesSent(operations: readonly string[], sent: SentBytes): number {
  return operations.reduce((sum, operation) => {
    const bytes = sent.get(operation);
    if (bytes === undefined) throw new Error(`${operation}: what it sent was not measured`);
    return sum + bytes;
  }, 0);
}

/**
 * One line's dollars per million. Every API request passes the web ACL, which sits on the whole
 * stage, and X-Ray records `fixedRate` of them past the reservoir (the reservoir is a monthly
 * amount, priced apart); the pipeline's functions are not traced. What a line sends to the
 * internet is the measured answer (or webhook request) plus, per API request, the gateway's own
 * status line and headers; its logs are ingested once and stored, compressed, for the stage's
 * retention.
 */
export function lineCost(
  line: CostLine,
  measured: ReadonlyMap<string, OperationUnits>,
  sent: SentBytes,
  inputs: Record<string, number>,
  stage: PricedStage,
): LineCost {
  const input = inputOf(inputs);
  const units = line.operations.flatMap((operation) => {
    const found = measured.get(operation);
    if (found === undefined) throw new Error(`${operation} was not measured`);
    return found.units;
  });
  const rru = totalRead(units);
  const wru = totalWrite(units);
  const dynamodb = rru * input('readRequestUnit') + wru * input('writeRequestUnit');
  const gbSeconds = (ms: number) => (input('lambdaMemoryMb') / 1024) * (ms / 1000) * input('lambdaGbSecond');
  const lambda = line.lambda.reduce(
    (sum, { invocations, durationMs }) =>
      sum + input(invocations) * (input('lambdaRequest') + gbSeconds(input(durationMs)) * 1e6),
    0,
  );
  const lambdaInit = line.lambda.reduce(
    (sum, { invocations, initMs }) =>
      sum + input(invocations) * input('coldStartShare') * gbSeconds(input(initMs)) * 1e6,
    0,
  );
  const api = line.apiRequests * input('restApiRequest');
  const waf = line.apiRequests * input('wafRequest');
  const xray = line.apiRequests * stage.traceSampling.fixedRate * input('xrayTraceRecorded');
  const sqs = line.sqsRequests === undefined ? 0 : input(line.sqsRequests) * input('sqsRequest');
  const ses = line.emails === undefined ? 0 : input(line.emails) * input('sesEmail');
  const sns =
    line.snsNotifications === undefined
      ? 0
      : input(line.snsNotifications) * (input('snsPublish') + input('snsLambdaDelivery'));
  const logGb = (input(line.logBytes) * 1e6) / bytesPerGb;
  const logStorage =
    logGb * input('logStoredShare') * input('logStorageGbMonth') * (stage.logRetentionDays / daysPerMonth);
  const logs = logGb * input('logIngestionGb') + logStorage;
  const bytesOut = bytesSent(line.operations, sent) + line.apiRequests * input('gatewayResponseBytes');
  const dataOut = ((bytesOut * 1e6) / bytesPerGb) * input('dataTransferOutGb');
  const total = dynamodb + lambda + lambdaInit + api + waf + xray + sqs + ses + sns + logs + dataOut;
  return {
    rru,
    wru,
    bytesOut,
    dynamodb,
    lambda,
    lambdaInit,
    api,
    waf,
    xray,
    sqs,
    ses,
    sns,
    logs,
    logStorage,
    dataOut,
    total,
  };
}

/** Table: dollars per million calls (or deliveries, emails, bounces), by part, from the measured units and the inputs. */
export function renderCostTable(
  lines: readonly CostLine[],
  measured: ReadonlyMap<string, OperationUnits>,
  sent: SentBytes,
  inputs: Record<string, number>,
  stage: PricedStage,
): string {
  const rows = lines.map((line) => {
    const cost = lineCost(line, measured, sent, inputs, stage);
    const parts = [
      cost.dynamodb,
      cost.lambda,
      cost.lambdaInit,
      cost.api,
      cost.waf,
      cost.xray,
      cost.sqs,
      cost.ses,
      cost.sns,
      cost.logs,
      cost.dataOut,
    ];
    return (
      `| ${line.name} | ${cost.rru} / ${cost.wru} | ${cost.bytesOut.toLocaleString('en-US')} | ` +
      `${parts.map(money).join(' | ')} | **${money(cost.total)}** |`
    );
  });
  return [
    '| Per million | RRU / WRU each | Bytes out each | DynamoDB | Lambda | Lambda init | API Gateway | WAF | X-Ray | SQS | SES | SNS | Logs | Data out | Total |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
}

/** One way to put a gateway in front of the merchant routes, priced on a line of the cost table. */
export interface GatewayOption {
  readonly name: string;
  /** The input that prices one request of the gateway. */
  readonly gateway: 'restApiRequest' | 'httpApiRequest';
  /** A web ACL inspects every request, on the stage or on CloudFront. */
  readonly webAcl: boolean;
  /** The gateway records the stage's X-Ray sampling (REST APIs only). */
  readonly traced: boolean;
  /** CloudFront takes the request first and sends the answer on; its origin fetches are free. */
  readonly cloudFront: boolean;
}

/** Dollars per million of a line behind one gateway option, by part. */
export interface GatewayOptionCost {
  readonly gateway: number;
  readonly waf: number;
  readonly xray: number;
  readonly cloudFront: number;
  readonly dataOut: number;
  /** What no option changes: DynamoDB, Lambda (init included), SQS, SES, SNS and logs. */
  readonly rest: number;
  readonly total: number;
}

/** `cost` (the line's dollars as the cost table prices them) with the gateway parts of `option`. */
export function gatewayOptionCost(
  option: GatewayOption,
  line: CostLine,
  cost: LineCost,
  inputs: Record<string, number>,
  stage: PricedStage,
): GatewayOptionCost {
  const input = inputOf(inputs);
  const requests = line.apiRequests;
  const gateway = requests * input(option.gateway);
  const waf = option.webAcl ? requests * input('wafRequest') : 0;
  const xray = option.traced ? requests * stage.traceSampling.fixedRate * input('xrayTraceRecorded') : 0;
  const cloudFront = option.cloudFront ? requests * input('cloudFrontRequest') : 0;
  const perGb = input(option.cloudFront ? 'cloudFrontDataOutGb' : 'dataTransferOutGb');
  const dataOut = ((cost.bytesOut * 1e6) / bytesPerGb) * perGb;
  const rest = cost.dynamodb + cost.lambda + cost.lambdaInit + cost.sqs + cost.ses + cost.sns + cost.logs;
  return {
    gateway,
    waf,
    xray,
    cloudFront,
    dataOut,
    rest,
    total: gateway + waf + xray + cloudFront + dataOut + rest,
  };
}

/** `value` as a multiple of `of`: `0.44×`. */
export const times = (value: number, of: number) => `${(value / of).toFixed(2)}×`;

/**
 * Table: per million of `read` and of `write`, what each option costs by part, and its total
 * against the first option's (today's).
 */
export function renderGatewayTable(
  options: readonly GatewayOption[],
  read: { readonly line: CostLine; readonly cost: LineCost },
  write: { readonly line: CostLine; readonly cost: LineCost },
  inputs: Record<string, number>,
  stage: PricedStage,
): string {
  const priced = (of: { line: CostLine; cost: LineCost }) =>
    options.map((option) => gatewayOptionCost(option, of.line, of.cost, inputs, stage));
  const reads = priced(read);
  const writes = priced(write);
  const [todayRead, todayWrite] = [reads[0], writes[0]];
  if (todayRead === undefined || todayWrite === undefined) throw new Error('no gateway options to price');
  const rows = options.map((option, index) => {
    const r = reads[index] as GatewayOptionCost;
    const w = writes[index] as GatewayOptionCost;
    const parts = [r.gateway, r.waf, r.xray, r.cloudFront, r.dataOut, r.rest].map(money);
    return (
      `| ${option.name} | ${parts.join(' | ')} | **${money(r.total)}** | ${times(r.total, todayRead.total)} | ` +
      `${money(w.total)} | ${times(w.total, todayWrite.total)} |`
    );
  });
  return [
    `| Per million | Gateway | WAF | X-Ray | CloudFront | Data out | DynamoDB, Lambda, logs | ${read.line.name} | × today | ${write.line.name} | × today |`,
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
}

/** Seconds in the 30-day month the monthly figures assume. */
export const secondsPerMonth = daysPerMonth * 24 * 3600;

/** What one stage pays each month whatever its traffic, and the most its X-Ray reservoir adds. */
export interface StageMonthly {
  readonly stage: string;
  readonly webAclRules: number;
  readonly traceSampling: TraceSampling;
}

/**
 * Table: each stage's monthly charges besides its requests: the web ACL and its rules (a managed
 * rule group counts as one rule), and the traces its reservoir records when every second has
 * requests, the most it can add beside the per-million figures.
 */
export function renderMonthlyTable(stages: readonly StageMonthly[], inputs: Record<string, number>): string {
  const input = inputOf(inputs);
  const rows = stages.map(({ stage, webAclRules, traceSampling }) => {
    const webAcl = input('wafWebAclMonth');
    const rules = webAclRules * input('wafRuleMonth');
    const reservoirTraces = traceSampling.reservoirPerSecond * secondsPerMonth;
    const reservoir = (reservoirTraces / 1e6) * input('xrayTraceRecorded');
    return (
      `| ${stage} | ${money(webAcl)} | ${webAclRules} × ${money(input('wafRuleMonth'))} = ${money(rules)} | ` +
      `${traceSampling.reservoirPerSecond}/s, then ${percent(traceSampling.fixedRate)} | ` +
      `${money(reservoir)} | **${money(webAcl + rules + reservoir)}** |`
    );
  });
  return [
    '| Stage | Web ACL | WAF rules | X-Ray sampling (stage file) | X-Ray reservoir, at most | Total, at most |',
    '|---|--:|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
}

/** `0.01` as `1 %`. */
export const percent = (share: number) => `${Number((share * 100).toFixed(2))} %`;

/** The text between `<!-- generated:name -->` and `<!-- /generated:name -->`. */
export function generatedBlock(doc: string, name: string): string {
  const match = new RegExp(`<!-- generated:${name} -->\\n([\\s\\S]*?)\\n<!-- /generated:${name} -->`).exec(
    doc,
  );
  if (match === null) throw new Error(`the doc has no generated block "${name}"`);
  return String(match[1]);
}

export function replaceGeneratedBlock(doc: string, name: string, content: string): string {
  generatedBlock(doc, name);
  return doc.replace(
    new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(\\n<!-- /generated:${name} -->)`),
    (_, start: string, end: string) => `${start}${content}${end}`,
  );
}
