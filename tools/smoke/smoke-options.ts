import { parseArgs } from 'node:util';
import { IdPrefix, isTypeId } from '../../functions/domain/ids';
import { UsageError } from '../cli/command-failure';
import { isLoopbackHost } from './loopback-host';

export interface SmokeOptions {
  readonly help: boolean;
  /** The stage's base URL, ending in `/` so route paths join below any stage path it has. */
  readonly baseUrl: string;
  readonly merchantId: string;
  /** Where the key is read from when not from SMOKE_API_KEY. */
  readonly keyFile: string | undefined;
  /** The public https URL that reaches the smoke's receiver; absent: a receiver on this machine. */
  readonly receiverUrl: string | undefined;
  /** Where the receiver behind `receiverUrl` listens, plain HTTP. */
  readonly receiverHost: string;
  readonly receiverPort: number;
  /** How long the round trip waits for its webhook. */
  readonly timeoutSeconds: number;
}

export const DefaultTimeoutSeconds = 60;
const MaxTimeoutSeconds = 600;
export const DefaultReceiverPort = 8080;

export const smokeUsage = `Usage: npm run smoke -- --base-url <url> --merchant <mer_…> [options]

Checks a running stage in seconds, one line per check (ok / FAIL): a request without a key and one
with a key never issued are refused 401 in the API's error shape; the key reads invoices; the
sandbox routes exist in the sandbox only; and, with a sandbox key, an invoice paid by card through
its pay link is announced by a signed invoices.InvoicePaid webhook to an endpoint the smoke
registers, verifies and deletes. Exit 0 when every check passed, 1 when one failed, 2 for a wrong
command line. The key's stage (merchant_sbx… or merchant_prd…) decides which checks run.

The API key comes from SMOKE_API_KEY or --key-file, never from the command line.

Options:
  --base-url <url>       The stage's base URL (the stack's ApiUrl output, or npm start's); https,
                         or http on this machine only
  --merchant <mer_…>     The key's merchant (keep one merchant for smoke tests)
  --key-file <path>      A file holding the key, mode 0600 or stricter, instead of SMOKE_API_KEY
  --receiver-url <url>   Sandbox not on this machine: the public https URL (a tunnel or proxy that
                         ends TLS) forwarding to the smoke's receiver, which listens on plain HTTP
  --receiver-host <a>    With --receiver-url: the address the receiver listens on (default 127.0.0.1)
  --receiver-port <n>    With --receiver-url: its port (default ${DefaultReceiverPort})
  --timeout <s>          Seconds to wait for the webhook, 1-${MaxTimeoutSeconds} (default ${DefaultTimeoutSeconds})
  --help                 Print this and exit`;

