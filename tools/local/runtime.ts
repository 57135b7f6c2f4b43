import { chmod, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { authorize } from '../../functions/authorizer/authorize';
import { handler as authorizer } from '../../functions/authorizer/handler';
import { resetFunctionEnvironment, type Stage } from '../../functions/config';
import { writePayPageModule } from '../../functions/pay/build-pay-page';
import { resetStripePlatform } from '../../functions/payments/stripe/stripe-platform';
import { writePortalPageModule } from '../../functions/portal/build-portal-page';
import type { RouteDefinition } from '../../functions/route-definition';
import { routeList, routesOfStage } from '../../functions/routes';
import { resetSecretSealer } from '../../functions/secrets/secret-sealer-from-env';
import { resetDocumentClient } from '../../functions/store/client';
import { getApiKey } from '../../functions/store/merchants';
import { getPortalSession } from '../../functions/store/portal-sessions';
import { createKey, createMerchant } from '../admin/operations';
import { localReference } from '../openapi/local-reference';
import { readReceiverCa } from '../webhook-receiver/read-receiver-ca';
import { authorizerCacheFlushFile } from './authorizer-cache-flush';
import { type DeliveryPipelineOptions, startDeliveryPipeline } from './delivery-pipeline';
import { type DynamoDbLocalTarget, dynamoDbLocalClientConfig, startDynamoDbLocal } from './dynamodb-local';
import { ensureTable } from './ensure-table';
import { type GatewayDocument, type LocalGateway, type ProxyHandler, startLocalGateway } from './gateway';
import { assertNoRuntimeIn, operatorSocketPath, startOperatorChannel } from './operator-channel';
import { isPortFree } from './ports';
import { closeFiles, DynamoDbAccessKey, privateDir, readOrCreateKey, SecretsKey } from './private-files';
import { startSesLocal } from './ses-local';
import type { LocalSettings } from './settings';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the local gateway serves the API reference and the OpenAPI document it is made from. */
export const LocalDocumentPaths = { apiReference: '/docs', openApi: '/docs/openapi.json' } as const;

/**
 * Served by the local runtime only: the deployed stack's routes are the API and nothing else. The
 * runtime lists itself first among the document's servers, so the reference names where its
 * requests go (docs/decisions/documentation.md#decision).
 */
function localDocuments(): Record<string, GatewayDocument> {
  const reference = localReference();
  return {
    [LocalDocumentPaths.apiReference]: { contentType: 'text/html; charset=utf-8', read: reference.page },
    [LocalDocumentPaths.openApi]: { contentType: 'application/json', read: reference.document },
  };
}

const RuntimeFile = 'runtime.json';

/** `.local/runtime.json`: what a developer or the admin CLI needs to call the runtime. */
export interface RuntimeInfo {
  readonly baseUrl: string;
  readonly stage: Stage;
  readonly dynamodbEndpoint: string;
  readonly tableName: string;
  readonly merchantId: string;
  readonly apiKey: string;
  /** The local inbox's page: every email the runtime sent (`aws-ses-v2-local`). */
  readonly mailInboxUrl: string;
}

export interface LocalRuntimeOptions {
  readonly settings: LocalSettings;
  readonly inMemory: boolean;
  /** Where runtime.json and the database live (default `.local/` at the repo root). */
  readonly stateDir?: string;
  /** A running DynamoDB Local to use (tests, bench, soak): endpoint and key together, so none falls back to a shared key. */
  readonly dynamodb?: DynamoDbLocalTarget;
  readonly tableName?: string;
  readonly log?: (message: string) => void;
  readonly onDispatcherBatch?: DeliveryPipelineOptions['onDispatcherBatch'];
  readonly beforeRouting?: DeliveryPipelineOptions['beforeRouting'];
  readonly deliveryQueue?: DeliveryPipelineOptions['deliveryQueue'];
}

export interface LocalRuntime extends RuntimeInfo {
  /** Resolves once every stream record written so far has reached the router (for tests). */
  drainStream(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the whole stack in this process with the deployed handler code: DynamoDB Local, the
 * table from the shared definition, a ready merchant and key, and the local gateway.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const { settings } = options;
  const stateDir = options.stateDir ?? settings.LOCAL_STATE_DIR ?? join(repoRoot, '.local');
  await prepareStateDir(stateDir, settings);
  // The pay page and the portal are built from their page/ folders, as the stack's bundling builds them.
  await Promise.all([writePayPageModule(), writePortalPageModule()]);
  // DynamoDB Local listens on every interface: only a client holding this installation's key
  // reaches the runtime's database, in memory as on disk.
  const dynamodb =
    options.dynamodb === undefined
      ? await startDynamoDbLocal({
          inMemory: options.inMemory,
          dbPath: join(stateDir, 'dynamodb'),
          accessKeyId: await readOrCreateKey(stateDir, DynamoDbAccessKey),
          log: options.log,
        })
      : undefined;
  const target = (options.dynamodb ?? dynamodb) as DynamoDbLocalTarget;
  const tableName = options.tableName ?? `merchant-payments-${settings.STAGE}`;
  const stops: (() => Promise<void>)[] = [async () => dynamodb?.stop()];
  const stop = async () => {
    for (const next of stops.splice(0).reverse()) await next();
  };
  try {
    const client = new DynamoDBClient(dynamoDbLocalClientConfig(target.endpoint, target.accessKeyId));
    await ensureTable(client, tableName).finally(() => client.destroy());
    await setFunctionEnvironment(options, stateDir, target, tableName);
    const runtimeFile = join(stateDir, RuntimeFile);
    const merchant = await readyMerchant(runtimeFile, settings.STAGE, options.inMemory);
    const gateway = await startGateway(settings, stateDir);
    stops.push(() => gateway.close());
    // Known once the gateway listens; the handlers read it on their first request.
    process.env.PUBLIC_BASE_URL = gateway.baseUrl;
    resetFunctionEnvironment();
    const inbox = await startSesLocal({ port: inboxPort(settings) });
    stops.push(() => inbox.stop());
    const { log, onDispatcherBatch, beforeRouting, deliveryQueue } = options;
    const hooks = { log, onDispatcherBatch, beforeRouting, deliveryQueue };
    const mail = { sesEndpoint: inbox.endpoint, publicBaseUrl: gateway.baseUrl };
    // The local receiver's CA, whenever it is made: no NODE_EXTRA_CA_CERTS, no restart.
    const trustedCa = () => readReceiverCa(stateDir);
    const pipeline = await startDeliveryPipeline({
      ...{ dynamodb: target, tableName, settings, mail, trustedCa },
      ...hooks,
    });
    stops.push(() => pipeline.stop());
    const operator = await startOperatorChannel({
      stateDir,
      operations: {
        deadLetterCount: () => pipeline.deadLetterCount(),
        redriveDeadLetters: () => pipeline.redrive(),
        reconcileNow: () => pipeline.reconcileNow(),
      },
    });
    stops.push(() => operator.close());
    const info: RuntimeInfo = {
      baseUrl: gateway.baseUrl,
      stage: settings.STAGE,
      tableName,
      ...merchant,
      dynamodbEndpoint: target.endpoint,
      mailInboxUrl: inbox.inboxUrl,
    };
    await writeFile(runtimeFile, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    await chmod(runtimeFile, 0o600);
    return { ...info, drainStream: () => pipeline.drain(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Closes the state folder to other users, then refuses, before DynamoDB Local starts, another runtime on it or the port. */
async function prepareStateDir(stateDir: string, settings: LocalSettings): Promise<void> {
  // A state folder too deep for the operator socket stops the runtime before anything starts.
  operatorSocketPath(stateDir);
  await privateDir(stateDir);
  const flushFile = basename(authorizerCacheFlushFile(stateDir));
  await closeFiles(stateDir, [RuntimeFile, SecretsKey.file, DynamoDbAccessKey.file, flushFile]);
  await assertNoRuntimeIn(stateDir);
  await assertPortFree(settings.PORT, settings.HOST);
}

/** The handlers read their configuration from the environment, as they do in Lambda. */
async function setFunctionEnvironment(
  options: LocalRuntimeOptions,
  stateDir: string,
  dynamodb: DynamoDbLocalTarget,
  tableName: string,
): Promise<void> {
  const { settings } = options;
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    STAGE: settings.STAGE,
    DYNAMODB_ENDPOINT: dynamodb.endpoint,
    DYNAMODB_LOCAL_ACCESS_KEY_ID: dynamodb.accessKeyId,
    AUTH_CACHE_SECONDS: String(settings.AUTH_CACHE_SECONDS),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: String(settings.WEBHOOK_ALLOW_PRIVATE_TARGETS),
    WEBHOOK_RETRY_DELAY_SECONDS: String(settings.WEBHOOK_RETRY_DELAY_SECONDS),
    WEBHOOK_TIMEOUT_MS: String(settings.WEBHOOK_TIMEOUT_MS),
    // An in-memory runtime has no sealed secrets to keep: it makes a fresh key.
    LOCAL_SECRETS_KEY: options.inMemory ? SecretsKey.make() : await readOrCreateKey(stateDir, SecretsKey),
    POWERTOOLS_SERVICE_NAME: 'merchant-payments-local',
    STRIPE_TIMEOUT_MS: String(settings.STRIPE_TIMEOUT_MS),
  });
  // The Stripe secrets come from the runtime's own settings: an earlier runtime's must not linger.
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE_URL'] as const) {
    const value = settings[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetFunctionEnvironment();
  resetDocumentClient();
  resetSecretSealer();
  resetStripePlatform();
}

function startGateway(settings: LocalSettings, stateDir: string): Promise<LocalGateway> {
  return startLocalGateway({
    routes: routesOfStage(routeList, settings.STAGE),
    ...{ loadHandler, authorizer, stage: settings.STAGE, host: settings.HOST, port: settings.PORT },
    authCacheSeconds: settings.AUTH_CACHE_SECONDS,
    authCacheFlushFile: authorizerCacheFlushFile(stateDir),
    publicRateLimitPerMinute: settings.PUBLIC_RATE_LIMIT_PER_MINUTE,
    documents: localDocuments(),
  });
}

/** The inbox's port: as set, else 8005, or a free one when the gateway's is picked too (`PORT=0`). */
function inboxPort(settings: LocalSettings): number {
  return settings.MAIL_INBOX_PORT ?? (settings.PORT === 0 ? 0 : 8005);
}

async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0 || (await isPortFree(port, host))) return;
  throw new Error(
    `port ${port} on ${host} is in use (another npm start?): stop what listens there, or set PORT to a free port (0 picks one)`,
  );
}

/** Handler modules load on first use, like a Lambda cold start. */
async function loadHandler(route: RouteDefinition): Promise<ProxyHandler> {
  const href = pathToFileURL(join(repoRoot, 'functions', `${route.handler}.ts`)).href;
  return ((await import(href)) as { handler: ProxyHandler }).handler;
}

/** What the authorizer reads, from the runtime's table. */
const tableReads = { findKey: getApiKey, findPortalSession: getPortalSession };

/**
 * The merchant and key of runtime.json are reused while the key still authorizes on this stage
 * (a persisted table); otherwise a new merchant and key are created.
 */
async function readyMerchant(runtimeFile: string, stage: Stage, inMemory: boolean) {
  const previous = inMemory
    ? undefined
    : await readFile(runtimeFile, 'utf8')
        .then((text) => JSON.parse(text) as Partial<RuntimeInfo>)
        .catch(() => undefined);
  const { apiKey, merchantId } = previous?.stage === stage ? previous : {};
  if (apiKey !== undefined && merchantId !== undefined) {
    const result = await authorize(`Bearer ${apiKey}`, { stage, now: new Date(), ...tableReads });
    if (result.allowed && result.merchantId === merchantId) return { merchantId, apiKey };
  }
  const merchant = await createMerchant('Local merchant');
  const key = await createKey(merchant.merchantId, stage);
  return { merchantId: merchant.merchantId, apiKey: key.apiKey };
}
