import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import sparticuzChromium from '@sparticuz/chromium';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, used where the machine has it. */
export const systemChromiumPath = '/usr/bin/chromium';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** `.cache/chromium/` at the repository root (git-ignored), beside DynamoDB Local's cache. */
const cacheDir = join(repoRoot, '.cache', 'chromium');
const StampFile = '.complete';
const LockWaitMs = 180_000;
/** A lock older than this was left by a run that died while unpacking. */
const StaleLockMs = 10 * 60_000;

/**
 * The Chromium the browser tests drive: Debian's where it is installed, else the one that ships
 * inside the `@sparticuz/chromium` package, so `npm install && npm test` needs no browser on the
 * machine and nothing downloads one.
 */
export async function chromiumExecutable(
  systemPath: string = systemChromiumPath,
): Promise<{ path: string; source: 'system' | 'package' }> {
  if (existsSync(systemPath)) return { path: systemPath, source: 'system' };
  return { path: await packagedChromium(), source: 'package' };
}

/**
 * Unpacks the packaged Chromium once into `.cache/chromium/<version>/` and returns its binary.
 * The package unpacks into the temporary folder and takes any file already there as complete, so
 * two test files unpacking at once, or a run killed half way, could start a truncated binary:
 * here one process unpacks at a time (a lock folder), into a folder of its own that it publishes
 * with one rename once complete.
 */
async function packagedChromium(): Promise<string> {
  const version = await packageVersion();
  const target = join(cacheDir, version);
  const binary = join(target, 'chromium');
  const lock = join(cacheDir, `${version}.lock`);
  await mkdir(cacheDir, { recursive: true });
  const deadline = Date.now() + LockWaitMs;
  while (!existsSync(join(target, StampFile))) {
    if (await takeLock(lock)) {
      try {
        if (!existsSync(join(target, StampFile))) await unpack(target);
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() > deadline)
      throw new Error(`Chromium is still being unpacked into ${target} (lock ${lock})`);
    await sleep(250);
  }
  return binary;
}

async function takeLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (age > StaleLockMs) await rm(lock, { recursive: true, force: true });
    return false;
  }
}

async function unpack(target: string): Promise<void> {
  const staging = `${target}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await rm(target, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  // The package names every output path from os.tmpdir() before its first await, so pointing
  // TMPDIR at the staging folder for that synchronous start is enough, and nothing else of this
  // process sees the change.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  let unpacking: Promise<string>;
  try {
    unpacking = sparticuzChromium.executablePath();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  const binary = await unpacking;
  if (binary !== join(staging, 'chromium')) throw new Error(`Chromium unpacked to ${binary}, not ${staging}`);
  await writeFile(join(staging, StampFile), '');
  await rename(staging, target);
}

async function packageVersion(): Promise<string> {
  const entry = fileURLToPath(import.meta.resolve('@sparticuz/chromium'));
  const manifest = join(dirname(entry), '..', 'package.json');
  return (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
}

/**
 * Headless, and quiet on this machine's closed network: without the background-networking flags
 * Chromium keeps opening connections that are refused.
 */
export const chromiumLaunchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  const { path } = await chromiumExecutable();
  return chromium.launch({ executablePath: path, args: chromiumLaunchArgs });
}
