import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { JarFile } from './install';

const ArchiveDir = 'class-archive';
const LibDir = 'DynamoDBLocal_lib';
const ManifestEntry = 'META-INF/MANIFEST.MF';
/** The manifest's limit is 72 bytes a line; its entries are ASCII. */
const ManifestLineLength = 70;

export interface ClassArchiveOptions {
  emulatorDir: string;
  /** What `java -version` printed: an archive serves one Java build. */
  javaVersion: string;
  /** Starts the emulator with these JVM flags and `-jar jar`, stops it once it answers, and says how it exited. */
  train: (flags: string[], jar: string) => Promise<{ signal: NodeJS.Signals | null }>;
  log?: ((message: string) => void) | undefined;
}

/** Per emulator and Java build, this process's making of the archive: the suite's instances start together. */
const making = new Map<string, Promise<string | undefined>>();

/**
 * The JVM flags and jar DynamoDB Local starts with: its classes from a class archive, which the
 * first start makes (docs/decisions/local-runtime.md#the-class-archive); the original jar alone if
 * making one fails.
 */
export async function classArchiveLaunch(
  options: ClassArchiveOptions,
): Promise<{ flags: string[]; jar: string }> {
  const key = `${options.emulatorDir}\n${options.javaVersion}`;
  const made = making.get(key) ?? makeArchive(options);
  making.set(key, made);
  const archive = await made;
  if (archive === undefined) return { flags: [], jar: JarFile };
  return { flags: [`-XX:SharedArchiveFile=${archive}`], jar: join(dirname(archive), JarFile) };
}

async function makeArchive(options: ClassArchiveOptions): Promise<string | undefined> {
  const dir = join(options.emulatorDir, ArchiveDir);
  const jar = join(dir, JarFile);
  let partial: string | undefined;
  try {
    await mkdir(dir, { recursive: true });
    await stat(jar).catch(() => writeArchivableJar(join(options.emulatorDir, JarFile), jar));
    const archive = join(dir, `${await archiveName(options.emulatorDir, options.javaVersion)}.jsa`);
    if (await stat(archive).then(Boolean, () => false)) return archive;
    options.log?.("Making DynamoDB Local's class archive, once for this Java and these jars");
    partial = `${archive}.${process.pid}.tmp`;
    // The JVM writes the archive as it exits: one ended by SIGKILL may have written part of it.
    const exit = await options.train([`-XX:ArchiveClassesAtExit=${partial}`], jar);
    if (exit.signal === 'SIGKILL') throw new Error('the JVM that makes it did not exit in time');
    await rename(partial, archive);
    for (const stale of (await readdir(dir)).filter((file) => /^[0-9a-f]+\.jsa$/.test(file))) {
      if (join(dir, stale) !== archive) await rm(join(dir, stale), { force: true });
    }
    return archive;
  } catch (error) {
    options.log?.(`DynamoDB Local starts without a class archive: ${(error as Error).message}`);
    if (partial) await rm(partial, { force: true });
    return undefined;
  }
}

/**
 * An archive serves the Java build that made it and the jars as they were then: the JVM refuses it
 * when either changed, size or time, so both name it.
 */
async function archiveName(emulatorDir: string, javaVersion: string): Promise<string> {
  const libDir = join(emulatorDir, LibDir);
  const libJars = (await readdir(libDir)).filter((file) => file.endsWith('.jar')).sort();
  const hash = createHash('sha256').update(javaVersion);
  for (const jar of [join(emulatorDir, ArchiveDir, JarFile), ...libJars.map((file) => join(libDir, file))]) {
    const { size, mtimeMs } = await stat(jar);
    hash.update(`\n${jar} ${size} ${mtimeMs}`);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * Copies the emulator's jar to `target` with a manifest that lists only its library jars. The JVM
 * archives no classes while its class path names a folder that holds files or a file that is no
 * jar, and the original's manifest names its own folder and the SQLite libraries.
 */
export async function writeArchivableJar(source: string, target: string): Promise<void> {
  const entries = unzipSync(await readFile(source));
  const manifest = entries[ManifestEntry];
  if (!manifest) throw new Error(`${source} has no ${ManifestEntry}`);
  entries[ManifestEntry] = strToU8(archivableManifest(strFromU8(manifest)));
  const partial = `${target}.${process.pid}.tmp`;
  await writeFile(partial, zipSync(entries, { level: 0 }));
  await rename(partial, target);
}

/** The manifest with its `Class-Path` cut to jars, each named from the copy's folder. */
export function archivableManifest(manifest: string): string {
  const jarsOnly = (entries: string) =>
    entries
      .split(' ')
      .filter((entry) => entry.endsWith('.jar'))
      .map((jar) => `../${jar}`)
      .join(' ');
  const lines = manifest.replace(/\r?\n /g, '').split(/\r?\n/);
  const rewritten = lines.map((line) =>
    line.replace(/^Class-Path:(.*)$/, (_, entries) => `Class-Path: ${jarsOnly(entries)}`),
  );
  return rewritten.map(fold).join('\r\n');
}

/** One manifest line as the format wants it: at most 70 bytes, continued on lines that begin with a space. */
function fold(line: string): string {
  const parts = [line.slice(0, ManifestLineLength)];
  for (let at = ManifestLineLength; at < line.length; at += ManifestLineLength - 1) {
    parts.push(` ${line.slice(at, at + ManifestLineLength - 1)}`);
  }
  return parts.join('\r\n');
}
