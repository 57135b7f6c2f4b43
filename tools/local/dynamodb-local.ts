import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LocalDynamoDb } from '../../functions/store/client';
import { classArchiveLaunch } from '../dynamodb-local-files/class-archive';
import {
  DynamoDbLocalError,
  DynamoDbLocalErrorCode,
  ensureDynamoDbLocalJar,
} from '../dynamodb-local-files/install';
import { endWithThisProcess } from './orphan-watchdog';
import { findFreePort, isPortFree, LOOPBACK_HOST } from './ports';
import { closeFiles, privateDir } from './private-files';

export const DynamoDbLocalRegion = LocalDynamoDb.region;

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const MinimumJavaVersion = 17;
const AutoPortAttempts = 5;
const OutputTailLines = 40;
const ReadyTimeoutMs = 30_000;
const execFileAsync = promisify(execFile);
/** The jar's SHA-256 is pinned, so its bytecode goes unverified: a sixth less CPU to start the JVM. */
const SkipBytecodeVerification = ['-XX:+UnlockDiagnosticVMOptions', '-XX:-BytecodeVerificationRemote'];
/** C1-only JIT and the serial collector start the emulator about a second sooner on a small machine. */
const JvmArgs = [
  '-XX:TieredStopAtLevel=1',
  '-XX:+UseSerialGC',
  ...SkipBytecodeVerification,
  '-Djava.library.path=./DynamoDBLocal_lib',
];

/**
 * Client settings for DynamoDB Local, which checks that a request is signed, not by whom, and
 * picks the database by access key and region.
 */
export function dynamoDbLocalClientConfig(endpoint: string, accessKeyId: string) {
  return { endpoint, region: DynamoDbLocalRegion, credentials: { accessKeyId, secretAccessKey: 'local' } };
}

export class JavaMissingError extends Error {
  override name = 'JavaMissingError';

  constructor({ foundVersion, cause }: { foundVersion?: number; cause?: unknown } = {}) {
    const found = foundVersion === undefined ? '' : ` (found Java ${foundVersion})`;
    super(
      `Java ${MinimumJavaVersion}+ is required to run DynamoDB Local${found}: install it ` +
        `(Debian: apt-get install -y openjdk-17-jre-headless) and retry.`,
      { cause },
    );
  }
}

type Log = ((message: string) => void) | undefined;

export interface StartDynamoDbLocalOptions {
  /** Keep tables in memory only; otherwise they persist in `dbPath` (default `.local/dynamodb/`). */
  inMemory: boolean;
  /**
   * The key whose database holds the tables (letters and digits; default random): the JVM listens on
   * every interface, so a client without it reaches only an empty database of its own.
   */
  accessKeyId?: string | undefined;
  /** 0 or undefined picks a free port (and picks again if it is taken before the JVM binds it). */
  port?: number | undefined;
  dbPath?: string | undefined;
  /** The java executable, looked up on `env.PATH` (default `java` and `process.env`). */
  javaCommand?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  /** How a free port is chosen when `port` is 0 or undefined (default: ask the OS). */
  pickPort?: (() => Promise<number>) | undefined;
  log?: Log;
  /** Every line the JVM writes. */
  onOutput?: ((line: string) => void) | undefined;
}

/** What a client needs to reach one database of a DynamoDB Local: its endpoint and that database's key. */
export type DynamoDbLocalTarget = Pick<DynamoDbLocal, 'endpoint' | 'accessKeyId'>;

export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  accessKeyId: string;
  port: number;
  pid: number;
  /** Settles when the JVM exits, for whatever reason. Never rejects. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the JVM has exited. */
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local and resolves once it answers a real ListTables call. Throws
 * `JavaMissingError` when Java 17+ cannot be run and `DynamoDbLocalError` otherwise. The JVM ends
 * with `stop()` or, through a watchdog, with this process however it ends.
 */
