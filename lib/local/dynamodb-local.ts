import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LocalDynamoDb } from '../../functions/store/client';
import { endWithThisProcess } from './orphan-watchdog';
import { findFreePort, isPortFree, LOOPBACK_HOST } from './ports';
import { closeFiles, privateDir } from './private-files';

const execFileAsync = promisify(execFile);

/**
 * Where DynamoDB Local comes from: AWS's emulator (1.25.1) ships inside this npm package's
 * `package/emulator/`. Only the tarball is fetched (`npm pack`), never the package's dependency
 * tree, and its digest is pinned so a changed or tampered tarball is refused (DESIGN §5).
 */
export const DynamoDbLocalPackage = {
  name: 'amplify-dynamodb-simulator',
  version: '2.9.30',
  sha256: '3503ffac19f183407909fecdacf4db51ab1fdad1da7b2f177016670b2d80e4b9',
  emulatorPath: 'package/emulator',
  dynamoDbLocalVersion: '1.25.1',
} as const;

export const DynamoDbLocalRegion = LocalDynamoDb.region;

/** What any client of a `-sharedDb` instance may sign with: every key reaches its one database. */
export const SharedDbAccessKeyId = LocalDynamoDb.sharedAccessKeyId;

/** The file a `-sharedDb` instance keeps its database in, under `-dbPath`. */
const SharedDbFile = 'shared-local-instance.db';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** `.cache/dynamodb-local/` at the repository root (git-ignored), whatever the working directory. */
export const defaultDynamoDbLocalCacheDir = join(repoRoot, '.cache', 'dynamodb-local');

/** `.local/dynamodb/` at the repository root: where table data persists unless in memory. */
export const defaultDynamoDbLocalDbPath = join(repoRoot, '.local', 'dynamodb');

const StampFile = '.complete.json';
const JarFile = 'DynamoDBLocal.jar';
const MinimumJavaVersion = 17;
const StaleTempDirMs = 60 * 60 * 1000;
const AutoPortAttempts = 5;
const OutputTailLines = 40;

/**
 * Client settings for any AWS SDK client aimed at DynamoDB Local. DynamoDB Local checks that a
 * request is signed, not by whom, and picks the database by access key and region: `accessKeyId`
 * is the instance's key, or `SharedDbAccessKeyId` for a `-sharedDb` instance.
 */
export function dynamoDbLocalClientConfig(endpoint: string, accessKeyId: string) {
  return {
    endpoint,
    region: DynamoDbLocalRegion,
    credentials: { accessKeyId, secretAccessKey: 'local' },
  };
}

/** Java is absent or too old. The message is one line telling the user what to install. */
export class JavaMissingError extends Error {
  override name = 'JavaMissingError';

