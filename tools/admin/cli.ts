import { parseArgs } from 'node:util';
import { Stage } from '../../functions/config';
import { isValidEmail } from '../../functions/domain/email';
import { IdPrefix, isTypeId } from '../../functions/domain/ids';
import { maxShardCount } from '../../functions/domain/shard-history';
import { SettingError } from '../../functions/settings/setting';
import { createDynamoDbClient } from '../../functions/store/client';
import { ExitCode, oneLine, UsageError } from '../cli/command-failure';
import { AuthorizerCacheFlushError, flushAuthorizerCacheAfter } from './authorizer-cache';
import { redriveDeliveryDeadLetters } from './dead-letter-redrive';
import { raiseDeliveryShardCount } from './delivery-shards';
import { showDelivery } from './delivery-view';
import { defaultFailuresLimit, endpointFailures, failuresWindow } from './endpoint-failures';
import { restoreItems, shownKeysPerKind } from './items-restore';
import { rekeyItems } from './list-keys';
import { raiseMerchantShardCount } from './merchant-shards';
import {
  AdminError,
  createKey,
  createMerchant,
  keyIdOfPrefixOrUndefined,
  keyPrefixForm,
  listKeys,
  parseDuration,
  revokeKey,
  rotateKeys,
  setMerchantContacts,
} from './operations';
import { runReconciler } from './reconciler-run';
import type { ItemSelection } from './restored-item-sources';
import { replayLimit, replayRouterFailures } from './router-replay';
import { type AdminSettings, readAdminSettings } from './settings';
import { type AdminEnv, type AdminTarget, resolveTarget, type TargetSelection, withTarget } from './target';

/** The admin CLI's outside world, injected so tests run it in-process and read what it printed. */
export interface AdminIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: AdminEnv;
}

/** The command line itself is wrong: exit 2 with one line naming the command's form, before anything is read or written. */
export class AdminUsageError extends UsageError {
  readonly command: CommandName | undefined;