export async function startDynamoDbLocal(options: StartDynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const launcher = {
    ...options,
    javaCommand: options.javaCommand ?? 'java',
    env: options.env ?? process.env,
  };
  const javaVersion = await assertJavaAvailable(launcher.javaCommand, launcher.env);
  const { emulatorDir } = await ensureDynamoDbLocalJar({ log: options.log });
  const jvmArgs = await jvmArguments(emulatorDir, javaVersion, launcher);
  const accessKeyId = instanceAccessKey(options);
  const args = await storageArgs(options);
  const fixedPort = options.port || undefined;
  const pickPort = options.pickPort ?? (() => findFreePort());
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await pickPort());
    try {
      // Checked first because a server already on the port would answer the readiness probe.
      if (!(await isPortFree(port))) throw portInUseError(port);
      return await launch(launcher, { emulatorDir, jvmArgs, accessKeyId, args, port });
    } catch (error) {
      const portTaken =
        error instanceof DynamoDbLocalError && error.code === DynamoDbLocalErrorCode.portInUse;
      if (!portTaken || fixedPort !== undefined || attempt >= AutoPortAttempts) throw error;
      options.log?.(`Port ${port} was taken before DynamoDB Local could bind it; trying another port`);
    }
  }
}

async function storageArgs(options: StartDynamoDbLocalOptions): Promise<string[]> {
  if (options.inMemory) return ['-inMemory'];
  const dbPath = resolve(options.dbPath ?? join(repoRoot, '.local', 'dynamodb'));
  // Owner only: the database file is named after the access key and holds the data in the clear.
  // The folder is DynamoDB Local's own, so every file in it is closed, whoever made it.
  await privateDir(dbPath);
  await closeFiles(dbPath, await readdir(dbPath));
  return ['-dbPath', dbPath];
}

/** The caller's key or a random one (hex: DynamoDB Local takes letters and digits only). */
function instanceAccessKey(options: StartDynamoDbLocalOptions): string {
  const accessKeyId = options.accessKeyId ?? randomBytes(16).toString('hex');
  if (/^[A-Za-z0-9]+$/.test(accessKeyId)) return accessKeyId;
  throw new DynamoDbLocalError(
    DynamoDbLocalErrorCode.invalidAccessKey,
    'The DynamoDB Local access key must be letters and digits only.',
  );
}

const portInUseError = (port: number) =>
  new DynamoDbLocalError(
    DynamoDbLocalErrorCode.portInUse,
    `DynamoDB Local cannot listen on port ${port}: the address is already in use. Stop whatever holds it or choose another port (0 picks a free one).`,
  );

type Launcher = StartDynamoDbLocalOptions & { javaCommand: string; env: NodeJS.ProcessEnv };

/**
 * The JVM's arguments up to the emulator's own: its classes come from a class archive made by the
 * first start on this Java build (docs/decisions/local-runtime.md#the-class-archive).
 */
async function jvmArguments(emulatorDir: string, javaVersion: string, options: Launcher): Promise<string[]> {
  const train = async (flags: string[], jar: string) => {
    const quiet = { ...options, log: undefined, onOutput: undefined };
    const jvmArgs = [...JvmArgs, ...flags, '-jar', jar];
    const port = await findFreePort();
    const trainee = await launch(quiet, {
      emulatorDir,
      jvmArgs,
      accessKeyId: 'archive',
      args: ['-inMemory'],
      port,
    });
    await trainee.stop();
    return trainee.exited;
  };
  const { flags, jar } = await classArchiveLaunch({ emulatorDir, javaVersion, train, log: options.log });
  return [...JvmArgs, ...flags, '-jar', jar];
}