const optionConfig = {
  'base-url': { type: 'string' },
  merchant: { type: 'string' },
  'key-file': { type: 'string' },
  'receiver-url': { type: 'string' },
  'receiver-host': { type: 'string' },
  'receiver-port': { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const accepted = Object.keys(optionConfig)
  .map((name) => `--${name}`)
  .join(', ');

/** An API key anywhere in an argument: merchant_<sbx|prd><10-char key id>_… (functions/domain/api-key.ts). */
const apiKeyInArgument = /merchant_(?:sbx|prd)[a-z0-9]{10}_/;

/** Reads the command line; anything it does not accept is a `UsageError` that never repeats a key. */
export function parseSmokeOptions(args: readonly string[]): SmokeOptions {
  refuseKeyOnCommandLine(args);
  const values = parsedValues(args);
  if (values.help === true) return helpOnly;
  const baseUrl = stageBaseUrl(required(values, 'base-url'));
  const receiverUrl =
    values['receiver-url'] === undefined ? undefined : publicReceiverUrl(values['receiver-url']);
  if (receiverUrl === undefined && (values['receiver-host'] ?? values['receiver-port']) !== undefined) {
    throw new UsageError('--receiver-host and --receiver-port go with --receiver-url, which they serve.');
  }
  return {
    help: false,
    baseUrl,
    merchantId: merchantIdOf(required(values, 'merchant')),
    keyFile: values['key-file'],
    receiverUrl,
    receiverHost: values['receiver-host'] ?? '127.0.0.1',
    receiverPort: wholeNumberOf('--receiver-port', values['receiver-port'], DefaultReceiverPort, 1, 65_535),
    timeoutSeconds: wholeNumberOf('--timeout', values.timeout, DefaultTimeoutSeconds, 1, MaxTimeoutSeconds),
  };
}

const helpOnly: SmokeOptions = {
  help: true,
  baseUrl: '',
  merchantId: '',
  keyFile: undefined,
  receiverUrl: undefined,
  receiverHost: '127.0.0.1',
  receiverPort: DefaultReceiverPort,
  timeoutSeconds: DefaultTimeoutSeconds,
};

/** Before anything else, so no message below can repeat a key given by mistake. */
function refuseKeyOnCommandLine(args: readonly string[]): void {
  const where = 'set SMOKE_API_KEY, or give --key-file <path> naming a file of mode 0600';
  if (args.some((arg) => arg === '--key' || arg.startsWith('--key='))) {
    throw new UsageError(
      `--key is refused: the API key never goes on the command line, which the shell history and the process list keep; ${where}.`,
    );
  }
  if (args.some((arg) => apiKeyInArgument.test(arg))) {
    throw new UsageError(
      `an argument holds an API key (not shown): the key never goes on the command line; ${where}.`,
    );
  }
}

function parse(args: readonly string[]) {
  return parseArgs({ args: [...args], options: optionConfig, strict: true, allowPositionals: false }).values;
}

type Values = ReturnType<typeof parse>;

function parsedValues(args: readonly string[]): Values {
  try {
    return parse(args);
  } catch (error) {
    throw new UsageError(parseProblem(error as NodeJS.ErrnoException), { cause: error });
  }
}

/** node:util's messages, reworded into one line that says what is accepted. */
function parseProblem(error: NodeJS.ErrnoException): string {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted}: accepted are ${accepted}.`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${JSON.stringify(quoted)}: every value follows its option (${accepted}).`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `${/--[\w-]+/.exec(quoted)?.[0] ?? quoted} ${error.message.includes('does not take') ? 'takes no value' : 'needs a value'}.`;
    default:
      return error.message.split('\n')[0] ?? 'the command line is not accepted.';
  }
}

function required(values: Values, name: 'base-url' | 'merchant'): string {
  const value = values[name];
  if (value === undefined || value === '') {
    throw new UsageError(
      `--${name} is required: npm run smoke -- --base-url <url> --merchant <mer_…> (--help says more).`,
    );
  }
  return value;
}

/** https anywhere; http only to this machine, so a key never crosses a network in the clear. */
function stageBaseUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const shape = 'an absolute https:// URL without user, query or fragment (http:// for this machine only)';
  if (
    url === undefined ||
    !(url.protocol === 'https:' || url.protocol === 'http:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new UsageError(`--base-url ${JSON.stringify(value)} is not accepted: it must be ${shape}.`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `--base-url ${JSON.stringify(value)} is not accepted: plain http would send the key over the network; use https (http:// is for this machine only).`,
    );
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

function publicReceiverUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || url.protocol !== 'https:' || isLoopbackHost(url.hostname) || url.hash !== '') {
    throw new UsageError(
      `--receiver-url ${JSON.stringify(value)} is not accepted: it must be a public https:// URL (no fragment) that reaches this machine's receiver.`,
    );
  }
  return url.href;
}

function merchantIdOf(value: string): string {
  if (!isTypeId(value, IdPrefix.merchant)) {
    throw new UsageError(
      `--merchant ${JSON.stringify(value)} is not accepted: it must be a merchant id, mer_ and 26 characters.`,
    );
  }
  return value;
}

function wholeNumberOf(
  option: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  const number = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) {
    throw new UsageError(
      `${option} ${JSON.stringify(value)} is not accepted: it must be a whole number from ${min} to ${max}.`,
    );
  }
  return number;
}
