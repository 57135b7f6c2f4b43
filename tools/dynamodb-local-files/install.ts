import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const StampFile = '.complete.json';
export const JarFile = 'DynamoDBLocal.jar';
const execFileAsync = promisify(execFile);

type Log = ((message: string) => void) | undefined;

/**
 * AWS's emulator ships inside this npm package's `package/emulator/`. Only the tarball is fetched
 * (`npm pack`), never its dependency tree, and its pinned digest refuses a changed tarball.
 */
const DynamoDbLocalPackage = {
  name: 'amplify-dynamodb-simulator',
  version: '2.9.30',
  sha256: '3503ffac19f183407909fecdacf4db51ab1fdad1da7b2f177016670b2d80e4b9',
  emulatorPath: 'package/emulator',
  dynamoDbLocalVersion: '1.25.1',
} as const;

export const DynamoDbLocalErrorCode = {
  downloadFailed: 'download.failed',
  integrityMismatch: 'download.integrityMismatch',
  portInUse: 'start.portInUse',
  exited: 'start.exited',
  timeout: 'start.timeout',
  invalidAccessKey: 'start.invalidAccessKey',
} as const;
export type DynamoDbLocalErrorCode = (typeof DynamoDbLocalErrorCode)[keyof typeof DynamoDbLocalErrorCode];

export class DynamoDbLocalError extends Error {
  override name = 'DynamoDbLocalError';

  constructor(
    readonly code: DynamoDbLocalErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Makes sure DynamoDB Local is unpacked in the cache (default `.cache/dynamodb-local/`) and returns
 * where. The first call runs `npm pack`, checks the SHA-256, extracts only the emulator and
 * publishes it with one `rename`, so concurrent callers see a complete directory or none.
 */
export async function ensureDynamoDbLocalJar(
  options: { cacheDir?: string | undefined; npmCommand?: string | undefined; log?: Log } = {},
): Promise<{ emulatorDir: string; jarPath: string }> {
  const cacheDir = resolve(options.cacheDir ?? join(repoRoot, '.cache', 'dynamodb-local'));
  const { name, version, sha256, emulatorPath, dynamoDbLocalVersion } = DynamoDbLocalPackage;
  const emulatorDir = join(cacheDir, version);
  const jar = { emulatorDir, jarPath: join(emulatorDir, JarFile) };
  if (await isInstalled(emulatorDir)) return jar;
  await mkdir(cacheDir, { recursive: true });
  const workDir = await mkdtemp(join(cacheDir, `.tmp-${version}-`));
  try {
    const spec = `${name}@${version}`;
    options.log?.(`Fetching DynamoDB Local ${dynamoDbLocalVersion} (${spec}) into ${cacheDir}`);
    const tarball = await npmPack(spec, workDir, options.npmCommand ?? 'npm');
    await verifySha256(tarball);
    await execFileAsync('tar', ['-xzf', tarball, '-C', workDir, '--no-same-owner', emulatorPath]);
    const staged = join(workDir, ...emulatorPath.split('/'));
    await stat(join(staged, JarFile));
    const stamp = { package: spec, sha256, extractedAt: new Date().toISOString() };
    await writeFile(join(staged, StampFile), `${JSON.stringify(stamp)}\n`);
    // One rename publishes it; if another process published first, theirs is as good as ours.
    await rename(staged, emulatorDir).catch(async (error: unknown) => {
      if (!(await isInstalled(emulatorDir))) throw error;
    });
    return jar;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function isInstalled(emulatorDir: string): Promise<boolean> {
  try {
    const stamp = JSON.parse(await readFile(join(emulatorDir, StampFile), 'utf8')) as { sha256?: unknown };
    await stat(join(emulatorDir, JarFile));
    return stamp.sha256 === DynamoDbLocalPackage.sha256;
  } catch {
    return false;
  }
}

async function npmPack(spec: string, destination: string, npmCommand: string): Promise<string> {
  const failed = (detail: string, cause?: unknown) =>
    new DynamoDbLocalError(DynamoDbLocalErrorCode.downloadFailed, detail, { cause });
  // --prefer-offline: npm's own cache may serve it; the pinned digest makes stale metadata harmless.
  const args = ['pack', spec, '--pack-destination', destination, '--ignore-scripts', '--prefer-offline'];
  await execFileAsync(npmCommand, args, { cwd: destination, maxBuffer: 16 * 1024 * 1024 }).catch((error) => {
    const lines = String(error.stderr ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const detail = lines.length > 0 ? `: ${lines.slice(-5).join(' | ')}` : '';
    throw failed(`Could not fetch ${spec} with npm pack (is the npm registry reachable?)${detail}`, error);
  });
  const tarball = (await readdir(destination)).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw failed(`npm pack ${spec} produced no tarball`);
  return join(destination, tarball);
}

async function verifySha256(file: string): Promise<void> {
  const { name, version, sha256: expected } = DynamoDbLocalPackage;
  const actual = createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
  if (actual === expected) return;
  await rm(file, { force: true });
  throw new DynamoDbLocalError(
    DynamoDbLocalErrorCode.integrityMismatch,
    `Refusing DynamoDB Local: ${name}@${version} has SHA-256 ${actual}, expected ${expected}. ` +
      'The tarball was deleted; check which npm registry is configured.',
  );
}