  constructor(message: string, options: { command?: CommandName | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.command = options.command;
  }
}

const optionConfig = {
  name: { type: 'string' },
  endpoint: { type: 'string' },
  delivery: { type: 'string' },
  count: { type: 'string' },
  limit: { type: 'string' },
  merchant: { type: 'string' },
  key: { type: 'string' },
  'expires-in': { type: 'string' },
  'expire-old-in': { type: 'string' },
  'from-table': { type: 'string' },
  'from-key': { type: 'string' },
  'to-key': { type: 'string' },
  'support-email': { type: 'string' },
  'notification-email': { type: 'string' },
  apply: { type: 'boolean' },
  overwrite: { type: 'boolean' },
  local: { type: 'boolean' },
  stage: { type: 'string' },
  table: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type OptionName = keyof typeof optionConfig;
type GivenOptions = Partial<Record<OptionName, string | true>>;

/** Options every command takes: where to act and how to print. */
const targetOptions: readonly OptionName[] = ['local', 'stage', 'table', 'json'];
/** A command of the deployed stage only takes no table, and names --local only to refuse it. */
const stageOnlyOptions: readonly OptionName[] = ['local', 'stage', 'json'];

/** What one command needs, and how it turns checked options into the object it prints. */
interface CommandSpec {
  readonly synopsis: string;
  readonly summary: string;
  readonly required: readonly OptionName[];
  readonly optional: readonly OptionName[];
  /** Set for a command of the deployed stage only (--local refused): why the local runtime has no counterpart. */
  readonly stageOnly?: string;
  /** Checks option values (exit 2 when wrong) and returns the action to run against the target. */
  readonly plan: (options: GivenOptions) => (target: AdminTarget) => Promise<object>;
}

const commands = {
  'merchants create': {
    synopsis: 'merchants create --name NAME',
    summary: 'create a merchant',
    required: ['name'],
    optional: [],
    plan: (options) => async () => {
      const merchant = await createMerchant(text(options, 'name'));
      return { merchantId: merchant.merchantId, name: merchant.name, createdAt: merchant.createdAt };
    },
  },
  'merchants contacts': {
    synopsis: 'merchants contacts --merchant ID [--support-email ADDRESS] [--notification-email ADDRESS]',
    summary: "set a merchant's reply-to and notification addresses ('' removes one)",
    required: ['merchant'],
    optional: ['support-email', 'notification-email'],
    plan: (options) => {
      const contacts = {
        supportEmail: contactAddress(options, 'support-email'),
        notificationEmail: contactAddress(options, 'notification-email'),
      };
      return async () => setMerchantContacts(text(options, 'merchant'), contacts);
    },
  },
  'keys create': {
    synopsis: 'keys create --merchant ID [--expires-in 24h]',
    summary: "create a key of the target's stage, shown once",
    required: ['merchant'],
    optional: ['expires-in'],
    plan: (options) => {
      const expiresInSeconds = duration(options, 'expires-in');
      return async (target) =>
        shownKey(await createKey(text(options, 'merchant'), target.stage, { expiresInSeconds }));
    },
  },
  'keys list': {
    synopsis: 'keys list --merchant ID',
    summary: "list a merchant's keys: prefix, status, expiry",
    required: ['merchant'],
    optional: [],
    plan: (options) => async () => {
      const { items } = await listKeys(text(options, 'merchant'));
      return {
        items: items.map((item) => ({
          keyPrefix: item.keyPrefix,
          status: item.status,
          createdAt: item.createdAt,
          expiresAt: item.expiresAt,
        })),
      };
    },
  },
  'keys revoke': {
    synopsis: 'keys revoke --key PREFIX',
    summary: 'revoke a key by its prefix (merchant_sbx…)',
    required: ['key'],
    optional: [],
    plan: (options) => {
      const prefix = keyPrefix(options);
      return async (target) => {
        const revoked = await revokeKey(prefix);
        const result = { keyPrefix: revoked.keyPrefix, status: revoked.status };
        return flushAuthorizerCacheAfter(target, result, `key ${revoked.keyPrefix} is revoked in the table`);
      };
    },
  },
  'keys rotate': {
    synopsis: 'keys rotate --merchant ID --expire-old-in 24h',
    summary: 'new key; older keys expire after the grace',
    required: ['merchant', 'expire-old-in'],
    optional: [],
    plan: (options) => {
      const expireOldInSeconds = duration(options, 'expire-old-in') ?? 0;
      return async (target) => {
        const merchantId = text(options, 'merchant');
        const created = await rotateKeys(merchantId, target.stage, { expireOldInSeconds });
        const change = `key ${created.keyPrefix} is created and the older keys of ${merchantId} expire as set in the table`;
        return flushAuthorizerCacheAfter(target, shownKey(created), change);
      };
    },
  },
  'endpoints shards': {
    synopsis: 'endpoints shards --endpoint ID --count N [--merchant ID]',
    summary: `raise an endpoint's delivery partitions (1–${maxShardCount}), from 10 min on`,
    required: ['endpoint', 'count'],
    optional: ['merchant'],
    plan: (options) => {
      const count = shardCount(options);
      const merchantId = typeof options.merchant === 'string' ? options.merchant : undefined;
      return async () => raiseDeliveryShardCount(text(options, 'endpoint'), count, { merchantId });
    },
  },
  'merchants shards': {
    synopsis: 'merchants shards --merchant ID --count N',
    summary: `raise a merchant's payment and invoice partitions (1–${maxShardCount}), from 10 min on`,
    required: ['merchant', 'count'],
    optional: [],
    plan: (options) => {
      const count = shardCount(options);
      return async () => raiseMerchantShardCount(text(options, 'merchant'), count);
    },
  },
  'deliveries show': {
    synopsis: 'deliveries show --delivery ID --endpoint ID --merchant ID',
    summary: 'a delivery with its attempts: time, status code, error, duration',
    required: ['delivery', 'endpoint', 'merchant'],
    optional: [],
    plan: (options) => async () =>
      showDelivery(text(options, 'merchant'), text(options, 'endpoint'), text(options, 'delivery')),
  },
  'endpoints failures': {
    synopsis: 'endpoints failures --endpoint ID --merchant ID [--limit N]',
    summary: `failed attempts among an endpoint's newest ${failuresWindow} deliveries, newest first`,
    required: ['endpoint', 'merchant'],
    optional: ['limit'],
    plan: (options) => {
      const limit = limitOf(options, failuresWindow, defaultFailuresLimit);
      return async () => endpointFailures(text(options, 'merchant'), text(options, 'endpoint'), limit);
    },
  },
  'queues redrive': {
    synopsis: 'queues redrive',
    summary: 'move the delivery dead-letter queue back into the delivery queue',
    required: [],
    optional: [],
    plan: () => redriveDeliveryDeadLetters,
  },
  'reconciler run': {
    synopsis: 'reconciler run',
    summary: 're-enqueue overdue pending deliveries now; prints {requeued: n}',
    required: [],
    optional: [],
    plan: () => runReconciler,
  },
  'router replay': {
    synopsis: 'router replay [--limit N]',
    summary: 'replay the router-failures messages from the table stream (--stage only)',
    required: [],
    optional: ['limit'],
    stageOnly: "the local runtime's stream poller has no failure queue",
    plan: (options) => replayRouterFailures(limitOf(options, replayLimit.max, replayLimit.default)),
  },
  'items restore': {
    synopsis:
      'items restore --from-table NAME (--merchant ID | --from-key PK --to-key PK) [--apply [--overwrite]]',
    summary: "copy a merchant's or a key range's lost items back from a restored table (dry run first)",
    required: ['from-table'],
    optional: ['merchant', 'from-key', 'to-key', 'apply', 'overwrite'],
    plan: (options) => {
      const restoredTable = text(options, 'from-table');
      const selection = itemSelection(options);
      const apply = options.apply === true;
      const overwrite = options.overwrite === true;
      if (overwrite && !apply) {
        throw new AdminUsageError(
          '--overwrite goes with --apply: a dry run writes nothing (give --apply --overwrite, or neither for the dry run)',
        );
      }
      return async (target) => {
        if (restoredTable === target.tableName) {
          throw new AdminUsageError(
            `--from-table must name the restored table, not the live table ${restoredTable}`,
          );
        }
        // Its own plain client: items are compared and written back exactly as DynamoDB keeps them.
        const client = createDynamoDbClient(target.dynamodbEndpoint, target.dynamodbAccessKeyId, {
          maxAttempts: restoreMaxAttempts,
        });
        try {
          const liveTable = target.tableName;
          return await restoreItems({
            client,
            restoredTable,
            liveTable,
            selection,
            apply,
            overwrite,
            now: new Date(),
          });
        } finally {
          client.destroy();
        }
      };
    },
  },
  'items rekey': {
    synopsis: 'items rekey [--apply]',
    summary: "give items written by an earlier release this release's list keys (dry run first)",
    required: [],
    optional: ['apply'],
    plan: (options) => {
      const apply = options.apply === true;
      return async (target) => {
        const client = createDynamoDbClient(target.dynamodbEndpoint, target.dynamodbAccessKeyId, {
          maxAttempts: restoreMaxAttempts,
        });
        try {
          return await rekeyItems({ client, tableName: target.tableName, apply });
        } finally {
          client.destroy();
        }
      };
    },
  },
} as const satisfies Record<string, CommandSpec>;

/** An address option: a valid email, '' to remove the address, or absent to leave it. */
function contactAddress(options: GivenOptions, name: 'support-email' | 'notification-email') {
  const value = options[name];
  if (value === undefined) return undefined;
  if (value === true || value === '') return value === '' ? null : undefined;
  if (!isValidEmail(value))
    throw new AdminUsageError(`--${name} must be an email address, or '' to remove it`);
  return value;
}

/** A bulk copy meets throttling more than one write does: the SDK retries each request up to this often. */
const restoreMaxAttempts = 10;

type CommandName = keyof typeof commands;

/**
 * The README's field order for `keys create` and `keys rotate`, and the only place an API key is ever
 * printed.
 */
function shownKey(key: Awaited<ReturnType<typeof createKey>>) {
  return {
    apiKey: key.apiKey,
    keyPrefix: key.keyPrefix,
    merchantId: key.merchantId,
    stage: key.stage,
    expiresAt: key.expiresAt,
  };
}

function text(options: GivenOptions, name: OptionName): string {
  const value = options[name];
  if (typeof value !== 'string') throw new AdminUsageError(`--${name} needs a value`);
  return value;
}

/** `--key`, checked for the form of a key prefix: a malformed one is a wrong command line. */
function keyPrefix(options: GivenOptions): string {
  const value = text(options, 'key');
  if (keyIdOfPrefixOrUndefined(value) === undefined)
    throw new AdminUsageError(`--key must be ${keyPrefixForm}, not "${value}"`);
  return value;
}

/** `--merchant`, or `--from-key` with `--to-key`: exactly one way to choose the items. */
function itemSelection(options: GivenOptions): ItemSelection {
  const byRange = options['from-key'] !== undefined || options['to-key'] !== undefined;
  if (options.merchant !== undefined && byRange) {
    throw new AdminUsageError('give either --merchant or --from-key with --to-key, not both');
  }
  if (options.merchant !== undefined) {
    const merchantId = text(options, 'merchant');
    if (!isTypeId(merchantId, IdPrefix.merchant))
      throw new AdminUsageError(`--merchant must be a merchant id (mer_…), not "${merchantId}"`);
    return { kind: 'merchant', merchantId };
  }
  if (!byRange)
    throw new AdminUsageError('choose the items: --merchant ID, or --from-key PK with --to-key PK');
  if (options['from-key'] === undefined || options['to-key'] === undefined) {
    throw new AdminUsageError(
      '--from-key and --to-key go together: the first and last partition key to copy',
    );
  }
  const fromKey = text(options, 'from-key');
  const toKey = text(options, 'to-key');
  // DynamoDB orders strings by their UTF-8 bytes, which JavaScript's < does not always follow.
  if (Buffer.compare(Buffer.from(fromKey), Buffer.from(toKey)) > 0) {
    throw new AdminUsageError(`--from-key "${fromKey}" sorts after --to-key "${toKey}"`);
  }
  return { kind: 'keyRange', fromKey, toKey };
}

function shardCount(options: GivenOptions): number {
  const value = text(options, 'count');
  const count = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(count >= 1 && count <= maxShardCount)) {
    throw new AdminUsageError(`--count must be a whole number from 1 to ${maxShardCount}, not "${value}"`);
  }
  return count;
}

function limitOf(options: GivenOptions, max: number, byDefault: number): number {
  const value = options.limit;
  if (typeof value !== 'string') return byDefault;
  const limit = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= max)) {
    throw new AdminUsageError(`--limit must be a whole number from 1 to ${max}, not "${value}"`);
  }
  return limit;
}

