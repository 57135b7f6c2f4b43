import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { resetFunctionEnvironment, Stage } from '../../functions/config';
import { documentClient, resetDocumentClient } from '../../functions/store/client';
import { rule } from '../../functions/validation/rule';
import { text } from '../../functions/validation/text';
import { DynamoDbAccessKey, readKey } from '../local/private-files';
import { AdminError } from './operations';
import type { AdminSettings } from './settings';

/** Where an admin command acts: one table of one stage, on DynamoDB Local or in AWS. */
export interface AdminTarget {
  readonly stage: Stage;
  readonly tableName: string;
  /** Set for the local runtime only; without it the SDK's standard credential chain and region apply. */
  readonly dynamodbEndpoint?: string | undefined;
  /** The local runtime's state folder, where a key change tells its gateway to empty its authorizer cache. */
  readonly stateDir?: string | undefined;
  /** With `dynamodbEndpoint`: the access key of the runtime's database (`.local/dynamodb.key`). */
  readonly dynamodbAccessKeyId?: string | undefined;
}

/** What the command line asked for: `--local`, or `--stage S [--table NAME]`. */
export type TargetSelection =
  | { readonly kind: 'local' }
  | { readonly kind: 'stage'; readonly stage: Stage; readonly tableName?: string | undefined };

export type AdminEnv = Readonly<Record<string, string | undefined>>;

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The deployed table's name when neither `--table` nor `TABLE_NAME` says otherwise. */
export function defaultTableName(stage: Stage): string {
  return `merchant-payments-${stage}`;
}

/** The runtime's state dir: `LOCAL_STATE_DIR` (as `npm start` reads it) or `.local/` at the repo root. */
export function localStateDir(settings: Partial<Pick<AdminSettings, 'LOCAL_STATE_DIR'>>): string {
  const configured = settings.LOCAL_STATE_DIR;
  return configured === undefined ? join(repoRoot, '.local') : resolve(configured);
}

/**
 * The fields of `.local/runtime.json` (docs/architecture.md#the-local-runtime) the CLI needs. Only these are
 * picked from the file before they are checked: it is the runtime's to extend, and its `apiKey` is
 * deliberately never read here.
 */
const LocalRuntimeFile = z.strictObject({
  stage: z.enum(Stage),
  dynamodbEndpoint: rule(text(), (url) => (URL.canParse(url) ? undefined : 'must be a URL.')),
  tableName: text({ min: 1 }),
});

function runtimeFields(json: unknown): Record<keyof typeof LocalRuntimeFile.shape, unknown> {
  const file = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  return { stage: file.stage, dynamodbEndpoint: file.dynamodbEndpoint, tableName: file.tableName };
}

export async function resolveTarget(
  selection: TargetSelection,
  settings: Partial<Pick<AdminSettings, 'LOCAL_STATE_DIR' | 'TABLE_NAME'>>,
): Promise<AdminTarget> {
  if (selection.kind === 'stage') {
    const tableName = selection.tableName ?? settings.TABLE_NAME ?? defaultTableName(selection.stage);
    return { stage: selection.stage, tableName };
  }
  const stateDir = localStateDir(settings);
  const file = join(stateDir, 'runtime.json');
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new AdminError('no local runtime found: run `npm start` first');
    throw new AdminError(`cannot read ${file}: ${error.message}`, { cause: error });
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AdminError(`${file} is not valid JSON: restart \`npm start\` to rewrite it`, { cause: error });
  }
  const parsed = z.safeParse(LocalRuntimeFile, runtimeFields(json));
  if (!parsed.success) {
    // Only field names: the file also holds an API key, which no message may echo.
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
    throw new AdminError(`${file} lacks a valid ${fields.join(', ')}: restart \`npm start\` to rewrite it`);
  }
  return { ...parsed.data, stateDir, dynamodbAccessKeyId: await localAccessKey(stateDir) };
}

/** The runtime's DynamoDB Local database answers only to the key `npm start` keeps in the state folder. */
async function localAccessKey(stateDir: string): Promise<string> {
  let key: string | undefined;
  try {
    key = await readKey(stateDir, DynamoDbAccessKey);
  } catch (error) {
    throw new AdminError((error as Error).message, { cause: error });
  }
  if (key === undefined) {
    const file = join(stateDir, DynamoDbAccessKey.file);
    throw new AdminError(`no DynamoDB Local key at ${file}: restart \`npm start\` to make it`);
  }
  return key;
}

const targetVariables = ['TABLE_NAME', 'STAGE', 'DYNAMODB_ENDPOINT', 'DYNAMODB_LOCAL_ACCESS_KEY_ID'] as const;

/**
 * Runs `action` with the store pointed at `target`: the store reads its table, stage and endpoint
 * from `process.env` like a Lambda function does, so the CLI sets them and resets the cached
 * environment and client, then puts everything back (tests run the CLI in-process).
 */
export async function withTarget<T>(target: AdminTarget, action: () => Promise<T>): Promise<T> {
  const saved = targetVariables.map((name) => [name, process.env[name]] as const);
  setVariable('TABLE_NAME', target.tableName);
  setVariable('STAGE', target.stage);
  setVariable('DYNAMODB_ENDPOINT', target.dynamodbEndpoint);
  setVariable('DYNAMODB_LOCAL_ACCESS_KEY_ID', target.dynamodbAccessKeyId);
  resetFunctionEnvironment();
  resetDocumentClient();
  let client: ReturnType<typeof documentClient> | undefined;
  try {
    client = documentClient();
    return await action();
  } finally {
    // Closes the client's sockets so a one-shot CLI process exits as soon as it is done.
    client?.destroy();
    for (const [name, value] of saved) setVariable(name, value);
    resetFunctionEnvironment();
    resetDocumentClient();
  }
}

function setVariable(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