/** Spawns the JVM on `port` with `args` (`-inMemory` or `-dbPath <dir>`) and waits until it answers. */
async function launch(
  options: Launcher,
  {
    emulatorDir,
    jvmArgs,
    accessKeyId,
    args,
    port,
  }: { emulatorDir: string; jvmArgs: string[]; accessKeyId: string; args: string[]; port: number },
): Promise<DynamoDbLocal> {
  const endpoint = `http://${LOOPBACK_HOST}:${port}`;
  options.log?.(`Starting DynamoDB Local on ${endpoint}`);
  const jar = [...jvmArgs, '-port', String(port)];
  // Through `sh` for the umask alone: the JVM's database files are this user's only, whatever the
  // umask this process runs under. `exec` keeps the pid, so stop() and the watchdog reach the JVM.
  const shell = [
    '-c',
    'umask 077 && exec "$0" "$@"',
    options.javaCommand,
    ...jar,
    '-disableTelemetry',
    ...args,
  ];
  const child = spawn('sh', shell, {
    cwd: emulatorDir,
    env: { ...options.env, DDB_LOCAL_TELEMETRY: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  endWithThisProcess(child, {
    onError: (error) => options.log?.(`DynamoDB Local runs without its watchdog: ${error.message}`),
  });
  const exited: DynamoDbLocal['exited'] = new Promise((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  /** `failure` is set once the JVM cannot become ready: it exited, or its port was taken. */
  const jvm: Jvm = { failure: undefined, output: [] };
  for (const input of [child.stdout, child.stderr]) {
    createInterface({ input: input as NodeJS.ReadableStream, crlfDelay: Infinity }).on('line', (line) => {
      jvm.output = [...jvm.output.slice(1 - OutputTailLines), line];
      options.onOutput?.(line);
      // A JVM whose port is taken only logs this and keeps running.
      if (/Address already in use|Failed to bind/.test(line)) jvm.failure ??= portInUseError(port);
    });
  }
  child.once('error', (error: NodeJS.ErrnoException) => {
    jvm.failure ??= error.code === 'ENOENT' ? new JavaMissingError({ cause: error }) : error;
  });
  void exited.then(({ code, signal }) => {
    jvm.failure ??= new DynamoDbLocalError(
      DynamoDbLocalErrorCode.exited,
      `DynamoDB Local exited (${signal ?? `code ${code}`}) before it was ready. Last output:\n${jvm.output.join('\n')}`,
    );
  });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= terminate(child, exited));
  await untilReady(endpoint, accessKeyId, jvm).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { endpoint, accessKeyId, port, pid: child.pid ?? -1, exited, stop };
}

type Jvm = { failure: Error | undefined; output: string[] };

async function untilReady(endpoint: string, accessKeyId: string, jvm: Jvm): Promise<void> {
  const client = new DynamoDBClient({
    ...dynamoDbLocalClientConfig(endpoint, accessKeyId),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 },
  });
  const deadline = Date.now() + ReadyTimeoutMs;
  try {
    for (;;) {
      const ready = await client.send(new ListTablesCommand({ Limit: 1 })).then(Boolean, () => false);
      if (jvm.failure) throw jvm.failure;
      if (ready) return;
      if (Date.now() > deadline) {
        throw new DynamoDbLocalError(
          DynamoDbLocalErrorCode.timeout,
          `DynamoDB Local did not answer on ${endpoint} within ${ReadyTimeoutMs} ms. Last output:\n${jvm.output.join('\n')}`,
        );
      }
      await sleep(100);
    }
  } finally {
    client.destroy();
  }
}

async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), sleep(5_000, false, { ref: false })]);
  if (!stopped) child.kill('SIGKILL');
  await exited;
}

/**
 * Runs `java -version`, so a missing or too old Java fails with one clear line, not a JVM stack, and
 * returns what it printed.
 */
async function assertJavaAvailable(javaCommand: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout, stderr } = await execFileAsync(javaCommand, ['-version'], { env, timeout: 15_000 }).catch(
    (cause: unknown) => {
      throw new JavaMissingError({ cause });
    },
  );
  const major = parseJavaMajorVersion(`${stdout}${stderr}`);
  if (major !== undefined && major < MinimumJavaVersion) throw new JavaMissingError({ foundVersion: major });
  return `${stdout}${stderr}`;
}

/** `openjdk version "17.0.15"` → 17, `java version "1.8.0_291"` → 8; undefined when unrecognised. */
export function parseJavaMajorVersion(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}