function duration(options: GivenOptions, name: OptionName): number | undefined {
  const value = options[name];
  if (typeof value !== 'string') return undefined;
  try {
    return parseDuration(value);
  } catch (error) {
    if (error instanceof AdminError)
      throw new AdminUsageError(`--${name}: ${error.message}`, { cause: error });
    throw error;
  }
}

const program = 'npm run -s admin --';
const targetSynopsis = '(--local | --stage sandbox|production [--table NAME]) [--json]';
const stageOnlySynopsis = '--stage sandbox|production [--json]';

/** The summary column starts here; a longer synopsis has its summary on the next line. */
const synopsisWidth = 62;

function commandLine(command: CommandSpec): string {
  if (command.synopsis.length + 2 <= synopsisWidth)
    return `  ${command.synopsis.padEnd(synopsisWidth)}${command.summary}`;
  return `  ${command.synopsis}\n  ${' '.repeat(synopsisWidth)}${command.summary}`;
}

export const helpText = `Usage: ${program} <command> [options] ${targetSynopsis}

Commands:
${Object.values(commands).map(commandLine).join('\n')}

keys revoke and keys rotate then flush the authorizer cache (API Gateway's with --stage, the
runtime's with --local), so a revoked or expired key is refused from the very next request.
queues redrive and reconciler run act on the running runtime with --local (through the
operator.sock in its state folder), and with --stage on the stack's queues (an SQS message move
task from MerchantPayments-STAGE-delivery-dlq to MerchantPayments-STAGE-delivery) and its function
(MerchantPayments-STAGE-reconciler, invoked and waited for).
items restore compares the items chosen in --from-table (a table restored beside the stage's, see
docs/operations.md "Restoring the table to a point in time") with the live table and prints counts:
read, identical, expired (ttl passed: never copied), inFlight (a recovery's lock: never copied),
missing from the live table, differing, leftAlone (revoked, rotated or otherwise later in its life
than the copy: never written, each with its reason), and
the first ${shownKeysPerKind} keys of each kind, never an item. With --apply it copies the missing items, each only
while it is still absent, and with --apply --overwrite also replaces the differing ones, each only
while it is still as compared; an item the service wrote meanwhile is left alone and counted
changedMeanwhile.
--merchant finds the merchant's partitions and shards, its API keys and events (through GSI1), its
endpoints' deliveries and its invoices' pay-link lookups; not its idempotency records, whose keys
carry no merchant id, nor its portal sessions, keyed by their id alone. --from-key and --to-key
choose partition keys in that range, both included, by a Scan of the restored table.
router replay takes --stage only: it receives up to --limit messages (1–${replayLimit.max}, default ${replayLimit.default})
of MerchantPayments-STAGE-router-failures, reads the records each names from the table's stream,
and invokes MerchantPayments-STAGE-router with them, waiting for its answer. A message is deleted
once the router routed them all, and kept when the stream no longer holds them (expired) or the
router failed; the command prints the counts and each message's range and outcome, never a record.

Target (exactly one):
  --local                 the runtime of \`npm start\`: reads runtime.json and dynamodb.key in
                          $LOCAL_STATE_DIR (default .local/ at the repository root) and uses its
                          DynamoDB Local, table and stage, signing with that access key
  --stage STAGE           the deployed stack of sandbox or production in AWS, with the standard
                          credential chain and region (AWS_PROFILE, AWS_REGION, ...)
  --table NAME            with --stage: the table (default $TABLE_NAME, else merchant-payments-STAGE)

Output:
  --json                  exactly one JSON object on one line; without it the same object, indented
  -h, --help              this text
Errors go to stderr as one line "error: ..."; exit 1 when a command fails, 2 for a wrong command line.
Durations: a whole number of s, m, h or d (30m, 24h, 7d), at most 3650d.
`;