  constructor(options: { foundVersion?: number; cause?: unknown } = {}) {
    const found = options.foundVersion === undefined ? '' : ` (found Java ${options.foundVersion})`;
    super(
      `Java ${MinimumJavaVersion}+ is required to run DynamoDB Local${found}: install it ` +
        `(Debian: apt-get install -y openjdk-17-jre-headless) and retry.`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}

export const DynamoDbLocalErrorCode = {
  downloadFailed: 'download.failed',
  integrityMismatch: 'download.integrityMismatch',
  portInUse: 'start.portInUse',
  exited: 'start.exited',
  timeout: 'start.timeout',
  invalidAccessKey: 'start.invalidAccessKey',
} as const;
export type DynamoDbLocalErrorCode = (typeof DynamoDbLocalErrorCode)[keyof typeof DynamoDbLocalErrorCode];

/** Any other failure to fetch or start DynamoDB Local; `code` says which. */
export class DynamoDbLocalError extends Error {
  override name = 'DynamoDbLocalError';
  readonly code: DynamoDbLocalErrorCode;

  constructor(code: DynamoDbLocalErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

export interface EnsureDynamoDbLocalJarOptions {
  /** Defaults to `.cache/dynamodb-local/` at the repository root. */
  cacheDir?: string | undefined;
  /** The npm executable used for `npm pack` (default `npm` from PATH). */
  npmCommand?: string | undefined;
  /** Progress messages (the first run downloads ~57 MB). */
  log?: ((message: string) => void) | undefined;
}

export interface DynamoDbLocalJar {
  /** Directory holding DynamoDBLocal.jar and DynamoDBLocal_lib/; the JVM runs from here. */
  emulatorDir: string;
  jarPath: string;
}

/**
 * Makes sure DynamoDB Local is unpacked in the cache and returns where. The first call runs
 * `npm pack`, checks the tarball's SHA-256, extracts only the emulator and publishes it with one
 * `rename`, so concurrent callers either see a complete directory or none; later calls only read
 * the stamp file.
 */
export async function ensureDynamoDbLocalJar(
  options: EnsureDynamoDbLocalJarOptions = {},
): Promise<DynamoDbLocalJar> {
  const cacheDir = resolve(options.cacheDir ?? defaultDynamoDbLocalCacheDir);
  const emulatorDir = join(cacheDir, DynamoDbLocalPackage.version);
  const jar = { emulatorDir, jarPath: join(emulatorDir, JarFile) };
  if (await isInstalled(emulatorDir)) return jar;

  await mkdir(cacheDir, { recursive: true });
  await removeStaleTempDirs(cacheDir);

  const workDir = await mkdtemp(join(cacheDir, `.tmp-${DynamoDbLocalPackage.version}-`));
  try {
    const spec = `${DynamoDbLocalPackage.name}@${DynamoDbLocalPackage.version}`;
    options.log?.(
      `Fetching DynamoDB Local ${DynamoDbLocalPackage.dynamoDbLocalVersion} (${spec}) into ${cacheDir}`,
    );
    const tarball = await npmPack(spec, workDir, options.npmCommand ?? 'npm');
    await verifySha256(tarball, DynamoDbLocalPackage.sha256);

    const extractDir = join(workDir, 'extract');
    await mkdir(extractDir);
    await execFileAsync('tar', [
      '-xzf',
      tarball,
      '-C',
      extractDir,
      '--no-same-owner',
      DynamoDbLocalPackage.emulatorPath,
    ]);
    const staged = join(extractDir, ...DynamoDbLocalPackage.emulatorPath.split('/'));
    await stat(join(staged, JarFile));
    const stamp = {
      package: spec,
      sha256: DynamoDbLocalPackage.sha256,
      extractedAt: new Date().toISOString(),
    };
    await writeFile(join(staged, StampFile), `${JSON.stringify(stamp)}\n`);

    await publish(staged, emulatorDir, join(workDir, 'replaced'));
    return jar;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Moves the complete, stamped directory into place with one rename. If the rename fails because
 * another process published first, theirs is as good as ours. A directory there without a valid
 * stamp cannot be anyone's work in progress (that lives in temp dirs), so it is moved aside.
 */
async function publish(staged: string, emulatorDir: string, aside: string): Promise<void> {
  try {
    await rename(staged, emulatorDir);
    return;
  } catch (error) {
    if (await isInstalled(emulatorDir)) return;
    await rename(emulatorDir, aside).catch(() => {});
    try {
      await rename(staged, emulatorDir);
    } catch {
      if (!(await isInstalled(emulatorDir))) throw error;
    }
  }
}

async function isInstalled(emulatorDir: string): Promise<boolean> {
  try {
    const stamp = JSON.parse(await readFile(join(emulatorDir, StampFile), 'utf8')) as { sha256?: unknown };
    if (stamp.sha256 !== DynamoDbLocalPackage.sha256) return false;
    await stat(join(emulatorDir, JarFile));
    return true;
  } catch {
    return false;
  }
}

async function removeStaleTempDirs(cacheDir: string): Promise<void> {
  const entries = await readdir(cacheDir).catch(() => []);
  for (const entry of entries) {
    if (!entry.startsWith('.tmp-')) continue;
    const path = join(cacheDir, entry);
    const info = await stat(path).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > StaleTempDirMs) await rm(path, { recursive: true, force: true });
  }
}

async function npmPack(spec: string, destination: string, npmCommand: string): Promise<string> {
  try {
    // --prefer-offline: npm's own cache may serve it; the pinned digest makes stale metadata harmless.
    const args = ['pack', spec, '--pack-destination', destination, '--ignore-scripts', '--prefer-offline'];
    await execFileAsync(npmCommand, args, { cwd: destination, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    const detail = lastLines(stderr.split('\n'), 5).join(' | ');
    throw new DynamoDbLocalError(
      DynamoDbLocalErrorCode.downloadFailed,
      `Could not fetch ${spec} with npm pack (is the npm registry reachable?)${detail ? `: ${detail}` : ''}`,
      { cause: error },
    );
  }
  const tarball = (await readdir(destination)).find((name) => name.endsWith('.tgz'));
  if (!tarball) {
    throw new DynamoDbLocalError(
      DynamoDbLocalErrorCode.downloadFailed,
      `npm pack ${spec} produced no tarball`,
    );
  }
  return join(destination, tarball);
}

async function verifySha256(file: string, expected: string): Promise<void> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const actual = hash.digest('hex');
  if (actual === expected) return;
  await rm(file, { force: true });
  throw new DynamoDbLocalError(
    DynamoDbLocalErrorCode.integrityMismatch,
    `Refusing DynamoDB Local: ${DynamoDbLocalPackage.name}@${DynamoDbLocalPackage.version} has SHA-256 ` +
      `${actual}, expected ${expected}. The tarball was deleted; check which npm registry is configured.`,
  );
}

export interface StartDynamoDbLocalOptions {
  /** Keep tables in memory only; otherwise they persist in `dbPath`. */
  inMemory: boolean;
  /**
   * The one access key whose database holds the tables (letters and digits): the JVM listens on
   * every interface, so a client that does not know the key reaches only an empty database of its
   * own. Default: a random key made for this instance (`accessKeyId` of the result); give one to
   * reach a persisted database again.
   */
  accessKeyId?: string | undefined;
  /**
   * Serve one database to every key (`-sharedDb`), so anyone who reaches the port reaches the
   * tables: only for an instance that holds nothing but generated data, like the test suite's
   * (docs/decisions.md "Who can reach the local table"). Not with `accessKeyId`.
   */
  sharedDb?: boolean | undefined;
  /** 0 or undefined picks a free port (and picks again if it is taken before the JVM binds it). */
  port?: number | undefined;
  /** Directory for the database file when not in memory (default `.local/dynamodb/` at the repo root). */
  dbPath?: string | undefined;
  cacheDir?: string | undefined;
  /** The java executable, looked up on `env.PATH` (default `java`). */
  javaCommand?: string | undefined;
  /** Environment for `java` (default `process.env`). */
  env?: NodeJS.ProcessEnv | undefined;
  /** How long to wait for the first successful ListTables (default 30 s). */
  readyTimeoutMs?: number | undefined;
  /** How a free port is chosen when `port` is 0 or undefined (default: ask the OS). */
  pickPort?: (() => Promise<number>) | undefined;
  /** Progress messages. */
  log?: ((message: string) => void) | undefined;
  /** Every line the JVM writes (stdout and stderr). */
  onOutput?: ((line: string) => void) | undefined;
  /** JVM flags placed before `-jar` (default `DefaultJvmArgs`). */
  jvmArgs?: readonly string[] | undefined;
}

/**
 * C1-only JIT and the serial collector start the emulator about a second sooner on a small machine;
 * it never runs long or hot enough for the optimising compiler to pay off.
 */
export const DefaultJvmArgs = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] as const;

export interface DynamoDbLocalExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What a client needs to reach one database of a DynamoDB Local: its endpoint and that database's key. */
export type DynamoDbLocalTarget = Pick<DynamoDbLocal, 'endpoint' | 'accessKeyId'>;

export interface DynamoDbLocal {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** The key clients sign with: the one given, a random one, or `SharedDbAccessKeyId` for `-sharedDb`. */
  accessKeyId: string;
  port: number;
  pid: number;
  /** Settles when the JVM exits, for whatever reason (stop() or a crash). Never rejects. */
  exited: Promise<DynamoDbLocalExit>;
  /** Terminates the JVM (SIGTERM, then SIGKILL after 5 s) and resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local and resolves once it answers a real ListTables call. Throws
 * `JavaMissingError` when Java 17+ cannot be run and `DynamoDbLocalError` otherwise. The JVM is
 * stopped by `stop()`, when this process exits, and by a watchdog when this process is killed;
 * signal handling stays with the caller.
 */
export async function startDynamoDbLocal(options: StartDynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const javaCommand = options.javaCommand ?? 'java';
  const env = options.env ?? process.env;
  await assertJavaAvailable(javaCommand, env);
  const { emulatorDir } = await ensureDynamoDbLocalJar({ cacheDir: options.cacheDir, log: options.log });

  const accessKeyId = instanceAccessKey(options);
  const databaseArgs = options.sharedDb === true ? ['-sharedDb'] : [];
  let storageArgs = ['-inMemory'];
  if (!options.inMemory) {
    const dbPath = resolve(options.dbPath ?? defaultDynamoDbLocalDbPath);
    // Owner only: the database file is named after the access key, and holds the data in the clear.
    // The folder is DynamoDB Local's own, so every file in it is closed, whoever made it.
    await privateDir(dbPath);
    await closeFiles(dbPath, await readdir(dbPath));
    if (options.accessKeyId !== undefined) await adoptSharedDatabase(dbPath, options.accessKeyId);
    storageArgs = ['-dbPath', dbPath];
  }

  const fixedPort = options.port !== undefined && options.port !== 0 ? options.port : undefined;
  const pickPort = options.pickPort ?? (() => findFreePort());
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await pickPort());
    const lastAttempt = fixedPort !== undefined || attempt >= AutoPortAttempts;
    try {
      // Checked first because a server already on the port would answer the readiness probe.
      if (!(await isPortFree(port))) throw portInUseError(port);
      return await launch({
        ...options,
        javaCommand,
        env,
        emulatorDir,
        accessKeyId,
        args: [...databaseArgs, ...storageArgs],
        port,
      });
    } catch (error) {
      if (!isPortInUse(error) || lastAttempt) throw error;
      options.log?.(`Port ${port} was taken before DynamoDB Local could bind it; trying another port`);
    }
  }
}

/**
 * The key the instance's clients sign with: the caller's, a fresh random one (hex: DynamoDB Local
 * takes letters and digits only), or `SharedDbAccessKeyId` when the caller asked for `-sharedDb`.
 */
function instanceAccessKey(options: StartDynamoDbLocalOptions): string {
  if (options.sharedDb === true) {
    if (options.accessKeyId !== undefined) {
      throw new DynamoDbLocalError(
        DynamoDbLocalErrorCode.invalidAccessKey,
        'A -sharedDb DynamoDB Local serves every key the same database: it takes no access key.',
      );
    }
    return SharedDbAccessKeyId;
  }
  const accessKeyId = options.accessKeyId ?? randomBytes(16).toString('hex');
  if (!/^[A-Za-z0-9]+$/.test(accessKeyId)) {
    throw new DynamoDbLocalError(
      DynamoDbLocalErrorCode.invalidAccessKey,
      'The DynamoDB Local access key must be letters and digits only.',
    );
  }
  return accessKeyId;
}

function portInUseError(port: number): DynamoDbLocalError {
  return new DynamoDbLocalError(
    DynamoDbLocalErrorCode.portInUse,
    `DynamoDB Local cannot listen on port ${port}: the address is already in use. ` +
      'Stop whatever holds it or choose another port (0 picks a free one).',
  );
}

function isPortInUse(error: unknown): boolean {
  return error instanceof DynamoDbLocalError && error.code === DynamoDbLocalErrorCode.portInUse;
}

/**
 * Data persisted by a `-sharedDb` instance (before the runtime had an access key) becomes the
 * database of `accessKeyId`, so upgrading keeps a developer's table; a database of that key wins.
 */
async function adoptSharedDatabase(dbPath: string, accessKeyId: string): Promise<void> {
  const keyed = join(dbPath, `${accessKeyId}_${DynamoDbLocalRegion}.db`);
  if ((await stat(keyed).catch(() => undefined)) !== undefined) return;
  await rename(join(dbPath, SharedDbFile), keyed).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

interface LaunchOptions extends StartDynamoDbLocalOptions {
  javaCommand: string;
  env: NodeJS.ProcessEnv;
  emulatorDir: string;
  accessKeyId: string;
  /** Database and storage flags: `-sharedDb`, `-inMemory` or `-dbPath <dir>`. */
  args: string[];
  port: number;
}

async function launch(options: LaunchOptions): Promise<DynamoDbLocal> {
  const { port } = options;
  const endpoint = `http://${LOOPBACK_HOST}:${port}`;
  const args = [
    ...(options.jvmArgs ?? DefaultJvmArgs),
    '-Djava.library.path=./DynamoDBLocal_lib',
    '-jar',
    JarFile,
    '-port',
    String(port),
    '-disableTelemetry',
    ...options.args,
  ];
  options.log?.(`Starting DynamoDB Local on ${endpoint}`);
  // Through `sh` for the umask alone: the JVM's database files are this user's only, whatever the
  // umask this process runs under. `exec` keeps the pid, so stop() and the watchdog reach the JVM.
  const child = spawn('sh', ['-c', 'umask 077 && exec "$0" "$@"', options.javaCommand, ...args], {
    cwd: options.emulatorDir,
    // Telemetry is off twice over: the flag and the variable AWS documents for it.
    env: { ...options.env, DDB_LOCAL_TELEMETRY: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  endWithThisProcess(child, {
    onError: (error) => options.log?.(`DynamoDB Local runs without its watchdog: ${error.message}`),
  });

  // A JVM whose port is taken only logs "Address already in use" and keeps running, so the output
  // is the only place the failure shows.
  let failure: Error | undefined;
  const output: string[] = [];
  const onLine = (line: string) => {
    output.push(line);
    if (output.length > OutputTailLines) output.shift();
    options.onOutput?.(line);
    if (!failure && /Address already in use|Failed to bind/.test(line)) failure = portInUseError(port);
  };
  forEachLine(child.stdout, onLine);
  forEachLine(child.stderr, onLine);

  const exited = new Promise<DynamoDbLocalExit>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
  });
  child.once('error', (error: NodeJS.ErrnoException) => {
    failure ??= error.code === 'ENOENT' ? new JavaMissingError({ cause: error }) : error;
  });
  void exited.then(({ code, signal }) => {
    failure ??= new DynamoDbLocalError(
      DynamoDbLocalErrorCode.exited,
      `DynamoDB Local exited (${signal ?? `code ${code}`}) before it was ready. Last output:\n${output.join('\n')}`,
    );
  });

  const client = new DynamoDBClient({
    ...dynamoDbLocalClientConfig(endpoint, options.accessKeyId),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 },
  });
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  try {
    for (;;) {
      if (failure) throw failure;
      if (Date.now() > deadline) {
        throw new DynamoDbLocalError(
          DynamoDbLocalErrorCode.timeout,
          `DynamoDB Local did not answer on ${endpoint} within ${options.readyTimeoutMs ?? 30_000} ms. ` +
            `Last output:\n${output.join('\n')}`,
        );
      }
      const ready = await client.send(new ListTablesCommand({ Limit: 1 })).then(
        () => true,
        () => false,
      );
      if (failure) throw failure;
      if (ready) break;
      await sleep(100);
    }
  } catch (error) {
    await terminate(child, exited);
    throw error;
  } finally {
    client.destroy();
  }

  let stopping: Promise<void> | undefined;
  return {
    endpoint,
    accessKeyId: options.accessKeyId,
    port,
    pid: child.pid ?? -1,
    exited,
    stop() {
      stopping ??= terminate(child, exited);
      return stopping;
    },
  };
}

async function terminate(child: ChildProcess, exited: Promise<DynamoDbLocalExit>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), sleep(5_000, false, { ref: false })]);
  if (!stopped) {
    child.kill('SIGKILL');
    await exited;
  }
}

const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Fallback for a caller that never calls stop(): the JVM must not outlive this process. */
function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  child.once('error', () => liveChildren.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const live of liveChildren) live.kill('SIGTERM');
  });
}

function forEachLine(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (pending) onLine(pending);
  });
}

function lastLines(lines: string[], count: number): string[] {
  return lines.filter((line) => line.trim() !== '').slice(-count);
}

/**
 * Runs `java -version` so a missing or too old Java fails with one clear line instead of a spawn
 * error or a stack trace from the JVM.
 */
export async function assertJavaAvailable(
  javaCommand = 'java',
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const result = await new Promise<{ code: number | null; output: string } | { error: Error }>((done) => {
    let output = '';
    const child = spawn(javaCommand, ['-version'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 15_000,
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('error', (error) => done({ error }));
    child.once('close', (code) => done({ code, output }));
  });
  if ('error' in result) throw new JavaMissingError({ cause: result.error });
  if (result.code !== 0) throw new JavaMissingError();
  const major = parseJavaMajorVersion(result.output);
  if (major !== undefined && major < MinimumJavaVersion) throw new JavaMissingError({ foundVersion: major });
}

/** `openjdk version "17.0.15"` → 17, `java version "1.8.0_291"` → 8; undefined when unrecognised. */
export function parseJavaMajorVersion(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}