export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<ExitCode> {
  let invocation: Invocation;
  let settings: AdminSettings;
  try {
    if (asksForHelp(argv)) {
      io.stdout(helpText);
      return ExitCode.ok;
    }
    invocation = parseInvocation(argv);
    settings = readAdminSettings(io.env);
  } catch (error) {
    if (error instanceof AdminUsageError) {
      io.stderr(usageErrorText(error));
      return ExitCode.usage;
    }
    if (error instanceof SettingError) {
      io.stderr(`error: ${error.message}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  let target: AdminTarget | undefined;
  try {
    target = await resolveTarget(invocation.selection, settings);
    const resolved = target;
    const result = await withTarget(resolved, () => invocation.action(resolved));
    printResult(result, invocation.json, io);
    return ExitCode.ok;
  } catch (error) {
    // A check that needs the resolved target (items restore's two tables) is still a wrong command line.
    if (error instanceof AdminUsageError) {
      io.stderr(usageErrorText(new AdminUsageError(error.message, { command: invocation.command })));
      return ExitCode.usage;
    }
    // The table did change: what it now holds is printed (a rotated key is shown only here).
    if (error instanceof AuthorizerCacheFlushError) printResult(error.result, invocation.json, io);
    io.stderr(`error: ${describeFailure(error, target)}\n`);
    return error instanceof SettingError ? ExitCode.usage : ExitCode.failed;
  }
}

function printResult(result: object, json: boolean, io: AdminIo): void {
  // One JSON object either way (docs/decisions/admin-cli.md): --json keeps it on one line for scripts.
  io.stdout(`${JSON.stringify(result, null, json ? undefined : 2)}\n`);
  if (!json && 'apiKey' in result) io.stderr('note: store the apiKey now; it is not shown again\n');
}

interface Invocation {
  readonly command: CommandName;
  readonly selection: TargetSelection;
  readonly json: boolean;
  readonly action: (target: AdminTarget) => Promise<object>;
}

function asksForHelp(argv: readonly string[]): boolean {
  const terminator = argv.indexOf('--');
  const options = terminator === -1 ? argv : argv.slice(0, terminator);
  return options.includes('--help') || options.includes('-h');
}

/** Checks the whole command line before anything is read or written. */
export function parseInvocation(argv: readonly string[]): Invocation {
  const { tokens } = parseArgs({
    args: [...argv],
    options: optionConfig,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  // An unknown option first: `--merchnt mer_x` would otherwise read as a flag and a stray argument.
  const unknown = tokens.find((token) => token.kind === 'option' && !Object.hasOwn(optionConfig, token.name));
  if (unknown?.kind === 'option') throw new AdminUsageError(`unknown option ${unknown.rawName}`);
  const positionals = tokens.flatMap((token) => (token.kind === 'positional' ? [token.value] : []));
  const command = commandOf(positionals);
  try {
    const spec: CommandSpec = commands[command];
    const options = givenOptions(tokens, command);
    for (const name of spec.required) {
      if (options[name] === undefined) throw new AdminUsageError(`${command} needs --${name}`);
    }
    const selection =
      spec.stageOnly === undefined
        ? targetSelection(options)
        : stageSelection(options, command, spec.stageOnly);
    return { command, selection, json: options.json === true, action: spec.plan(options) };
  } catch (error) {
    // Every problem past the command name is shown with that command's synopsis.
    if (error instanceof AdminUsageError)
      throw new AdminUsageError(error.message, { command, cause: error.cause });
    throw error;
  }
}

type ArgToken = ReturnType<typeof parseArgs>['tokens'] extends (infer T)[] | undefined ? T : never;

function givenOptions(tokens: readonly ArgToken[], command: CommandName): GivenOptions {
  const spec: CommandSpec = commands[command];
  const targets = spec.stageOnly === undefined ? targetOptions : stageOnlyOptions;
  const allowed = new Set<OptionName>([...targets, ...spec.required, ...spec.optional]);
  const options: GivenOptions = {};
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (!Object.hasOwn(optionConfig, token.name))
      throw new AdminUsageError(`unknown option ${token.rawName}`);
    const name = token.name as OptionName;
    if (!allowed.has(name)) throw new AdminUsageError(`--${name} is not an option of ${command}`);
    if (options[name] !== undefined) throw new AdminUsageError(`--${name} is given more than once`);
    options[name] = optionValue(name, token.value, token.inlineValue);
  }
  return options;
}

function optionValue(
  name: OptionName,
  value: string | undefined,
  inline: boolean | undefined,
): string | true {
  if (optionConfig[name].type === 'boolean') {
    if (value !== undefined) throw new AdminUsageError(`--${name} takes no value`);
    return true;
  }
  // `--name --json`: the next argument is another option, not this one's value.
  if (value === undefined || (!inline && value.startsWith('--'))) {
    throw new AdminUsageError(`--${name} needs a value`);
  }
  if (value.trim() === '') throw new AdminUsageError(`--${name} must not be empty`);
  return value;
}

function commandOf(positionals: readonly string[]): CommandName {
  const [group, action, ...rest] = positionals;
  if (group === undefined) throw new AdminUsageError('missing command');
  const groups = new Set(Object.keys(commands).map((name) => name.split(' ')[0]));
  if (!groups.has(group)) throw new AdminUsageError(`unknown command "${group}"`);
  const actions = Object.keys(commands)
    .filter((name) => name.startsWith(`${group} `))
    .map((name) => name.slice(group.length + 1));
  if (action === undefined) throw new AdminUsageError(`${group} needs one of: ${actions.join(', ')}`);
  const name = `${group} ${action}`;
  if (!Object.hasOwn(commands, name)) throw new AdminUsageError(`unknown command "${name}"`);
  const command = name as CommandName;
  if (rest.length > 0) throw new AdminUsageError(`unexpected argument "${rest[0]}"`, { command });
  return command;
}

function targetSelection(options: GivenOptions): TargetSelection {
  const { local, stage, table } = options;
  if (local === true && stage !== undefined) {
    throw new AdminUsageError('give either --local or --stage, not both');
  }
  if (stage === undefined) {
    if (table !== undefined) throw new AdminUsageError('--table applies only with --stage');
    if (local !== true) throw new AdminUsageError('choose a target: --local or --stage sandbox|production');
    return { kind: 'local' };
  }
  if (stage !== Stage.sandbox && stage !== Stage.production) {
    throw new AdminUsageError(`--stage must be sandbox or production, not "${stage}"`);
  }
  return { kind: 'stage', stage, tableName: typeof table === 'string' ? table : undefined };
}

/** A command of the deployed stage only: `--stage S`, and --local refused with what is accepted instead. */
function stageSelection(options: GivenOptions, command: CommandName, why: string): TargetSelection {
  if (options.local === true) {
    throw new AdminUsageError(`${command} takes --stage sandbox|production, not --local: ${why}`);
  }
  if (options.stage === undefined) throw new AdminUsageError(`${command} needs --stage sandbox|production`);
  return targetSelection(options);
}

/** One line: what is wrong, then the form the command takes (or the commands there are). */
function usageErrorText(error: AdminUsageError): string {
  const spec: CommandSpec | undefined = error.command === undefined ? undefined : commands[error.command];
  const form =
    spec === undefined
      ? `commands: ${Object.keys(commands).join(', ')}`
      : `usage: ${program} ${spec.synopsis} ${spec.stageOnly === undefined ? targetSynopsis : stageOnlySynopsis}`;
  return `error: ${error.message} (${form}; ${program} --help for details)\n`;
}

const unreachableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ETIMEDOUT']);

/** One line for stderr: what went wrong and, where it is known, what to do about it. */
function describeFailure(error: unknown, target: AdminTarget | undefined): string {
  if (error instanceof AdminError || error instanceof SettingError) return oneLine(error.message);
  const failure = error instanceof Error ? error : new Error(String(error));
  const code = (failure as NodeJS.ErrnoException).code;
  if (target?.dynamodbEndpoint !== undefined && code !== undefined && unreachableCodes.has(code)) {
    return `cannot reach DynamoDB Local at ${target.dynamodbEndpoint}: is \`npm start\` running?`;
  }
  if (target !== undefined && failure.name === 'ResourceNotFoundException') {
    const where = target.dynamodbEndpoint === undefined ? '' : ` at ${target.dynamodbEndpoint}`;
    const hint =
      target.dynamodbEndpoint === undefined ? " (pass --table with the stack's TableName output)" : '';
    return `table ${target.tableName} of ${target.stage} not found${where}${hint}`;
  }
  if (target?.dynamodbEndpoint === undefined && failure.message === 'Region is missing') {
    return 'no AWS region: set AWS_REGION or a region in your AWS profile';
  }
  if (failure.name === 'CredentialsProviderError') {
    return `no AWS credentials: ${oneLine(failure.message)} (set AWS_PROFILE or sign in, e.g. aws sso login)`;
  }
  const name = failure.name === 'Error' ? '' : `${failure.name}: `;
  return oneLine(`${name}${failure.message}`);
}
